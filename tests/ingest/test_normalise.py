"""Issue 12: brief text as PDFs and DOCX files give it (hyphenated words, values split across lines,
headers and footers on every page) is normalised before the extractor reads it."""

from __future__ import annotations

from pathlib import Path

import pytest

from advisor.extract.rules import RulesExtractor
from advisor.ingest import join_pages, normalise, read_brief, strip_page_furniture

DEV_BRIEFS = Path(__file__).resolve().parents[2] / "evals" / "cases_v2" / "dev" / "briefs"


def _read(text: str) -> dict[str, object]:
    return {f.field: f.value for f in RulesExtractor().analyse(text).findings}


@pytest.mark.parametrize(
    ("raw", "clean"),
    [
        ("Training se-\nquence length: 4,096 tokens", "Training sequence length: 4,096 tokens"),
        ("we now want our own fine-\ntuned model", "we now want our own fine-tuned model"),
        ("continued pre-\ntraining on legal text", "continued pre-training on legal text"),
        ("about 1.2\nbillion tokens", "about 1.2 billion tokens"),
        ("about 20 B\ntokens in total", "about 20 B tokens in total"),
        ("deadline: 3\nweeks", "deadline: 3 weeks"),
        ("Goals\n•\n•\n- serve 300 users", "Goals\n- serve 300 users"),
    ],
)
def test_normalise(raw: str, clean: str) -> None:
    assert normalise(raw) == clean


def test_a_key_value_line_after_a_number_stays_its_own_line() -> None:
    assert normalise("Epochs: 2\nGPUs: 8\nusers: 40") == "Epochs: 2\nGPUs: 8\nusers: 40"


def test_hyphenated_sequence_length_is_read_after_normalising() -> None:
    raw = "Training se-\nquence length: 4,096 tokens"
    # The extractor joins the hyphenation itself (brief_text.normalise), so a pasted message reads the
    # same as an uploaded brief.
    assert _read(raw)["seq_len"] == 4096
    assert _read(normalise(raw))["seq_len"] == 4096


def test_headers_footers_and_page_numbers_repeated_on_every_page_go() -> None:
    pages = [
        "Project Atlas - Internal - v0.3\nWe will LoRA fine-tune Llama 3.1 70B on 1.2\nPage 1 of 2",
        "Project Atlas - Internal - v0.3\nbillion tokens, 2 epochs.\nServing: 300 users.\nPage 2 of 2",
    ]
    text = normalise(join_pages(strip_page_furniture(pages)))
    assert "Project Atlas" not in text and "Page" not in text
    assert "1.2 billion tokens" in text  # the sentence ran on across the page break
    assert _read(text)["dataset_tokens"] == 1.2e9


def test_a_line_on_one_page_only_is_kept() -> None:
    pages = ["Scope\nTrain Llama 3 8B.", "Budget\nAt most $5k."]
    assert strip_page_furniture(pages) == pages


def test_dev_pdf_brief_reads_clean() -> None:
    text = read_brief(DEV_BRIEFS / "atlas_two_workloads.pdf")
    assert "sequence length: 4,096 tokens" in text
    assert "Page 1 of 2" not in text and "•" not in text
