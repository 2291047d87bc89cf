"""MoE routing traffic in the training-time estimate (tools.compute.efficiency: MOE_ROUTING_SCALE,
MOE_FACTOR_NO_ROUTING; bench/time_fit_ratios.moe_routing_scale)."""

from __future__ import annotations

import pytest

import tools.compute.efficiency as eff
from bench.time_fit import _fit_rows, fit, fit_constants
from bench.time_fit_ratios import moe_routing_scale
from tools.catalog.load import load_catalog
from tools.catalog.schema import GpuSpec
from tools.compute.training import estimate_training_time


@pytest.fixture(scope="module")
def gpus() -> dict[str, GpuSpec]:
    return {g.id: g for g in load_catalog().gpus}


def test_shipped_routing_constants_are_the_fit() -> None:
    f = fit()
    assert pytest.approx(f["moe_routing_scale"], rel=0.01) == eff.MOE_ROUTING_SCALE
    assert eff.MOE_FACTOR_NO_ROUTING is not None
    no_routing = (eff.MOE_FACTOR_NO_ROUTING.low, eff.MOE_FACTOR_NO_ROUTING.high)
    assert no_routing == pytest.approx(f["moe_factor_no_routing"], abs=0.001)
    # the raw spread (models of unknown expert layout) is unchanged
    assert f["moe_factor_range"] == pytest.approx((eff.MOE_FACTOR.low, eff.MOE_FACTOR.high), abs=0.001)


def test_intensity_of_known_models() -> None:
    # Qwen3-30B-A3B: 8 experts x 2048 hidden x 48 layers over 3.3B active = 2.4e-4; Mixtral 8x7B: 2 x 4096
    # x 32 over 12.9B = 2.0e-5 (configs quoted in bench/time_rows.MOE_ROUTING_SHAPES)
    qwen = eff.moe_routing_intensity(
        hidden_size=2048, experts_per_token=8, moe_layers=48, active_params=3.3e9
    )
    mixtral = eff.moe_routing_intensity(
        hidden_size=4096, experts_per_token=2, moe_layers=32, active_params=12.9e9
    )
    assert qwen == pytest.approx(2.38e-4, rel=0.01)
    assert mixtral == pytest.approx(2.03e-5, rel=0.01)
    assert eff.moe_routing_factor(qwen, 2.5e-4) < eff.moe_routing_factor(mixtral, 2.5e-4) < 1.0
    assert eff.moe_routing_factor(None, 2.5e-4) == 1.0 and eff.moe_routing_factor(qwen, None) == 1.0


def test_ridge_ratio_weighs_fp8_and_faster_gpus(gpus: dict[str, GpuSpec]) -> None:
    assert eff.routing_ridge_ratio(gpus["a100-80gb-sxm"], "bf16") == pytest.approx(1.0, rel=0.01)
    h100_bf16 = eff.routing_ridge_ratio(gpus["h100-sxm"], "bf16")
    assert h100_bf16 == pytest.approx(989 / 3.35 / (312 / 2.039), rel=0.01)  # catalog peaks / bandwidths
    assert eff.routing_ridge_ratio(gpus["h100-sxm"], "fp8") == pytest.approx(2 * h100_bf16, rel=0.01)
    assert eff.routing_ridge_ratio(gpus["h200"], "bf16") < h100_bf16  # same peak, more bandwidth


def _moe_time(gpu: GpuSpec, arch_id: str | None, active: float) -> tuple[float, float, list[str]]:
    arch = None if arch_id is None else load_catalog().model(arch_id)
    t = estimate_training_time(
        active_params=active,
        tokens=1e9,
        method="pretraining",
        grad_checkpointing=False,
        gpu=gpu,
        n_gpus=8,
        arch=arch,
        moe=True,
        moe_balanced_routing=True,
        seq_len=4096,
        attention_shape=None if arch else (32, 4096),
    )
    return t.tokens_per_s_per_gpu.low, t.tokens_per_s_per_gpu.high, [a.name for a in t.assumptions]


def test_fine_grained_experts_run_slower_than_wide_ones_and_unknown_layout_keeps_the_raw_factor(
    gpus: dict[str, GpuSpec],
) -> None:
    h100 = gpus["h100-sxm"]
    low_q, high_q, names_q = _moe_time(h100, "qwen3-30b-a3b", 3.3e9)
    assert "moe_routing_factor" in names_q
    low_u, high_u, names_unknown = _moe_time(h100, None, 3.3e9)
    assert "moe_routing_factor" not in names_unknown
    # the known layout narrows the range: the raw MOE_FACTOR spread (5.3x) is for an unknown one
    assert high_q / low_q < high_u / low_u
    # MFU share of the dense middle: Mixtral's wide experts keep more of it than Qwen3-30B-A3B's narrow ones
    cal = eff.CALIBRATION
    assert cal.moe_factor_no_routing is not None and cal.moe_routing_scale is not None
    x_qwen = eff.moe_routing_intensity(
        hidden_size=2048, experts_per_token=8, moe_layers=48, active_params=3.3e9
    )
    x_mix = eff.moe_routing_intensity(
        hidden_size=4096, experts_per_token=2, moe_layers=32, active_params=12.9e9
    )
    ridge = eff.routing_ridge_ratio(h100, "bf16")
    assert eff.moe_routing_factor(x_qwen * ridge, cal.moe_routing_scale) < eff.moe_routing_factor(
        x_mix * ridge, cal.moe_routing_scale
    )


def test_scale_fit_needs_two_intensities_and_never_puts_every_row_above_the_dense_middle() -> None:
    assert moe_routing_scale([(0.5, 1e-4), (0.4, 1e-4)]) is None
    # rows falling as 1 / (1 + x / 2e-4) from 0.8, with +-10% scatter: a scale within 2x of 2e-4 (the median
    # absolute deviation is a coarse, robust objective)
    xs = (2e-5, 5e-5, 8e-5, 1.1e-4, 1.4e-4, 1.9e-4, 2.4e-4, 2.9e-4, 3.3e-4)
    scatter = (1.0, 1.1, 0.95, 1.05, 0.9, 1.02, 0.97, 1.08, 0.93)
    rows = [(0.8 * m / (1 + x / 2e-4), x) for x, m in zip(xs, scatter, strict=True)]
    scale = moe_routing_scale(rows)
    assert scale is not None and 1e-4 < scale < 4e-4
    assert min(r * (1 + x / scale) for r, x in rows) <= eff.MOE_FACTOR_CEILING
    # a fold refits it (the shipped one comes from every development family)
    c = fit_constants(
        [fr for fr in _fit_rows() if fr.identified and fr.row.family != "megatron-bridge-perf-summary"]
    )
    assert c.moe_routing_scale is not None and c.moe_factor_no_routing is not None
