"""Expert review 7, R06: a dictated model name ("llama three point one seventy b instruct") is read
(advisor/extract/rules_spoken.py); a request whose model cannot be read asks which model."""

from __future__ import annotations

import pytest

from advisor.api import ask
from advisor.extract.rules import RulesExtractor
from advisor.extract.rules_spoken import spoken_model_names

R06 = (
    "ok so fifty million tokens of output with llama three point one seventy b instruct. batch job, by "
    "friday comma cheapest option please"
)


def test_review_phrasing_reads_the_model() -> None:
    p = RulesExtractor().extract(R06)
    assert p.model_id == "llama-3.1-70b"


@pytest.mark.parametrize(
    ("text", "model_id"),
    [
        ("LoRA fine tune llama three eight bee on twenty million tokens", "llama-3-8b"),
        ("LoRA fine tune mist roll seven b on 20M tokens", "mistral-7b-v0.3"),
        ("serve mixed rail eight by seven b to 20 users", "mixtral-8x7b"),
        ("serve qwen two point five seventy two b to 20 users", "qwen2.5-72b"),
        ("serve llama three point one four oh five b to 20 users", "llama-3.1-405b"),
    ],
)
def test_other_dictated_names(text: str, model_id: str) -> None:
    assert RulesExtractor().extract(text).model_id == model_id


@pytest.mark.parametrize(
    "text",
    ["the mist rolled in over three days", "the queen two weeks ago", "llama 3.1 70B instruct",
     "three point one million tokens with llama 3 8b"],
)  # fmt: skip
def test_near_misses_are_left_as_written(text: str) -> None:
    assert spoken_model_names(text) == (text, [])


def test_the_dictated_words_are_not_listed_as_unused() -> None:
    out = ask(R06)
    unused = " ".join(str(u) for u in out.get("input_account", {}).get("unused", []))
    assert "seventy" not in unused


def test_an_unread_model_gets_a_question_not_silence() -> None:
    out = ask("fifty million tokens of output with our in-house model, by friday, cheapest please")
    text = str(out).lower()
    assert "which model" in text
