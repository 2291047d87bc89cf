"""Seed 001's worked example and seed 000's table bands, under the seeds' stated assumptions."""

from __future__ import annotations

import pytest

from tools.catalog.load import Catalog
from tools.catalog.schema import ModelArch
from tools.memory import estimate_memory, seed_rule_gb
from tools.units import gib_to_gb


def test_seed001_qlora_70b_peak_on_one_h100(llama70b: ModelArch, catalog: Catalog) -> None:
    # Seed 001: "NF4-quantized base ~35 GB, LoRA adapter + paged Adam ~12 GB. Peak: ~47 GB", and "real-world
    # peak typically lands between 45-65 GB depending on LoRA rank and batch size". Seed defaults: batch 1,
    # gradient checkpointing; we take r16 all-linear at 2048 tokens. Tolerance: inside the seed's own
    # 45-65 GB band and within 10% of the 47 GB point figure.
    est = estimate_memory(arch=llama70b, method="qlora", optimizer="paged-adamw-8bit")
    peak_gb = gib_to_gb(est.peak_gib_per_gpu)
    assert 45 <= peak_gb <= 65
    assert peak_gb == pytest.approx(47, rel=0.10)
    # "One H100 80GB clears it with 33 GB to spare"
    assert est.peak_gib_per_gpu < catalog.gpu("h100-sxm").usable_memory_gib


def test_seed001_nf4_base_weighs_about_35_gb(llama70b: ModelArch) -> None:
    # Seed 001: "70B x 0.5 bytes = 35 GB". Our NF4 is 0.516 B on linear weights with 16-bit embeddings
    # (+2.1 GB for Llama 3's 128k-vocabulary embedding and head), so 35-40 GB; 15% tolerance on 35.
    est = estimate_memory(arch=llama70b, method="qlora")
    weights_gb = gib_to_gb(est.breakdown_gib.weights)
    assert weights_gb == pytest.approx(35, rel=0.15)
    assert weights_gb > 35  # the seed's 0.5 B/param ignores the quantisation constants and the embeddings


def test_seed001_kv_cache_70b_8k(llama70b: ModelArch) -> None:
    # Seed 001: 2 x 80 layers x 8 KV heads x 128 head_dim x 8192 tokens x 2 B = 2.68e9 B, "roughly 2.5 GB"
    # (the seed's GB is GiB here: 2.5 GiB exactly); 10 concurrent -> "25 GB". Exact arithmetic: 0.1%.
    one = estimate_memory(arch=llama70b, method="inference", concurrency=1, context_len=8192)
    ten = estimate_memory(arch=llama70b, method="inference", concurrency=10, context_len=8192)
    assert one.breakdown_gib.kv_cache == pytest.approx(2.5, rel=1e-3)
    assert ten.breakdown_gib.kv_cache == pytest.approx(25.0, rel=1e-3)
    kv_step = next(s for s in one.trace if s.step == "kv_cache_per_sequence")
    assert kv_step.output == 2 * 80 * 8 * 128 * 8192 * 2


def test_seed001_full_finetune_rule_is_1260_gb() -> None:
    # Seed 001: "18 bytes/param x 70B = 1,260 GB aggregate"; ceil(1260/80) = 16 GPUs. Exact.
    assert seed_rule_gb(params=70e9, method="full") == pytest.approx(1260)
    assert seed_rule_gb(params=70e9, method="qlora") == pytest.approx(35 + 12)
    assert seed_rule_gb(params=70e9, method="inference") == pytest.approx(140)


def test_seed001_full_finetune_70b_aggregate_needs_two_nodes(llama70b: ModelArch) -> None:
    # Our model counts 16 B/param (see tools/memory.py) plus activations and overhead over 16 GPUs with
    # ZeRO-3: the aggregate stays above 1 TB ("1 TB+", seed 000) and needs more than one 8x80 GB node.
    est = estimate_memory(arch=llama70b, method="full", gpus=16, sharding="zero3")
    assert gib_to_gb(est.total_gib) > 1000
    assert est.peak_gib_per_gpu < 80  # fits per GPU on H100 80GB once sharded over 16


@pytest.mark.parametrize(
    ("model", "low_gb", "high_gb", "kwargs"),
    [
        # Seed 000 table, "Full Fine-Tuning (bf16 + Adam)" column, totals. Its 13B prose adds "activations
        # typically 20 to 40 GB", i.e. realistic micro-batches: batch 8 x 2048 with checkpointing here.
        # Issue 15: the table's era ran torch's foreach AdamW (HF Trainer "adamw_torch"), whose step holds
        # one more fp32 parameter-sized set; with today's fused default the 7B full figure is 117 GB
        # (below the band: no activations are live at the step any more). The table counts tensors, so the
        # allocated basis (2026-11-28, tools.memory_reserve: on the reserved basis those foreach temporaries
        # also keep their own cached segments, measured on the lent H200: 163 / 315 GB, above the bands).
        (
            "llama-2-7b",
            120,
            160,
            {"method": "full", "batch_size": 8, "optimizer_impl": "foreach", "memory_basis": "allocated"},
        ),
        (
            "llama-2-13b",
            200,
            300,
            {"method": "full", "batch_size": 8, "optimizer_impl": "foreach", "memory_basis": "allocated"},
        ),
        # "LoRA / QLoRA per GPU": 13B LoRA 24-48 GB per GPU
        ("llama-2-13b", 24, 48, {"method": "lora", "batch_size": 4}),
        # 7B LoRA/QLoRA 12-24 GB per GPU
        ("llama-2-7b", 12, 24, {"method": "lora", "batch_size": 2}),
    ],
)
def test_seed000_table_bands(
    catalog: Catalog, model: str, low_gb: float, high_gb: float, kwargs: dict
) -> None:
    est = estimate_memory(arch=catalog.model(model), **kwargs)
    value = est.total_gib if kwargs["method"] == "full" else est.peak_gib_per_gpu
    assert low_gb <= gib_to_gb(value) <= high_gb


def test_seed000_70b_full_is_1tb_plus(llama70b: ModelArch) -> None:
    # Seed 000: "70B | ~1 TB+ total" for full fine-tuning.
    est = estimate_memory(arch=llama70b, method="full", gpus=16, sharding="fsdp")
    assert gib_to_gb(est.total_gib) >= 1000


def test_seed000_70b_lora_band_and_its_inconsistency(llama70b: ModelArch) -> None:
    # Seed 000 gives "70B LoRA / QLoRA: 80-160 GB per GPU". 16-bit LoRA holds (140 GB of weights alone);
    # QLoRA does not: seed 001 and seed 003 put 70B QLoRA at 41-47 GB on ONE 80 GB GPU, so the band is the
    # LoRA band only. We test what holds: LoRA inside, QLoRA well below 80 GB.
    lora = estimate_memory(arch=llama70b, method="lora")
    qlora = estimate_memory(arch=llama70b, method="qlora")
    assert 80 <= gib_to_gb(lora.peak_gib_per_gpu) <= 160
    assert gib_to_gb(qlora.peak_gib_per_gpu) < 60


def test_seed003_unsloth_70b_qlora_41_gb_band(llama70b: ModelArch) -> None:
    # Seed 003 quoting Unsloth: 70B QLoRA with 4-bit + gradient checkpointing "consumes 41 GB". Unsloth's
    # fused kernels save activations and its batch/sequence are unstated, so only a band: within 25%.
    est = estimate_memory(arch=llama70b, method="qlora", lora_targets="all-linear", loss_chunking=True)
    assert gib_to_gb(est.peak_gib_per_gpu) == pytest.approx(41, rel=0.25)


def test_mixed_precision_is_16_bytes_and_seed_rule_is_18(llama7b: ModelArch) -> None:
    # ZeRO paper: 2 + 2 + 12 = 16 B/param for mixed-precision Adam; seed 001 uses 18 (fp32 gradients).
    est = estimate_memory(arch=llama7b, method="full")
    states = est.breakdown_gib.weights + est.breakdown_gib.gradients + est.breakdown_gib.optimizer
    assert states * 2**30 / est.params == pytest.approx(16, rel=1e-3)
    assert seed_rule_gb(params=est.params, method="full") == pytest.approx(est.params * 18 / 1e9)


@pytest.mark.parametrize(
    ("model", "method", "low_gb", "high_gb"),
    [
        # Seed 002: "LoRA (16-bit): 7B around 15-20GB, 13B around 28-40GB"
        ("llama-2-7b", "lora", 15, 20),
        ("llama-2-13b", "lora", 28, 40),
        # Seed 002: "QLoRA (4-bit base): 7B near 5-9GB, 13B near 9-17GB"
        ("llama-2-7b", "qlora", 5, 9),
        ("llama-2-13b", "qlora", 9, 17),
    ],
)
def test_seed002_peft_bands(catalog: Catalog, model: str, method: str, low_gb: float, high_gb: float) -> None:
    # Seed defaults we assume: batch 1 x 2048, gradient checkpointing, r16 on all linear layers.
    est = estimate_memory(arch=catalog.model(model), method=method)
    assert low_gb <= gib_to_gb(est.peak_gib_per_gpu) <= high_gb


def test_seed002_and_004_full_finetune_figures_contradict_their_own_rules(llama7b: ModelArch) -> None:
    # Seed 002 says both "about 16GB per billion params" and "7B near 65-70GB" (16 x 7 = 112); seed 004 sums
    # 14 + 56 + 4-6 = 74 GB (Adam states but no gradients). Physics (ZeRO paper 16 B/param) sides with the
    # per-billion rule: a single-GPU 7B full fine-tune needs > 100 GB, so neither 65-70 nor 74 GB holds.
    est = estimate_memory(arch=llama7b, method="full")
    assert gib_to_gb(est.peak_gib_per_gpu) > 100
    # 8-bit Adam + pure bf16 is what it takes to come near the seeds' figures
    lean = estimate_memory(
        arch=llama7b, method="full", training_precision="pure-bf16", optimizer="adamw-8bit"
    )
    assert gib_to_gb(lean.peak_gib_per_gpu) < 50


def test_seed004_70b_qlora_24_gb_is_impossible(llama70b: ModelArch, catalog: Catalog) -> None:
    # Seed 004's QLoRA table lists 70B at 24 GB minimum VRAM ("L40S, A100 PCIe"): the NF4 weights alone are
    # ~39 GB, so a 24 GB card cannot hold it (and at 2048 tokens it also overflows an L40S's 44.8 GiB).
    est = estimate_memory(arch=llama70b, method="qlora")
    assert gib_to_gb(est.breakdown_gib.weights) > 24
    assert est.peak_gib_per_gpu > catalog.gpu("rtx-4090").usable_memory_gib
    assert est.peak_gib_per_gpu > catalog.gpu("l40s").usable_memory_gib
