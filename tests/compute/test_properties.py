"""Property tests for compute: finite outputs, monotonicity, more GPUs never add GPU-hours at 100% scaling."""

from __future__ import annotations

import math
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from tools.catalog.schema import GpuSpec
from tools.compute.claims import check_claim
from tools.compute.inference import estimate_inference
from tools.compute.training import estimate_training_time
from tools.ranges import Range
from tools.trace import trace_numbers

GPU = GpuSpec(
    id="h100-sxm",
    name="H100 SXM 80GB",
    vendor="nvidia",
    memory_gb=80,
    usable_memory_gib=79.6,
    memory_bandwidth_tb_per_s=3.35,
    bf16_dense_tflops=989,
    fp8_dense_tflops=1979,
    scale_up_link="nvlink4",
    form_factor="SXM5",
    source="gpu-specs.md",
    as_of="2026-11-01",
)
methods = st.sampled_from(["full", "lora", "qlora", "pretraining"])


@settings(max_examples=80, deadline=None)
@given(
    params=st.floats(1e6, 2e12),
    tokens=st.floats(1e3, 1e14),
    method=methods,
    ckpt=st.booleans(),
    n=st.integers(1, 4096),
    fabric=st.sampled_from(["infiniband", "roce", "ethernet", "none"]),
    precision=st.sampled_from(["bf16", "fp8", "fp32", "nf4"]),
)
def test_training_finite_positive(
    params: float, tokens: float, method: Any, ckpt: bool, n: int, fabric: Any, precision: Any
) -> None:
    t = estimate_training_time(
        active_params=params,
        tokens=tokens,
        method=method,
        grad_checkpointing=ckpt,
        gpu=GPU,
        n_gpus=n,
        scale_out=fabric,
        precision=precision,
    )
    nums = [
        t.flops,
        t.gpu_hours.low,
        t.gpu_hours.high,
        t.wall_hours.low,
        t.wall_hours.high,
        t.gpu_hours_at_peak,
    ]
    assert all(math.isfinite(x) and x > 0 for x in nums)
    assert all(math.isfinite(x) for x in trace_numbers(t.trace))
    assert t.gpu_hours_at_peak <= t.gpu_hours.low <= t.gpu_hours.high


@settings(max_examples=60, deadline=None)
@given(
    params=st.floats(1e8, 1e12),
    tokens=st.floats(1e6, 1e13),
    method=methods,
    n=st.integers(1, 512),
    extra=st.integers(1, 512),
)
def test_more_gpus_never_add_gpu_hours_at_perfect_scaling(
    params: float, tokens: float, method: str, n: int, extra: int
) -> None:
    kw: dict[str, Any] = dict(
        active_params=params,
        tokens=tokens,
        method=method,
        grad_checkpointing=True,
        gpu=GPU,
        scaling_efficiency=Range(low=1.0, high=1.0),
    )
    few = estimate_training_time(n_gpus=n, **kw)
    many = estimate_training_time(n_gpus=n + extra, **kw)
    assert many.gpu_hours.high <= few.gpu_hours.high * (1 + 1e-12)
    assert many.wall_hours.high < few.wall_hours.high


@settings(max_examples=60, deadline=None)
@given(params=st.floats(1e8, 1e12), tokens=st.floats(1e6, 1e12), more=st.floats(1.01, 100), method=methods)
def test_time_rises_with_tokens_and_params(params: float, tokens: float, more: float, method: str) -> None:
    kw: dict[str, Any] = dict(method=method, grad_checkpointing=False, gpu=GPU, n_gpus=8)
    base = estimate_training_time(active_params=params, tokens=tokens, **kw)
    assert (
        estimate_training_time(active_params=params, tokens=tokens * more, **kw).gpu_hours.low
        > base.gpu_hours.low
    )
    assert (
        estimate_training_time(active_params=params * more, tokens=tokens, **kw).gpu_hours.low
        > base.gpu_hours.low
    )


@settings(max_examples=60, deadline=None)
@given(tokens=st.floats(1e3, 1e13), hours=st.floats(0.01, 1e4), n=st.integers(1, 1024), method=methods)
def test_claim_check_consistent(tokens: float, hours: float, n: int, method: Any) -> None:
    c = check_claim(tokens=tokens, hours=hours, gpu=GPU, n_gpus=n, active_params=7e9, method=method)
    assert math.isfinite(c.implied_mfu) and c.implied_mfu > 0
    assert (c.verdict == "impossible") == (c.implied_mfu > 1)


@settings(max_examples=40, deadline=None)
@given(
    conc=st.integers(1, 512),
    ctx=st.integers(1, 131072),
    n=st.sampled_from([1, 2, 4, 8]),
    target=st.one_of(st.none(), st.floats(1, 1e6)),
)
def test_inference_finite(conc: int, ctx: int, n: int, target: float | None) -> None:
    from tools.catalog.schema import ModelArch

    arch = ModelArch(
        id="m",
        name="m",
        family="llama",
        n_layers=32,
        hidden_size=4096,
        n_heads=32,
        n_kv_heads=8,
        head_dim=128,
        intermediate_size=14336,
        vocab_size=128256,
        max_context=131072,
        source="t",
        as_of="2026-11-01",
    )
    inf = estimate_inference(
        arch=arch,
        gpu=GPU,
        n_gpus=n,
        precision="bf16",
        concurrency=conc,
        context_len=ctx,
        target_tokens_per_s=target,
    )
    for r in (inf.prefill_tokens_per_s, inf.decode_tokens_per_s, inf.decode_tokens_per_s_per_sequence):
        assert 0 < r.low <= r.high and math.isfinite(r.high)
    assert all(math.isfinite(x) for x in trace_numbers(inf.trace))
    if target is not None:
        assert inf.gpus_needed_for_target is not None and inf.gpus_needed_for_target.low >= n
