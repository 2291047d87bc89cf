"""Expert review 16, R16: "How many GPUs" with no GPU named is a count asked (count_asked), answered on the
pick's GPU; a named GPU stays gpus_wanted, and "at minimum" stays the smallest set-up (memory_asked)."""

from __future__ import annotations

import pytest

from advisor.extract.rules import RulesExtractor

BASE = "We want to pretrain a 7B model on 2T tokens and want it done in 60 days. "


@pytest.mark.parametrize(
    "question", ["How many GPUs do we need?", "how many GPUs would it take", "How many GPUs?"]
)
def test_a_generic_count_question_is_read(question: str) -> None:
    p = RulesExtractor().extract(BASE + question)
    assert p.count_asked is True and not p.gpus_wanted


@pytest.mark.parametrize(
    "question",
    [
        "How many H100s do we need?",  # a named GPU: gpus_wanted
        "How many GPUs at minimum do we need?",  # the smallest set-up
        "We have 8 GPUs and wonder how many hours it takes.",
    ],
)
def test_near_misses_are_not_a_generic_count(question: str) -> None:
    assert RulesExtractor().extract(BASE + question).count_asked is None
