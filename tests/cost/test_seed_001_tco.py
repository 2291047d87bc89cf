"""Seed 001's worked example, calculations 4 and 5: egress and the four-row TCO table.

Seed figures are rounded to whole dollars; tolerance abs=1 USD (0.5 where the seed's own inputs
are exact). GPU-hours come from tools.compute (354 = 6 x 70e9 x 1e9 x 3 / 989 TFLOPS at 100% MFU).
"""

from __future__ import annotations

import pytest

from tools.catalog.schema import EgressSchedule, GpuSpec, StoragePrice
from tools.compute.training import estimate_training_time
from tools.cost import (
    DeploymentRate,
    compare_deployments,
    egress_cost,
    egress_scenarios,
    storage_cost,
    tco,
)

H100 = GpuSpec(
    id="h100-sxm",
    name="H100 SXM 80GB",
    vendor="nvidia",
    memory_gb=80,
    usable_memory_gib=79.6,
    memory_bandwidth_tb_per_s=3.35,
    bf16_dense_tflops=989,
    scale_up_link="nvlink4",
    form_factor="SXM5",
    source="seed 001: 989 TFLOPS dense BF16",
    as_of="2026-11-01",
)


def seed_gpu_hours() -> float:
    t = estimate_training_time(
        active_params=70e9,
        tokens=3e9,
        method="qlora",
        grad_checkpointing=False,
        gpu=H100,
        n_gpus=1,
        flops_factor=6,
    )
    return t.gpu_hours_at_peak


def test_egress_45_per_pull_900_for_20_and_855_difference(aws_egress: EgressSchedule) -> None:
    # Seed 001, calculation 4: 500 GB x $0.09 = $45 per pull; 20 pulls $900; caching saves $855.
    # The seed charges $0.09 on every GB: the free 100 GB is taken by other traffic (our default).
    s = egress_scenarios(dataset_gb=500, runs=20, schedule=aws_egress)
    assert s.cached.total_usd == pytest.approx(45, abs=0.01)
    assert s.cached.per_pull_usd == pytest.approx(45, abs=0.01)
    assert s.per_run.total_usd == pytest.approx(900, abs=0.01)
    assert s.difference_usd == pytest.approx(855, abs=0.01)
    assert any(a.name == "other_egress_gb_per_month" and "seed 001" in a.source for a in s.cached.assumptions)


def test_free_allowance_when_dataset_is_the_only_traffic(aws_egress: EgressSchedule) -> None:
    # With no other egress the first 100 GB/month are free: 400 x $0.09 = $36.
    e = egress_cost(dataset_gb=500, pulls=1, schedule=aws_egress, other_egress_gb_per_month=0)
    assert e.total_usd == pytest.approx(36)


def test_same_cloud_is_free(aws_egress: EgressSchedule) -> None:
    # Seed 001, SageMaker column: "$0 (same-cloud)".
    e = egress_cost(dataset_gb=500, pulls=20, schedule=aws_egress, same_cloud=True)
    assert e.total_usd == 0.0


def test_tiers_apply_above_10_tb(aws_egress: EgressSchedule, gcp_egress: EgressSchedule) -> None:
    # 20 TB in a month on top of 100 GB other traffic: 10,140 GB at $0.09 + 9,860 GB at $0.085.
    e = egress_cost(dataset_gb=20000, pulls=1, schedule=aws_egress)
    assert e.total_usd == pytest.approx(10140 * 0.09 + 9860 * 0.085)
    g = egress_cost(dataset_gb=2048, pulls=1, schedule=gcp_egress)
    assert g.total_usd == pytest.approx(1024 * 0.12 + 1024 * 0.11)
    # Spread over two months, each month's volume stays in the cheaper first tier.
    two = egress_cost(dataset_gb=10000, pulls=2, schedule=aws_egress, months=2)
    assert two.total_usd == pytest.approx(2 * 10000 * 0.09)


def test_storage_gb_months(s3: StoragePrice) -> None:
    # Seed 001 puts storage (corpus + checkpoints + artifacts) at $28/month without a breakdown: at
    # S3's $0.023/GB-month that is ~1,217 GB (500 GB corpus + ~717 GB checkpoints and artifacts).
    s = storage_cost(stored_gb=1217, months=1, price=s3)
    assert s.total_usd == pytest.approx(28, abs=0.05)
    assert storage_cost(stored_gb=500, months=3, price=0.023).total_usd == pytest.approx(34.5)


def test_seed_001_tco_table() -> None:
    # Seed 001, calculation 5:
    # | Component | Bare metal H100 | SageMaker |
    # | Compute   | $991 (354 hr x $2.80) | $1,288 (+30%) |
    # | Storage   | $28 | $28 | Egress cached $45 | $0 | Egress 20 runs $900 | $0 |
    # | Total cached $1,064 | $1,316 | Total 20 runs uncached $1,919 | $1,316 |
    hours = seed_gpu_hours()
    assert hours == pytest.approx(354, abs=0.5)
    bare_cached = tco(gpu_hours=hours, usd_per_gpu_hour=2.80, storage_usd=28, egress_usd=45)
    bare_uncached = tco(gpu_hours=hours, usd_per_gpu_hour=2.80, storage_usd=28, egress_usd=900)
    sagemaker = tco(
        gpu_hours=hours, usd_per_gpu_hour=2.80, storage_usd=28, egress_usd=0, managed_premium_fraction=0.30
    )
    assert bare_cached.compute_usd.low == pytest.approx(991, abs=0.5)
    assert (sagemaker.compute_usd.low + sagemaker.managed_usd.low) == pytest.approx(1288, abs=0.5)
    assert bare_cached.total_usd.low == pytest.approx(1064, abs=0.5)
    assert sagemaker.total_usd.low == pytest.approx(1316, abs=0.5)
    assert bare_uncached.total_usd.low == pytest.approx(1919, abs=0.5)
    # "Bare metal wins by $252 if you pull data once ... SageMaker wins by $603" (20 fresh pulls).
    assert sagemaker.total_usd.low - bare_cached.total_usd.low == pytest.approx(252, abs=1)
    assert bare_uncached.total_usd.low - sagemaker.total_usd.low == pytest.approx(603, abs=1)
    names = [s.step for s in sagemaker.trace]
    assert names[:2] == ["compute_usd", "managed_usd"] and "total_usd" in names
    assert any(a.name == "managed_premium_fraction" for a in sagemaker.assumptions)


def test_compare_deployments_picks_cheapest_per_scenario() -> None:
    hours = seed_gpu_hours()
    cached = compare_deployments(
        gpu_hours=hours,
        storage_usd=28,
        deployments=[
            DeploymentRate(name="bare metal H100", kind="bare_metal", usd_per_gpu_hour=2.80, egress_usd=45),
            DeploymentRate(
                name="SageMaker", kind="managed", usd_per_gpu_hour=2.80, managed_premium_fraction=0.30
            ),
        ],
    )
    assert cached.cheapest == "bare metal H100"
    uncached = compare_deployments(
        gpu_hours=hours,
        storage_usd=28,
        deployments=[
            DeploymentRate(name="bare metal H100", kind="bare_metal", usd_per_gpu_hour=2.80, egress_usd=900),
            DeploymentRate(
                name="SageMaker", kind="managed", usd_per_gpu_hour=2.80, managed_premium_fraction=0.30
            ),
        ],
    )
    assert uncached.cheapest == "SageMaker"
    assert len(uncached.rows) == 2


def test_bundled_catalog_reproduces_seed_egress() -> None:
    # Integration with H1's catalog: its AWS schedule and managed premium give the seed's figures.
    from tools.catalog.load import load_catalog

    cat = load_catalog()
    s = egress_scenarios(dataset_gb=500, runs=20, schedule=cat.egress_for("aws"))
    assert s.cached.total_usd == pytest.approx(45)
    assert s.per_run.total_usd == pytest.approx(900)
    sm = tco(
        gpu_hours=seed_gpu_hours(),
        usd_per_gpu_hour=2.80,
        storage_usd=28,
        egress_usd=0,
        managed_premium_fraction=cat.estimate("managed_premium_fraction"),
    )
    assert sm.total_usd.low == pytest.approx(1316, abs=0.5)
    assert "seed 001" in next(a.source for a in sm.assumptions if a.name == "managed_premium_fraction")


def test_checkpoint_sizes() -> None:
    from tools.cost import checkpoint_size_gb

    # Seed 000: "a typical pre-training checkpoint for a 70B model written in fp16 is ~140 GB" (weights
    # only); a resumable one adds fp32 master weights and Adam m, v: 2 + 12 = 14 B/param = 980 GB.
    assert checkpoint_size_gb(total_params=70e9, trainable_params=0, method="full") == pytest.approx(140)
    assert checkpoint_size_gb(total_params=70e9, trainable_params=70e9, method="full") == pytest.approx(980)
    # LoRA saves only the adapters and their optimizer state: 200M x 14 B = 2.8 GB.
    assert checkpoint_size_gb(total_params=70e9, trainable_params=2e8, method="lora") == pytest.approx(2.8)


def test_tco_takes_a_price_record_and_records_its_source() -> None:
    from tools.catalog.schema import PriceRecord

    rec = PriceRecord(
        provider="example-bare-metal",
        gpu="h100-sxm",
        pricing="on_demand",
        usd_per_gpu_hour=2.80,
        tier="bare metal",
        source="seed 001 (bare metal H100 at $2.80/hr)",
        as_of="2026-01-01",
    )
    t = tco(gpu_hours=seed_gpu_hours(), usd_per_gpu_hour=rec, storage_usd=28, egress_usd=45)
    assert t.total_usd.low == pytest.approx(1064, abs=0.5)
    assert any("example-bare-metal" in a.name and "seed 001" in a.source for a in t.assumptions)
