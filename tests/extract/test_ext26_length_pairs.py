"""A request's prompt and output lengths written as a pair tagged "in" and "out"
(advisor/extract/rules_length_pairs.py; issue 12, structural, evals v12/v14 development cases): the failing
layouts, two variants in other words, and near misses (two figures of one side, a rate)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tools.profile import WorkloadProfile

Extract = Callable[..., WorkloadProfile]


@pytest.mark.parametrize(
    ("text", "prompt", "output"),
    [
        # evals v12 multi-turn: role word after each figure, no "tokens"
        ("sizing for serving llama 3.1 8b: 500 concurrent, 1k prompt / 200 out, ttft under 300ms, 24/7",
         1000, 200),
        # evals v14 sheet comments: role word before each figure
        ("Gemma 2 9B for the FAQ widget, 80 concurrent users, INT8 weights. Prompt ~900, answer ~150.",
         900, 150),
        # evals v14 page properties: "tokens of <thing> in / out"
        ("Phi-4 review assistant, 45 concurrent reviews. Lengths: 7,500 tokens of diff in, ~400 tokens of "
         "review out", 7500, 400),
        # variants in other words
        ("Qwen2.5 14B support bot for 60 concurrent users; input: 2k and reply: 300.", 2000, 300),
        ("Llama 3.1 8B endpoint, 40 users at once, about 600 questions and... no: 600 query + 120 response.",
         600, 120),
    ],
)  # fmt: skip
def test_tagged_pair_gives_both_lengths(extract: Extract, text: str, prompt: int, output: int) -> None:
    p = extract(text)
    assert p.prompt_tokens == prompt
    assert p.output_tokens == output
    assert p.context_len == prompt + output


def test_near_miss_two_inputs_are_no_pair(extract: Extract) -> None:
    p = extract("Llama 3.1 8B endpoint for 40 concurrent users, 900 prompt / 8k context.")
    assert p.output_tokens != 8000


def test_near_miss_rate_is_no_length(extract: Extract) -> None:
    # (the "30 out" is read as an output length by an older rule, as on main: left alone here)
    p = extract("Llama 3.1 8B endpoint for 40 concurrent users, 1k prompt / 30 out tok/s per user.")
    assert p.prompt_tokens is None


def test_near_miss_figure_in_words_is_no_length(extract: Extract) -> None:
    p = extract("Qwen2.5 14B support bot for 60 concurrent users; prompt 2k, answer ~250 words.")
    assert p.output_tokens != 250


def test_near_miss_counted_prompts_are_no_lengths(extract: Extract) -> None:
    p = extract("Llama 3.1 8B endpoint for 40 concurrent users. We answer 4k questions / 2k replies.")
    assert p.prompt_tokens != 4000 and p.output_tokens != 2000
