"""A forward-pass-only batch job (embeddings, scoring, classification, reranking): a model reads every
item once and writes no tokens (expert review 13, R15).

It is sized as a batch inference job (tools.recommend.serving_plan's job plan) whose every item gets
FORWARD_ONLY_OUTPUT_TOKENS output token: tools.compute.serving charges prompt / output prefill tokens per
decoded token (chunked prefill, Agrawal et al. 2024 "Sarathi-Serve"), so the job's time is the items'
prefill, i.e. one forward pass over each input token (2 x parameters FLOPs per token, Kaplan et al. 2020
"Scaling Laws for Neural Language Models" eq. 2.2), plus one decode step per item that stands for the pooled
vector, the score or the label.
"""

from __future__ import annotations

from typing import Final

FORWARD_ONLY_OUTPUT_TOKENS: Final = 1
"""Output tokens per item of a forward-only job: the one step that yields the embedding / score / label
(module docstring)."""


def items_for_tokens(total_input_tokens: float, tokens_per_item: int) -> float:
    """Items in a forward-only job given as a token total ("a forward pass over 102B input tokens") and the
    length of each item: total / length (each input token is read once, in one item)."""
    if total_input_tokens <= 0 or tokens_per_item <= 0:
        raise ValueError("total_input_tokens and tokens_per_item must be positive")
    return total_input_tokens / tokens_per_item
