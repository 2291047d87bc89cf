"""A batch job whose items give their length in and out: the output volume is items x the length marked
out, not the one marked in (expert review 8, R06: 10M prompts "each around five hundred tokens in and three
hundred tokens out" was 5B tokens to generate, not 3B)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tools.profile import WorkloadProfile

Extract = Callable[..., WorkloadProfile]


@pytest.mark.parametrize(
    "text",
    [
        # review 8, R06 as dictated (numbers in words, no punctuation)
        "generate synthetic data with llama three point one seventy b about ten million prompts each around "
        "five hundred tokens in and three hundred tokens out and it has to be done by friday",
        "Generate synthetic data with Llama 3.1 70B: 10M prompts, each ~500 tokens input and 300 tokens out.",
        "Run Llama 3.1 70B over 10M prompts, 500 tokens in and 300 out each, by Friday.",
    ],
)
def test_the_output_volume_uses_the_length_marked_out(extract: Extract, text: str) -> None:
    p = extract(text)
    assert p.model_id == "llama-3.1-70b"
    assert p.generation_tokens == pytest.approx(3e9)
    assert (p.prompt_tokens, p.output_tokens) == (500, 300)


def test_one_length_each_is_still_the_output(extract: Extract) -> None:
    p = extract("Generate 2M answers with Llama 3.1 8B, each answer around 400 tokens, by Friday.")
    assert p.generation_tokens == pytest.approx(8e8)
