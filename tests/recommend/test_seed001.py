"""Seed 001's worked example through the engine's TCO path.

Seed 001 (QLoRA Llama 3 70B, 500 GB corpus in S3, 1B tokens x 3 epochs, 20 runs a month) prints two
TCO columns, bare metal H100 at $2.80/h vs SageMaker (+30% managed premium):
compute $991 / $1,288; storage $28/month; egress $45 cached / $900 pulled every run / $0 same-cloud;
totals $1,064 (cached) / $1,919 (uncached) / $1,316 (SageMaker).
Its assumptions are 6ND FLOPs, 100% MFU, 70e9 parameters, no QLoRA slowdown, and a $28 storage
figure: given as explicit overrides here. Tolerance: $1 on each row (the seed rounds to dollars).
The engine's normal path (4ND + recompute, MFU ranges, QLoRA slowdown) is checked for consistency.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from tools.catalog.load import Catalog
from tools.profile import WorkloadProfile
from tools.ranges import Range
from tools.recommend import evaluate_configuration, recommend
from tools.recommend.models import Option, RecommendSettings

SEED_PROFILE = WorkloadProfile(
    model_id="llama-3-70b",
    workload="fine_tuning",
    method="qlora",
    dataset_tokens=1e9,
    epochs=3,
    dataset_gb=500,
    data_location="aws",
    runs_per_month=20,
)
SEED_ASSUMPTIONS = RecommendSettings(
    flops_factor=6.0,
    mfu=Range(low=1.0, high=1.0),
    qlora_slowdown=Range(low=1.0, high=1.0),
    attention_flops=False,
    active_params=70e9,
    storage_usd_per_month=28.0,
    sensitivity=False,
)
BARE_METAL, SAGEMAKER = "seed-001-bare-metal", "seed-001-sagemaker"
EXAMPLE = Path(__file__).resolve().parents[2] / "advisor" / "examples" / "seed-001-qlora-70b.yaml"


def _column(catalog: Catalog, provider: str, settings: RecommendSettings) -> Option:
    return evaluate_configuration(
        profile=SEED_PROFILE, catalog=catalog, gpu="h100-sxm", provider=provider, gpus=1, settings=settings
    )


def test_seed_columns_reproduced_under_the_seeds_assumptions(catalog: Catalog) -> None:
    bare = _column(catalog, BARE_METAL, SEED_ASSUMPTIONS)
    sage = _column(catalog, SAGEMAKER, SEED_ASSUMPTIONS)
    assert bare.gpu_hours is not None
    assert bare.gpu_hours.low == pytest.approx(354, abs=0.5)  # seed: 354 GPU-hours
    cached, uncached = bare.tco
    assert "cached" in cached.scenario and "every run" in uncached.scenario
    assert cached.compute_usd.low == pytest.approx(991, abs=1)
    assert cached.storage_usd == pytest.approx(28, abs=1)
    assert cached.egress_usd == pytest.approx(45, abs=1)
    assert uncached.egress_usd == pytest.approx(900, abs=1)
    assert cached.total_usd.low == pytest.approx(1064, abs=1)
    assert uncached.total_usd.low == pytest.approx(1919, abs=1)
    s_cached = sage.tco[0]
    assert s_cached.same_cloud and s_cached.egress_usd == 0
    assert (s_cached.compute_usd.low + s_cached.managed_usd.low) == pytest.approx(1288, abs=1)
    assert s_cached.total_usd.low == pytest.approx(1316, abs=1)
    assert all(t.total_usd.low == pytest.approx(1316, abs=1) for t in sage.tco)
    # The seed's conclusions: bare metal wins by $252 cached, SageMaker by $603 uncached.
    assert s_cached.total_usd.low - cached.total_usd.low == pytest.approx(252, abs=2)
    assert uncached.total_usd.low - s_cached.total_usd.low == pytest.approx(603, abs=2)


def test_seed_profile_normal_path_uses_ranges_above_the_100pct_bound(catalog: Catalog) -> None:
    normal = RecommendSettings(sensitivity=False)
    bare = _column(catalog, BARE_METAL, normal)
    sage = _column(catalog, SAGEMAKER, normal)
    assert bare.gpu_hours is not None and bare.gpu_hours.low > bare.gpu_hours.high / 10
    # Realistic MFU (< 100%) and QLoRA's dequantisation slowdown: more than the seed's 354 h.
    assert bare.gpu_hours.low > 354
    for opt in (bare, sage):
        for t in opt.tco:
            rows = t.compute_usd.low + t.storage_usd + t.egress_usd + t.managed_usd.low
            assert t.total_usd.low == pytest.approx(rows)
    assert sage.tco[0].managed_usd.low == pytest.approx(0.30 * sage.tco[0].compute_usd.low)
    assert bare.tco[1].egress_usd == pytest.approx(20 * bare.tco[0].egress_usd, rel=0.01)
    assert bare.memory is not None and 35 < bare.memory.peak_gib_per_gpu < 70  # seed: ~47 GB, 45-65 band


def test_bundled_example_profile_shows_both_seed_columns(catalog: Catalog) -> None:
    data = yaml.safe_load(EXAMPLE.read_text())
    settings = RecommendSettings.model_validate({**data.get("settings", {}), "sensitivity": False})
    fields = {k: v for k, v in data.items() if k not in ("settings", "description", "name", "title")}
    rec = recommend(profile=WorkloadProfile(**fields), catalog=catalog, settings=settings)
    providers = {o.provider for o in rec.options}
    assert {BARE_METAL, SAGEMAKER} <= providers
    # The shortlist columns show the seed's configuration: one H100 clears it (47 GB). Since issue 13 a
    # data-parallel QLoRA run costs the same GPU-hours on 1 or 8 NVLink GPUs (the fitted MFU bands are
    # measured on 8-GPU nodes), so the shortlist pick breaks the cost tie towards the smallest
    # configuration. SageMaker may also appear at 8x as 'lowest operational risk' (a different option).
    seed_cols = [o for o in rec.options if any(w.startswith("on your shortlist") for w in o.why)]
    assert {o.provider for o in seed_cols} == {BARE_METAL, SAGEMAKER}
    assert all(o.total_gpus == 1 and o.gpu == "h100-sxm" for o in seed_cols)
    for o in seed_cols:  # above the seed's 100%-MFU lower bound (354 GPU-hours at 6ND)
        assert o.gpu_hours is not None and o.gpu_hours.low > 354
    for o in rec.options:
        assert o.memory is not None and o.memory.fits
