"""Form layouts from the v14 eval set (evals/cases_v14/, development data) read generally (issue 12): a
semicolon table from a decimal-comma spreadsheet, a form's count row ("Documents: 400,000"), and a
day-month-year date with hyphens; each with variants of our own and a near miss."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from advisor.extract.count_keys import count_keys
from advisor.extract.semicolon_rows import csv_rows, semicolon_rows
from tools.profile import WorkloadProfile

Extract = Callable[..., WorkloadProfile]

_DUTCH = (
    "Item;Value\nDocuments;400.000\nModel;Mistral Small 24B\n"
    "Avg. input tokens;2.100\nAvg. output tokens;1.200\n"
)


def test_semicolon_table_with_dot_groups_is_read(extract: Extract) -> None:
    p = extract(_DUTCH + "Deadline;30-11-2026\nBudget (EUR);5.000\nSpot;no\nStaff on project;3")
    assert (p.prompt_tokens, p.output_tokens) == (2100, 1200)
    assert p.generation_tokens == 400_000 * 1200
    assert p.deadline_hours == 303.0  # 18 Nov 09:00 -> end of 30 Nov = 12 days 15 h
    assert "spot" in p.pricing_excluded


@pytest.mark.parametrize(
    ("text", "out"),
    [
        (
            "Veld;Waarde\nPrompts;1.250.000\nPrice;0,24\n",
            "| Veld | Waarde |\n| Prompts | 1,250,000 |\n| Price | 0.24 |\n",
        ),
        (
            "Feld ; Wert\nRecords ; 12.000\nModel ; Llama 3 8B",
            "| Feld | Wert |\n| Records | 12,000 |\n| Model | Llama 3 8B |",
        ),
    ],
)
def test_semicolon_rows_variants(text: str, out: str) -> None:
    assert semicolon_rows(text) == out


@pytest.mark.parametrize(
    "text",
    [
        "We serve Llama 3 8B; it needs 1.200 ms p95.\nThat's all.",  # one such line in prose: not a table
        "a;b\nc;d\nplain line\ne;f",  # two rows, then prose: no run of three
    ],
)
def test_semicolon_prose_is_left_alone(text: str) -> None:
    assert semicolon_rows(text) == text


@pytest.mark.parametrize(
    ("text", "out"),
    [
        ("Documents: 400,000", "400,000 Documents"),
        ("| Number of prompts: 2M", "| 2M prompts"),
        ("- reviews (#) = 40 million", "- 40 million reviews"),
    ],
)
def test_count_rows_read_as_counts(text: str, out: str) -> None:
    assert count_keys(text) == out


@pytest.mark.parametrize(
    "text",
    [
        "Staff on project: 3",  # not a count of items
        "Avg. output tokens: 1,200",  # a length with its unit
        "Documents: about 400,000 of them, mostly PDFs",  # a sentence, not a bare value
    ],
)
def test_count_rows_near_misses(text: str) -> None:
    assert count_keys(text) == text


def test_count_row_gives_the_volume(extract: Extract) -> None:
    p = extract("Batch job, Mistral Small 24B, due by 30 Nov.\nPrompts: 2M\nAvg. output tokens: 300")
    assert p.generation_tokens == 2_000_000 * 300


@pytest.mark.parametrize(
    ("said", "hours"),
    [("30-11-2026", 303.0), ("01-12-2026", 327.0)],  # 18 Nov 09:00 -> end of 30 Nov / end of 1 Dec
)
def test_hyphenated_day_month_year_deadline(extract: Extract, said: str, hours: float) -> None:
    assert extract(f"Serve Mistral Small 24B for a batch. Deadline: {said}.").deadline_hours == hours


def test_hyphenated_range_is_not_a_date(extract: Extract) -> None:
    # "3-4 days" is a duration; "30-11" without the year stays unread as a date
    assert extract("Batch with Mistral Small 24B, deadline: 3-4 days.").deadline_hours == 96.0
    assert extract("Batch with Mistral Small 24B, deadline: 30-11.").deadline_hours is None


# ------------------------------------------------------------------ a comma CSV of settings
_CSV = (
    "requirement,value,notes\nmodel,Qwen3-32B,\npeak_concurrency,64,\n"
    "prompt_tokens,2000,avg incl. system prompt\n"
    "output_tokens,600,\nexcluded_providers,GCP,\nallowed_gpus,H100 / H200,"
)


def test_csv_of_settings_is_read(extract: Extract) -> None:
    p = extract(_CSV)
    assert (p.concurrency, p.prompt_tokens, p.output_tokens) == (64, 2000, 600)
    assert p.providers_excluded == ["gcp"]
    assert "h200" in p.gpus_wanted


def test_csv_variant_with_setting_header(extract: Extract) -> None:
    p = extract("name,setting\nmodel,Llama 3.1 8B\nconcurrent_users,40\nmax_output_tokens,300\n")
    assert p.concurrency == 40


def test_csv_of_records_is_not_settings() -> None:
    text = "asset_tag,model,gpus\nSYD-1,Supermicro,4\nSYD-2,Dell,2"
    assert csv_rows(text) == text


def test_prose_with_commas_is_not_a_csv() -> None:
    text = "name,value\nWe serve Llama, Qwen, and Mistral\nfor 40 users, mostly EU\nand that's it, thanks"
    assert csv_rows(text) == text


# ------------------------------------------------------------------ a key naming the GPUs allowed
@pytest.mark.parametrize(
    ("text", "wanted", "excluded"),
    [
        ("Serve Qwen3-32B.\nAllowed GPUs: H100, H200", {"h200"}, set()),
        ("Serve Qwen3-32B.\nApproved hardware: L40S", {"l40s"}, set()),
        ("Serve Qwen3-32B.\nExcluded cards: L4", set(), {"l4"}),
    ],
)
def test_gpu_list_keys(extract: Extract, text: str, wanted: set[str], excluded: set[str]) -> None:
    p = extract(text)
    assert wanted <= set(p.gpus_wanted)
    assert excluded <= set(p.gpus_excluded)
    assert not (wanted & set(p.gpus_excluded))


def test_allowed_providers_key_is_not_a_gpu_list(extract: Extract) -> None:
    p = extract("Serve Qwen3-32B on an H100.\nAllowed providers: AWS")
    assert p.gpus_excluded == []
