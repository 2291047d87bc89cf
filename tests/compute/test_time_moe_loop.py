"""transformers' MoE expert loop in the training-time estimate (tools.compute.moe_loop): host time per
micro-batch added for the stacks that run transformers' modules (tim18)."""

from __future__ import annotations

import math

import pytest

from bench.calibration_data import load_training_rows
from bench.time_cv import cv_scored_sides
from bench.time_rows import row_moe_layout
from tools.catalog.load import load_catalog
from tools.catalog.schema import GpuSpec
from tools.compute.moe_loop import EAGER_MOE_FRAMEWORKS, experts_hit, moe_loop_seconds_per_token
from tools.compute.serving_constants import EAGER_HOST_S_PER_HIT_EXPERT
from tools.compute.serving_steps import hit_experts
from tools.compute.training import estimate_training_time


@pytest.fixture(scope="module")
def h100() -> GpuSpec:
    return load_catalog().gpu("h100-sxm")


def test_experts_hit_is_the_serving_formula() -> None:
    # one formula for both estimates: Qwen3-30B-A3B, 8 of 128 experts per token
    arch = load_catalog().model("qwen3-30b-a3b")
    assert experts_hit(n_experts=128, experts_per_token=8, tokens=1) == pytest.approx(8.0)
    assert experts_hit(n_experts=128, experts_per_token=8, tokens=4096) == pytest.approx(128.0)
    for tokens in (1, 16, 64, 4096):
        assert hit_experts(arch, tokens) == pytest.approx(
            experts_hit(n_experts=128, experts_per_token=8, tokens=tokens)
        )


def test_seconds_per_token_by_hand() -> None:
    # 48 MoE layers x 128 experts hit x 0.17 ms x 3 passes (forward, recompute, backward) over 4,096 tokens
    s = moe_loop_seconds_per_token(
        n_experts=128, experts_per_token=8, moe_layers=48, tokens_per_micro_batch=4096, recompute=True
    )
    assert s == pytest.approx(3 * 48 * 128 * EAGER_HOST_S_PER_HIT_EXPERT / 4096, rel=1e-9)
    no_recompute = moe_loop_seconds_per_token(
        n_experts=128, experts_per_token=8, moe_layers=48, tokens_per_micro_batch=4096, recompute=False
    )
    assert no_recompute == pytest.approx(s * 2 / 3)
    # a larger micro-batch spreads the same host time over more tokens
    assert moe_loop_seconds_per_token(
        n_experts=128, experts_per_token=8, moe_layers=48, tokens_per_micro_batch=32768, recompute=True
    ) == pytest.approx(s / 8)


def _qwen3_moe(gpu: GpuSpec, framework: str | None, batch_size: int) -> object:
    return estimate_training_time(
        active_params=3.3e9,
        total_params=30.5e9,
        tokens=1e8,
        method="lora",
        grad_checkpointing=True,
        gpu=gpu,
        n_gpus=1,
        arch=load_catalog().model("qwen3-30b-a3b"),
        seq_len=4096,
        batch_size=batch_size,
        framework=framework,  # type: ignore[arg-type]
    )


def test_loop_charged_for_transformers_stacks_only(h100: GpuSpec) -> None:
    hf = _qwen3_moe(h100, "hf", 1)
    megatron = _qwen3_moe(h100, "megatron", 1)
    generic = _qwen3_moe(h100, None, 1)
    assert "hf" in EAGER_MOE_FRAMEWORKS and "megatron" not in EAGER_MOE_FRAMEWORKS
    assert any(s.step == "throughput_efficiency_moe_loop" for s in hf.trace)  # type: ignore[attr-defined]
    for t in (megatron, generic):
        assert not any(s.step == "throughput_efficiency_moe_loop" for s in t.trace)  # type: ignore[attr-defined]
    # the host time is added to each token's time: tokens/s = 1 / (1 / rate_without + seconds_per_token)
    step = next(s for s in hf.trace if s.step == "throughput_efficiency_moe_loop")  # type: ignore[attr-defined]
    seconds = step.inputs["moe_loop_seconds_per_token"]
    assert seconds == pytest.approx(3 * 48 * 128 * EAGER_HOST_S_PER_HIT_EXPERT / 4096, rel=1e-6)
    # fast end: the host issues the loop while the GPU runs, so the rate is at most the host's 1 / seconds
    # (for 128 experts at 4,096 tokens the host binds); slow end: the two add
    tps = hf.tokens_per_s_per_gpu  # type: ignore[attr-defined]
    assert tps.high == pytest.approx(1.0 / seconds, rel=1e-6) and tps.low < tps.high


def test_a_dense_model_is_unchanged(h100: GpuSpec) -> None:
    kw = dict(active_params=8.03e9, tokens=1e8, method="lora", grad_checkpointing=True, gpu=h100, n_gpus=1,
              arch=load_catalog().model("llama-3.1-8b"), seq_len=4096, batch_size=1)  # fmt: skip
    hf = estimate_training_time(framework="hf", **kw)  # type: ignore[arg-type]
    assert not any(s.step == "throughput_efficiency_moe_loop" for s in hf.trace)


def test_powermoe_rows_move_towards_their_measurement() -> None:
    # fms-acceleration's PowerMoE-3B full fine-tunes (HF Trainer, no ScatterMoE, 8 x 277 tokens): 4-5x below
    # the MoE band middle before tim18; with the loop within 1.9x out of family (bench/data/README.md, tim18)
    rows = [r for r in load_training_rows() if r.id.startswith("fmsacc-powermoe3b-full")]
    assert rows and all(row_moe_layout(r) == (40, 8, 32) for r in rows)
    scored = [
        s for side in cv_scored_sides().values() for s in side if s.row.id.startswith("fmsacc-powermoe3b")
    ]
    for s in scored:
        middle = math.sqrt(s.with_framework.low * s.with_framework.high)
        assert 1.0 < middle / s.published < 1.9
