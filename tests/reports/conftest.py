"""Fixtures for the report tests.

`handmade_rec` is a Recommendation shaped like seed 001's QLoRA Llama 3 70B example (figures from the
seed: 354 GPU-hours at $2.80 -> $991 compute; 500 GB x $0.09 = $45 egress per pull, 20 runs -> $900),
built from the real result types so template details (escaping, dedup, edge cases) are tested without
the engine; `infeasible_handmade` has no primary. `example_profile` is the bundled seed 001 profile
that tests of the real engine (test_engine_report.py, test_cli_report.py) run.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from tools.profile import Provenance, WorkloadProfile
from tools.ranges import Range
from tools.recommend.models import (
    ExpectationCheck,
    MemoryFit,
    Option,
    Recommendation,
    Rejection,
    SensitivityItem,
    TcoScenario,
    TopologySummary,
)
from tools.trace import Assumption, TraceStep

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "advisor" / "examples" / "seed-001-qlora-70b.yaml"
AS_OF = dt.date(2026, 11, 9)


def _profile(evidence: str = "fine-tune LLaMA-3 70B with QLoRA on our 500 GB corpus") -> WorkloadProfile:
    p = WorkloadProfile(
        workload="fine_tuning",
        model_id="llama-3-70b",
        params_b=70.6,
        method="qlora",
        precision="nf4",
        dataset_tokens=1e9,
        dataset_gb=500,
        epochs=3,
        seq_len=2048,
        lora_rank=16,
        data_location="aws",
        data_region="us-east-1",
        runs_per_month=20,
    )
    prov = {
        "workload": Provenance(status="stated", evidence=evidence),
        "model_id": Provenance(status="stated", evidence="LLaMA-3 70B"),
        "method": Provenance(status="stated", evidence="QLoRA"),
        "dataset_gb": Provenance(status="stated", evidence="500 GB proprietary corpus"),
        "dataset_tokens": Provenance(status="inferred", evidence="1B training tokens"),
        "epochs": Provenance(status="stated", evidence="3 epochs"),
        "seq_len": Provenance(status="assumed"),
        "lora_rank": Provenance(status="assumed"),
        "data_location": Provenance(status="stated", evidence="Current data location: AWS S3"),
        "runs_per_month": Provenance(status="stated", evidence="20 training experiments"),
    }
    return p.model_copy(update={"provenance": prov})


def _option(
    label: str,
    gpu: str,
    name: str,
    provider: str,
    rate: float,
    n: int = 1,
    managed: bool = False,
    same_cloud: bool = False,
) -> Option:
    gpu_hours = Range(low=354.0, high=354.0 / 0.45)
    compute = gpu_hours.scale(rate)
    premium = compute.scale(0.30) if managed else Range(low=0, high=0)
    storage = 28.0
    egress_cached, egress_every = (0.0, 0.0) if same_cloud else (45.0, 900.0)
    tco = (
        TcoScenario(
            scenario="data cached after first pull",
            data_pulls=1,
            compute_usd=compute,
            storage_usd=storage,
            egress_usd=egress_cached,
            managed_usd=premium,
            same_cloud=same_cloud,
            total_usd=Range(
                low=compute.low + premium.low + storage + egress_cached,
                high=compute.high + premium.high + storage + egress_cached,
            ),
        ),
        TcoScenario(
            scenario="pulled every run",
            data_pulls=20,
            compute_usd=compute,
            storage_usd=storage,
            egress_usd=egress_every,
            managed_usd=premium,
            same_cloud=same_cloud,
            total_usd=Range(
                low=compute.low + premium.low + storage + egress_every,
                high=compute.high + premium.high + storage + egress_every,
            ),
        ),
    )
    mem = MemoryFit(
        peak_gib_per_gpu=47.3,
        usable_gib_per_gpu=79.1,
        headroom_gib=31.8,
        required_headroom_fraction=0.10,
        breakdown_gib={
            "weights": 36.6,
            "gradients": 0.8,
            "optimizer": 1.6,
            "activations": 5.2,
            "kv_cache": 0.0,
            "adapters": 0.8,
            "overhead": 2.3,
        },
    )
    return Option(
        gpu=gpu,
        gpu_name=name,
        gpus_per_node=n,
        nodes=1,
        total_gpus=n,
        vram_gib_per_gpu=79.1,
        peak_gib_per_gpu=47.3,
        provider=provider,
        pricing="on_demand",
        usd_per_gpu_hour=rate,
        wall_hours=gpu_hours.scale(1 / n),
        cost_usd=Range(low=compute.low + premium.low, high=compute.high + premium.high),
        gpu_hours=gpu_hours,
        label=label,
        deployment="managed" if managed else "bare_metal",
        tier="secure",
        region="us-east-1",
        why=("fits on one GPU with 32 GiB to spare", "lowest total when data is cached"),
        risks=("a single-GPU job has no failover",),
        tco=tco,
        memory=mem,
        topology=TopologySummary(nodes=1, gpus_per_node=n, interconnect_intra="nvlink4"),
        price_as_of=AS_OF,
        price_source="seed 001 bare-metal example rate",
        meets_deadline=None,
        meets_budget=None,
    )


@pytest.fixture
def handmade_rec() -> Recommendation:
    return make_handmade_rec()


@pytest.fixture
def infeasible_handmade() -> Recommendation:
    return make_infeasible_rec()


def make_handmade_rec() -> Recommendation:
    primary = _option("primary", "h100-sxm", "H100 SXM 80GB", "baremetal-co", 2.80)
    alt = _option(
        "lowest operational risk",
        "h100-sxm",
        "H100 SXM 80GB",
        "aws-sagemaker",
        2.80,
        managed=True,
        same_cloud=True,
    )
    trace = (
        TraceStep(
            step="compute.flops",
            formula="flops = 6 × params × tokens × epochs",
            inputs={"params": 70e9, "tokens": 1e9, "epochs": 3},
            output=1.26e21,
            unit="FLOP",
            source="seed 001",
        ),
        TraceStep(
            step="compute.gpu_hours_at_peak",
            formula="gpu_hours = flops / (tflops × 1e12) / 3600",
            inputs={"flops": 1.26e21, "bf16_dense_tflops": 989},
            output=353.9,
            unit="GPU-h",
        ),
        TraceStep(
            step="cost.egress_per_pull",
            formula="egress_usd = dataset_gb × usd_per_gb",
            inputs={"dataset_gb": 500, "usd_per_gb": 0.09},
            output=45.0,
            unit="USD",
        ),
    )
    return Recommendation(
        profile=_profile(),
        primary=primary,
        alternatives=(alt,),
        rejected=(
            Rejection(
                gpu="a100-40gb",
                gpu_name="A100 40GB",
                reason="needs 47.3 GiB per GPU, has 39.5",
                kind="memory",
            ),
        ),
        sensitivity=(
            SensitivityItem(
                input="data_cached",
                base="no",
                low="no",
                high="yes",
                changes_primary=True,
                primary_at_high="h100-sxmx1@aws-sagemaker/on_demand/us-east-1",
                note="SageMaker wins when every run pulls from S3",
            ),
            SensitivityItem(
                input="mfu",
                base="0.45-1.0",
                low="0.3",
                high="0.6",
                changes_primary=False,
                cost_usd_at_low=Range(low=1500, high=3300),
                cost_usd_at_high=Range(low=991, high=1652),
            ),
        ),
        expectation_checks=(
            ExpectationCheck(
                claim="done within a week",
                verdict="holds",
                factor=0.5,
                explanation="354-787 h of one GPU fits in 168 h? no: split over 8 GPUs",
            ),
        ),
        assumptions=(
            Assumption(name="headroom_fraction", value=0.1, source="issue 3"),
            Assumption(name="egress_usd_per_gb", value=0.09, unit="USD/GB", source="AWS, seed 001"),
        ),
        trace=trace,
        candidates_considered=42,
        workload_class="fine-tuning",
        catalog_as_of={"prices": AS_OF, "gpus": dt.date(2026, 10, 1)},
    )


def make_infeasible_rec() -> Recommendation:
    p = WorkloadProfile(workload="fine_tuning", params_b=1000, method="full", dataset_tokens=1e10)
    return Recommendation(
        profile=p,
        primary=None,
        rejected=(
            Rejection(gpu="h100-sxm", reason="needs 1,953 GiB per GPU at 16 nodes, has 79.1", kind="memory"),
        ),
        infeasible_advice=(
            "Use QLoRA (4-bit base weights): about 0.6 TB instead of 18 TB",
            "Shard with ZeRO-3 over at least 32 nodes with InfiniBand",
        ),
        notes=("nothing in the catalog fits",),
    )


@pytest.fixture
def example_profile() -> Path:
    """The bundled seed 001 example profile (advisor/examples, H4a)."""
    if not EXAMPLE.is_file():
        pytest.skip(f"{EXAMPLE} is missing")
    return EXAMPLE
