"""Every bundled catalog GPU through compute and topology (H1's catalog): finite, classed, sourced."""

from __future__ import annotations

import math

import pytest

from tools.catalog.load import Catalog, load_catalog
from tools.compute.claims import check_claim
from tools.compute.efficiency import efficiency_band
from tools.compute.inference import estimate_inference
from tools.compute.training import estimate_training_time
from tools.topology import plan_topology


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog()


def test_every_catalog_gpu_sizes_a_training_run_and_a_serving_replica(catalog: Catalog) -> None:
    arch = catalog.model("llama-3.1-8b")
    for gpu in catalog.gpus:
        n = min(8, gpu.max_gpus_per_node)
        t = estimate_training_time(
            active_params=arch.active_param_count(),
            tokens=1e9,
            method="lora",
            grad_checkpointing=True,
            gpu=gpu,
            n_gpus=n,
        )
        # every catalog GPU gets a band (issue 13: generation x precision x framework, or a named prior)
        assert 0 < efficiency_band(gpu=gpu, precision="bf16", framework=None).mfu.low <= 1, gpu.id
        assert 0 < t.gpu_hours_at_peak < t.gpu_hours.low <= t.gpu_hours.high < math.inf, gpu.id
        inf = estimate_inference(
            arch=arch, gpu=gpu, n_gpus=1, precision="bf16", concurrency=8, context_len=4096
        )
        assert 0 < inf.decode_tokens_per_s.low <= inf.decode_tokens_per_s.high < math.inf, gpu.id
        plan = plan_topology(
            gpu=gpu,
            gpus_per_node=n,
            n_gpus=2 * n,
            peak_gib_per_gpu=10.0,
            weights_gib_total=15.0,
            method="full",
            scale_out="infiniband",
        )
        assert plan.nodes == 2 and plan.nccl_checklist, gpu.id


@pytest.mark.parametrize(
    ("claim", "gpu_id", "params", "tokens", "hours", "factor"),
    [
        # Seed 004's cost examples, checked against each card's dense BF16 peak (LoRA: 4ND).
        ("7B LoRA, 10B tokens, 15 h on one L40S", "l40s", 7e9, 10e9, 15, 14.3),
        ("Mistral 7B LoRA, 50B tokens, 60 h on one L40S", "l40s", 7e9, 50e9, 60, 17.9),
        ("70B QLoRA, 10B tokens, 10 h on one RTX 4090", "rtx-4090", 70e9, 10e9, 10, 471),
        ("Llama 2 70B LoRA, 100B tokens, 70 h on one H100 PCIe", "h100-pcie", 70e9, 100e9, 70, 147),
    ],
)
def test_seed_004_throughput_claims_are_physically_impossible(
    catalog: Catalog, claim: str, gpu_id: str, params: float, tokens: float, hours: float, factor: float
) -> None:
    gpu = catalog.gpu(gpu_id)
    c = check_claim(tokens=tokens, hours=hours, gpu=gpu, n_gpus=1, active_params=params, method="lora")
    assert c.verdict == "impossible", claim
    # Tolerance 2%: the factor moves only with the catalog's dense-TFLOPS figure.
    assert c.exceeds_peak_by == pytest.approx(factor, rel=0.02), claim
