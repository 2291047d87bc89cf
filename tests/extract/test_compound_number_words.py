"""Compound numbers in words are read whole (advisor/extract/rules_number_words.py): "two hundred million
tokens" was 100M, "twenty five thousand dollars" $5,000, "one point five billion" 5B (expert review 7's
notes); and a quantity after "on" is not a day.month date ("on 1.5 billion tokens" was due 1 May)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from advisor.extract.rules_number_words import compound_number_words
from tools.profile import WorkloadProfile

Extract = Callable[..., WorkloadProfile]


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("two hundred million tokens", "200 million tokens"),
        ("three hundred and fifty million", "350 million"),
        ("twenty-five thousand dollars", "25000 dollars"),
        ("one point five billion", "1.5 billion"),
        ("two and a half million", "2.5 million"),
        ("seven hundred thousand documents", "700000 documents"),
        ("within forty-eight hours", "within 48 hours"),
        # not one number, or a single word the rules read already: unchanged
        ("one or two GPUs", "one or two GPUs"),
        ("four five six", "four five six"),
        ("two GPUs", "two GPUs"),
        ("one of us", "one of us"),
        ("a hundred users", "a hundred users"),
    ],
)
def test_compound_number_words(text: str, want: str) -> None:
    assert compound_number_words(text)[0] == want


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        ("LoRA on Llama 3.1 8B with two hundred million tokens.", 2e8),
        ("LoRA on Llama 3.1 8B with three hundred and fifty million tokens.", 3.5e8),
        ("Fine-tune Llama 3.1 8B on one point five billion tokens.", 1.5e9),
    ],
)
def test_dataset_sizes_in_words(extract: Extract, text: str, tokens: float) -> None:
    p = extract(text)
    assert p.dataset_tokens == pytest.approx(tokens)
    assert p.deadline_hours is None


def test_budget_in_words(extract: Extract) -> None:
    p = extract("LoRA of Llama 3.1 8B on 10M tokens, budget of twenty five thousand dollars.")
    assert p.budget_usd == pytest.approx(25_000)


@pytest.mark.parametrize(
    "text",
    ["Fine-tune Llama 3.1 8B on 1.5 billion tokens.", "Fine-tune Llama 3.1 8B on 2.5 TB of text."],
)
def test_a_quantity_after_on_is_not_a_date(extract: Extract, text: str) -> None:
    assert extract(text).deadline_hours is None


def test_a_date_after_on_still_is(extract: Extract) -> None:
    p = extract("LoRA Llama 3.1 8B on 20M tokens, due on 15.12.")
    assert p.deadline_hours is not None and p.dataset_tokens == pytest.approx(2e7)
