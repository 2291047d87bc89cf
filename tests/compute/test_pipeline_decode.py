"""Decode speed of a pipeline-parallel serving replica (auditor H8).

Before: estimate_inference treated every replica as n_gpus-way tensor parallel, so the recommender's
multi-node (pipeline across nodes) serving options were credited with n x bandwidth for the weights,
e.g. 4 nodes of B200 'decoding 208-322 tokens/s per user' for Llama 3.1 70B. A token still crosses
every stage in turn: with concurrency split into pp micro-batches, each stage reads its 1/pp of the
weights pp times per step, so weights cost pp x W over the n GPUs' bandwidth, i.e. the same
per-token time as tensor parallel over one stage's n/pp GPUs.
"""

from __future__ import annotations

import pytest

from tools.catalog.load import load_catalog
from tools.compute.inference import estimate_inference
from tools.errors import InputError


def _est(n: int, pp: int = 1, concurrency: int = 1, context_len: int = 128) -> object:
    cat = load_catalog()
    return estimate_inference(
        arch=cat.model("llama-3.1-70b"),
        gpu=cat.gpu("h100-sxm"),
        n_gpus=n,
        precision="bf16",
        concurrency=concurrency,
        context_len=context_len,
        pipeline_stages=pp,
    )


def test_pp_1_is_the_tensor_parallel_model() -> None:
    cat = load_catalog()
    old = estimate_inference(
        arch=cat.model("llama-3.1-70b"),
        gpu=cat.gpu("h100-sxm"),
        n_gpus=8,
        precision="bf16",
        concurrency=32,
        context_len=4096,
    )
    new = _est(8, 1, 32, 4096)
    assert new.decode_tokens_per_s == old.decode_tokens_per_s  # type: ignore[attr-defined]


def test_weight_bound_decode_does_not_speed_up_with_pipeline_stages() -> None:
    # one sequence, short context: weight-bandwidth bound. 16 GPUs as 2 stages of tp 8 give the
    # per-token time of tp 8 (each token reads all 141 GB of weights, 8 GPUs at a time).
    tp8 = _est(8).decode_tokens_per_s_per_sequence  # type: ignore[attr-defined]
    pp2 = _est(16, 2).decode_tokens_per_s_per_sequence  # type: ignore[attr-defined]
    tp16 = _est(16).decode_tokens_per_s_per_sequence  # type: ignore[attr-defined]
    assert pp2.mid == pytest.approx(tp8.mid, rel=0.01)
    assert tp16.mid > 1.9 * pp2.mid


def test_pipeline_stages_must_divide_gpus() -> None:
    with pytest.raises(InputError, match="pipeline_stages"):
        _est(12, 5)
