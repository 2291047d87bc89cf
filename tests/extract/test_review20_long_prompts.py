"""Expert review 20 (R15, R16, P16b): long prompts said as pasted documents or "a 100k prompt" set the prompt
tokens; "100k" is 100,000 tokens (k = 1,024 only on power-of-two context sizes); "ctx 4k" is a sequence
length; with the near misses (a window alone, a dataset, an answer length)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from advisor.extract.rules_text import context_length
from tools.profile import WorkloadProfile

Extract = Callable[..., WorkloadProfile]


@pytest.mark.parametrize(
    ("text", "prompt"),
    [
        # R16's own wordings, and others of the same classes
        ("Our legal analysts paste whole contracts, up to 100k tokens, into Qwen2.5 32B. Only ~3 people use "
         "it at once. What hardware gets time-to-first-token under 10 seconds for a 100k prompt?", 100000),
        ("Serve Qwen2.5 32B for 3 users; time to first token under 10 s for a 100k prompt.", 100000),
        ("Serve Llama 3.1 8B to 4 users; TTFT under 3 s for each 30k-token input.", 30000),
        ("Serve Llama 3.1 8B for 10 users who paste reports - up to 40k tokens - into it.", 40000),
        ("Serve Qwen2.5 32B for 3 users with 100k-token inputs; TTFT under 10 s.", 100000),
        # review 19's forms keep their readings
        ("Serve Qwen2.5 7B with 32k context to 4 users; TTFT for a full 32k prompt under 5 s.", 32768),
        ("Serve Llama 3.1 8B to 5 analysts who paste entire filings of ~80k tokens.", 80000),
    ],
)  # fmt: skip
def test_a_pasted_document_or_one_prompt_size_sets_the_prompt(
    extract: Extract, text: str, prompt: int
) -> None:
    assert extract(text).prompt_tokens == prompt, text


@pytest.mark.parametrize(
    "text",
    [
        "Serve Llama 3.1 8B for 10 users with a 128k context window, TTFT under 2 s.",
        "Serve Qwen2.5 32B with a context length 100k tokens for 3 users, TTFT under 10 s.",
        "Serve Llama 3.1 8B for 10 users, output length 2k tokens.",
        "Fine-tune Llama 3.1 8B on a dataset of 100k tokens.",
    ],
)
def test_a_window_a_dataset_or_an_answer_is_not_a_prompt(extract: Extract, text: str) -> None:
    assert extract(text).prompt_tokens is None, text


def test_100k_is_a_hundred_thousand_and_128k_a_power_of_two(extract: Extract) -> None:
    p = extract("Serve Qwen2.5 32B with a context length 100k tokens for 3 users, TTFT under 10 s.")
    assert p.context_len == 100_000
    assert extract("Serve Llama 3.1 8B for 10 users with a 128k context window.").context_len == 131_072
    powers = (context_length("32", "k"), context_length("4", "k"), context_length("1", "k"))
    assert powers == (32768, 4096, 1024)
    assert (context_length("100", "k"), context_length("60", "k"), context_length("1.5", "k")) == (
        100_000, 60_000, 1_500)  # fmt: skip


@pytest.mark.parametrize(("text", "seq"), [("2 epochs, ctx 4k.", 4096), ("2 epochs, ctx: 8192.", 8192)])
def test_ctx_before_its_figure_is_a_sequence_length(extract: Extract, text: str, seq: int) -> None:
    p = extract(f"full FT of llama-3.1-8b on our corpus, roughly 6 GB of english plain text, {text}")
    assert p.seq_len == seq, text
