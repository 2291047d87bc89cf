"""Form layouts from the v14 eval set (evals/cases_v14/, development data) read generally (issue 12): a
semicolon table from a decimal-comma spreadsheet, a form's count row ("Documents: 400,000"), and a
day-month-year date with hyphens; each with variants of our own and a near miss."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from advisor.extract.count_keys import count_keys
from advisor.extract.semicolon_rows import semicolon_rows
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
