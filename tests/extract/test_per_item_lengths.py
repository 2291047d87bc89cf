"""Lengths said per item ("Output tokens per prompt: 300") and a prompt/answer pair without a comma
("1k in 300 out"): issue 12, gap 5 (advisor/extract/rules_length_slots.py, rules_serving_io.py)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tools.profile import WorkloadProfile

Extract = Callable[..., WorkloadProfile]

SERVE = "Serve Llama 3 8B to 50 concurrent users. "


@pytest.mark.parametrize(
    ("text", "prompt", "output"),
    [
        # the phrasing found: the role word after "per" is the item counted, not the figure's role
        ("Output tokens per prompt: 300", None, 300),
        ("Response tokens per request: 350, prompt tokens per request ~1200", 1200, 350),
        ("Input tokens per call: 2,000; output tokens per call: 250", 2000, 250),
        # a prompt and an answer length in one breath, no separator
        ("1k in 300 out", 1000, 300),
        ("1k in, 300 out", 1000, 300),
        ("shape is roughly 2k tokens in 400 out", 2000, 400),
    ],
)  # fmt: skip
def test_lengths_per_item(extract: Extract, text: str, prompt: int | None, output: int) -> None:
    p = extract(SERVE + text)
    assert (p.prompt_tokens, p.output_tokens) == (prompt, output)


def test_items_per_prompt_are_not_a_length(extract: Extract) -> None:
    # near miss: a count of completions for each prompt is not an answer length in tokens
    p = extract(SERVE + "completions per prompt: 4, prompts ~800 tokens")
    assert (p.prompt_tokens, p.output_tokens) == (800, None)


def test_steps_in_a_sentence_are_not_a_pair(extract: Extract) -> None:
    # near miss: "1k in 300 steps" is no prompt/answer pair
    p = extract(SERVE + "we trained 1k in 300 steps, out of budget")
    assert (p.prompt_tokens, p.output_tokens) == (None, None)
