"""Prompt and answer lengths read by the role word nearest each figure
(advisor/extract/rules_length_slots.py): the general ways people write a request's shape, and near
misses whose figures are not lengths."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tools.profile import WorkloadProfile

Extract = Callable[..., WorkloadProfile]

SERVE = "We want to serve Llama 3.1 8B for our support bot. "


@pytest.mark.parametrize(
    ("text", "prompt", "output"),
    [
        # the role, some words, then the figure
        ("Prompts are big because of RAG, typically ~2,000 tokens, and answers are short, maybe 300 tokens.",
         2000, 300),
        ("Each turn sends the system prompt plus retrieved articles plus chat history, which lands near 6,000"
         " tokens; replies are short, 300 tokens give or take.", 6000, 300),
        ("- Input per request: ~4k tokens (ticket thread plus snippets)\n- Output per request: ~350 tokens\n",
         4000, 350),
        ("An answer is about a paragraph (engineering says roughly 250 tokens), and the question plus the"
         " help articles we paste in come to around 1,500 tokens.", 1500, 250),
        # a bare figure beside its role, the unit said once in the sentence
        ("about 60 concurrent, prompts ~2k and replies ~500 tokens.", 2000, 500),
        # the direction said after the figure
        ("engineering says about 3,000 tokens go in and about 400 come out.", 3000, 400),
        # labels before the figures, slack style
        ("summarizer plan\nin ~3k toks / out ~250\nEU only", 3000, 250),
        # one figure marked as the answer, the other plain: the plain one goes in
        ("A review is maybe 300 tokens and the tag it writes back is tiny, ~20 tokens.", 300, 20),
        # a table whose header names the roles
        ("## Request shape\n| prompt (tokens) | answer (tokens) |\n|---|---|\n| 1,000 | 500 |\n", 1000, 500),
        # pairs: two roles and two figures in the same order
        ("input/output: 2k/300 tokens", 2000, 300),
        ("2000/300 tokens in/out", 2000, 300),
        ("output/input ~300/2k tokens", 2000, 300),
        # benchmark labels that are lengths in tokens themselves
        ("ISL 2048 / OSL 256", 2048, 256),
        ("prompt_len=2048, max_tokens=512", 2048, 512),
        # European thousands
        ("Prompt is 2.048 tokens and the answer max 1.024 tokens.", 2048, 1024),
    ],
)  # fmt: skip
def test_lengths_by_nearest_role(extract: Extract, text: str, prompt: int, output: int) -> None:
    p = extract(SERVE + text)
    assert (p.prompt_tokens, p.output_tokens) == (prompt, output)
    assert p.context_len == prompt + output  # derived by rules_serving_io from the two lengths


@pytest.mark.parametrize(
    ("text", "field"),
    [
        ("Answers should stream at 30+ tok/s per user, prompts are about 900 tokens.", "output_tokens"),
        ("We have 2,000 employees and answers of a paragraph; 4k context is enough.", "prompt_tokens"),
        ("Prompts are built from our 50M tokens of manuals, answers are short.", "prompt_tokens"),
        ("Input is a support ticket; we'd commit for 18 months, output ~300 tokens.", "prompt_tokens"),
        ("Prompt budget: $2,000 a month, answers around 300 tokens.", "prompt_tokens"),
        ("Whole conversations fit in 4,096 tokens.", "prompt_tokens"),  # a context, not a prompt
        ("Latency p50/p95: 200/900 ms in/out of the gateway.", "prompt_tokens"),
    ],
)
def test_figures_that_are_not_lengths(extract: Extract, text: str, field: str) -> None:
    p = extract(SERVE + text)
    assert getattr(p, field) is None


def test_training_prompts_are_not_served_lengths(extract: Extract) -> None:
    p = extract(
        "LoRA fine-tune Llama 3.1 8B on 20M tokens. The prompts are big because of the manuals, typically"
        " ~2,000 tokens."
    )
    assert p.workload == "fine_tuning"
    assert p.prompt_tokens is None


def test_established_reading_wins(extract: Extract) -> None:
    # "128-token prompts and 64-token answers": the noun after each figure names it (rules_serving_io)
    p = extract(SERVE + "On the device: 128-token prompts and 64-token answers.")
    assert (p.prompt_tokens, p.output_tokens) == (128, 64)


def test_label_before_a_bare_figure_at_a_line_end(extract: Extract) -> None:
    # the lines of a slack message run together; "out ~250" is still the answer's length
    p = extract("summarizer plan\nmodel: Phi-3.5-MoE\nin ~3k toks / out ~250\nlatency: async, who cares")
    assert (p.prompt_tokens, p.output_tokens) == (3000, 250)


@pytest.mark.parametrize(
    ("text", "tokens_per_s"),
    [
        # requests per minute as "rpm", the peak named: 1,500 / 60 s x 250 tokens
        ("load: ~600 rpm avg, 1.5k rpm peak\nin ~3k toks / out ~250\nlatency: async", 6250.0),
        # items arriving per day with a verb between: 40,000 x 20 tokens / 86,400 s
        ("About 40,000 reviews come in per day. A review is maybe 300 tokens and the tag it writes back is"
         " tiny, ~20 tokens.", 40_000 * 20 / 86_400),
    ],
)  # fmt: skip
def test_rates_with_a_length(extract: Extract, text: str, tokens_per_s: float) -> None:
    assert extract(SERVE + text).target_tokens_per_s == pytest.approx(tokens_per_s)


def test_a_labelled_figure_in_words_is_no_token_length(extract: Extract) -> None:
    p = extract(SERVE + "in ~3k toks / out ~250 words, latency: async")
    assert (p.prompt_tokens, p.output_tokens) == (3000, None)
