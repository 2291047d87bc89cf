"""Training FLOPs and time: seed 001's golden figure, the seeds' rules of thumb, published runs."""

from __future__ import annotations

import pytest

from tools.catalog.schema import GpuSpec, ModelArch
from tools.compute.claims import max_training_tokens
from tools.compute.efficiency import FULL_RECOMPUTE_FACTOR, QLORA_DEQUANT_SLOWDOWN
from tools.compute.flops import gpu_class_of, training_flops_factor
from tools.compute.training import estimate_training_time
from tools.errors import InputError
from tools.ranges import Range


def test_seed_001_gpu_hours_at_peak(gpus: dict[str, GpuSpec]) -> None:
    # Seed 001, Calculation 5: (6 x 70B x 1B tokens x 3 epochs) / 989 TFLOPS = 354 GPU-hours.
    # The seed uses 6ND for its QLoRA run, hence flops_factor=6. Tolerance: the seed rounds to 1 h.
    t = estimate_training_time(
        active_params=70e9,
        tokens=1e9 * 3,
        method="qlora",
        grad_checkpointing=False,
        gpu=gpus["h100-sxm"],
        n_gpus=1,
        flops_factor=6,
    )
    assert t.flops == pytest.approx(1.26e21)
    assert t.gpu_hours_at_peak == pytest.approx(354, abs=0.5)
    assert t.peak_tflops_per_gpu == 989
    # The realistic range is above the bound: it divides by an MFU < 1 and QLoRA is slower still.
    assert t.gpu_hours.low > t.gpu_hours_at_peak
    assert any(s.step == "gpu_hours_at_peak" and "seed 001" in s.source for s in t.trace)


def test_flops_factors_per_method() -> None:
    # 6ND full / pretraining; 4ND LoRA/QLoRA (no weight gradients of frozen weights); +2ND recompute.
    assert training_flops_factor(method="full", grad_checkpointing=False) == 6
    assert training_flops_factor(method="pretraining", grad_checkpointing=False) == 6
    assert training_flops_factor(method="lora", grad_checkpointing=False) == 4
    assert training_flops_factor(method="qlora", grad_checkpointing=False) == 4
    assert training_flops_factor(method="full", grad_checkpointing=True) == 8
    assert training_flops_factor(method="lora", grad_checkpointing=True) == 6


def test_recompute_counted_once(gpus: dict[str, GpuSpec]) -> None:
    # Issue 13: adding +2ND of recompute FLOPs to bands measured on checkpointed runs counted it twice
    # (1.33x full, 1.5x LoRA too slow). Now the bands are MFUs without full recompute and a run with it
    # keeps FULL_RECOMPUTE_FACTOR of the MFU (fitted within stacks publishing both: ~0.87, not the
    # 0.75 / 0.67 the extra FLOPs would give): counted once, as time, never as FLOPs.
    assert 0.75 < FULL_RECOMPUTE_FACTOR < 1.0
    for method in ("full", "lora"):
        kw = dict(active_params=7e9, tokens=1e8, method=method, gpu=gpus["h100-sxm"], n_gpus=1)
        off = estimate_training_time(grad_checkpointing=False, **kw)  # type: ignore[arg-type]
        on = estimate_training_time(grad_checkpointing=True, **kw)  # type: ignore[arg-type]
        assert on.flops == off.flops
        rate_on, rate_off = on.tokens_per_s_per_gpu.mid, off.tokens_per_s_per_gpu.mid
        assert rate_on == pytest.approx(rate_off * FULL_RECOMPUTE_FACTOR)
        assert on.gpu_hours.mid == pytest.approx(off.gpu_hours.mid / FULL_RECOMPUTE_FACTOR)
        assert any(a.name == "full_activation_recompute" for a in on.assumptions)
        assert not any(a.name == "full_activation_recompute" for a in off.assumptions)


def test_qlora_slower_than_lora_by_named_range(gpus: dict[str, GpuSpec]) -> None:
    kw = dict(active_params=7e9, tokens=1e8, grad_checkpointing=True, gpu=gpus["l40s"], n_gpus=1)
    lora = estimate_training_time(method="lora", **kw)  # type: ignore[arg-type]
    qlora = estimate_training_time(method="qlora", **kw)  # type: ignore[arg-type]
    assert lora.flops == qlora.flops  # dequantisation is time, not model FLOPs
    assert qlora.gpu_hours.low == pytest.approx(lora.gpu_hours.low * QLORA_DEQUANT_SLOWDOWN.low)
    assert qlora.gpu_hours.high == pytest.approx(lora.gpu_hours.high * QLORA_DEQUANT_SLOWDOWN.high)
    assert any(a.name == "qlora_dequant_slowdown" for a in qlora.assumptions)


def test_seed_000_lora_7b_run_4_to_8_gpu_hours_costs_12_to_40_usd(gpus: dict[str, GpuSpec]) -> None:
    # Seed 000: "A LoRA fine-tuning run on a 7B model ... four to eight GPU-hours on a single A100 or
    # H100, costing $12 to $40 at standard cloud rates". The seed gives no token count, so invert it:
    # the tokens that 4-8 GPU-hours train (LoRA + checkpointing, 6ND) must be a fine-tuning-sized set
    # (tens to hundreds of millions of tokens, far under seed 000's 10B bound), and a typical SFT set
    # inside that span must come back as a range overlapping 4-8 h.
    # Issue 13 counts model FLOPs (4ND for LoRA, recompute inside the band), so the same hours train
    # ~1.5x the tokens the seed's 6ND implied: the upper bounds were 400M / 150M before.
    for gpu_id, lo_tokens, hi_tokens in (("h100-sxm", 50e6, 700e6), ("a100-80gb-sxm", 15e6, 300e6)):
        four = max_training_tokens(
            hours=4, gpu=gpus[gpu_id], n_gpus=1, active_params=7e9, method="lora", grad_checkpointing=True
        )
        eight = max_training_tokens(
            hours=8, gpu=gpus[gpu_id], n_gpus=1, active_params=7e9, method="lora", grad_checkpointing=True
        )
        assert lo_tokens < four.tokens.low and eight.tokens.high < hi_tokens, gpu_id
        assert eight.tokens_at_peak < 10e9
    t = estimate_training_time(
        active_params=7e9,
        tokens=250e6,  # 150M before issue 13's model-FLOPs count (see above)
        method="lora",
        grad_checkpointing=True,
        gpu=gpus["h100-sxm"],
        n_gpus=1,
    )
    assert t.gpu_hours.low <= 8 and t.gpu_hours.high >= 4
    # $12-40 for 4-8 h is $3-5 per GPU-hour: inside seed 002's $2.50-4.00 H100 band at the overlap,
    # and prices.md's on-demand A100/H100 points ($2.74-6.88) straddle it.
    cost = t.gpu_hours.scale(3.0)
    assert cost.low <= 40 and cost.high >= 12


@pytest.mark.parametrize(
    ("model", "card_gpu_hours"),
    # Llama 3.1 model card (meta-llama/llama-models MODEL_CARD): 1.46M / 7.0M / 30.84M H100-80GB
    # GPU-hours for 8B / 70B / 405B on ~15T tokens. Sequence length 8,192 (Llama 3 paper).
    [("llama-3-70b", 7.0e6), ("llama-3.1-405b", 30.84e6)],
)
def test_llama_3_1_model_card_inside_pretraining_range(
    gpus: dict[str, GpuSpec], models: dict[str, ModelArch], model: str, card_gpu_hours: float
) -> None:
    arch = models[model]
    t = estimate_training_time(
        active_params=arch.param_count(),
        tokens=15e12,
        method="pretraining",
        grad_checkpointing=False,
        gpu=gpus["h100-sxm"],
        n_gpus=16384,
        gpus_per_node=8,
        arch=arch,
        seq_len=8192,
    )
    assert t.gpu_hours.low <= card_gpu_hours <= t.gpu_hours.high


def test_llama_3_1_8b_model_card_above_pretraining_range(
    gpus: dict[str, GpuSpec], models: dict[str, ModelArch]
) -> None:
    # Known gap, kept visible: the 8B card figure (1.46M GPU-h) implies ~18% end-to-end MFU with
    # the attention term (~14% on 6ND alone), below the 30% floor of the cluster-measured band.
    # Small models reach a lower MFU on large clusters, and the 128k long-context phase is far more
    # attention-heavy than 8k. The range undershoots by ~1.4x; the test pins that factor.
    arch = models["llama-3.1-8b"]
    t = estimate_training_time(
        active_params=arch.param_count(),
        tokens=15e12,
        method="pretraining",
        grad_checkpointing=False,
        gpu=gpus["h100-sxm"],
        n_gpus=16384,
        gpus_per_node=8,
        arch=arch,
        seq_len=8192,
    )
    factor = 1.46e6 / t.gpu_hours.high
    assert 1.2 < factor < 1.8
    implied_mfu = t.gpu_hours_at_peak / 1.46e6
    assert 0.15 < implied_mfu < 0.20


def test_moe_uses_active_params(gpus: dict[str, GpuSpec], models: dict[str, ModelArch]) -> None:
    arch = models["mixtral-8x7b"]
    dense = estimate_training_time(
        active_params=arch.param_count(),
        tokens=1e9,
        method="full",
        grad_checkpointing=False,
        gpu=gpus["h100-sxm"],
        n_gpus=8,
    )
    moe = estimate_training_time(
        active_params=arch.active_param_count(),
        tokens=1e9,
        method="full",
        grad_checkpointing=False,
        gpu=gpus["h100-sxm"],
        n_gpus=8,
    )
    assert moe.flops == pytest.approx(dense.flops * arch.active_param_count() / arch.param_count())
    assert moe.flops < 0.3 * dense.flops


def test_wall_hours_divide_by_gpus_and_ethernet_is_slower(gpus: dict[str, GpuSpec]) -> None:
    kw = dict(active_params=70e9, tokens=1e9, method="full", grad_checkpointing=True, gpu=gpus["h100-sxm"])
    one_node = estimate_training_time(n_gpus=8, **kw)  # type: ignore[arg-type]
    assert one_node.wall_hours.low == pytest.approx(one_node.gpu_hours.low / 8)
    ib = estimate_training_time(n_gpus=16, gpus_per_node=8, scale_out="infiniband", **kw)  # type: ignore[arg-type]
    eth = estimate_training_time(n_gpus=16, gpus_per_node=8, scale_out="ethernet", **kw)  # type: ignore[arg-type]
    # Seed 000: Ethernet step time 15% to 10x worse than InfiniBand.
    assert eth.wall_hours.high > 5 * ib.wall_hours.high
    assert eth.wall_hours.low > ib.wall_hours.low
    assert any(a.name == "ethernet_step_time_factor" for a in eth.assumptions)


def test_fp8_uses_fp8_peak(gpus: dict[str, GpuSpec]) -> None:
    kw = dict(
        active_params=7e9, tokens=1e9, method="full", grad_checkpointing=False, gpu=gpus["h100-sxm"], n_gpus=1
    )
    bf16 = estimate_training_time(precision="bf16", **kw)  # type: ignore[arg-type]
    fp8 = estimate_training_time(precision="fp8", **kw)  # type: ignore[arg-type]
    assert fp8.gpu_hours_at_peak == pytest.approx(bf16.gpu_hours_at_peak * 989 / 1979)


def test_gpu_classes(gpus: dict[str, GpuSpec]) -> None:
    assert gpu_class_of(gpus["h100-sxm"]) == "sxm"
    assert gpu_class_of(gpus["h100-pcie"]) == "datacenter_pcie"
    assert gpu_class_of(gpus["l40s"]) == "datacenter_pcie"
    assert gpu_class_of(gpus["rtx-4090"]) == "consumer"
    assert gpu_class_of(gpus["mi300x"]) == "amd"
    assert gpu_class_of(gpus["gaudi3"]) == "gaudi"


def test_mfu_override_and_trace(gpus: dict[str, GpuSpec]) -> None:
    t = estimate_training_time(
        active_params=1e9,
        tokens=1e9,
        method="full",
        grad_checkpointing=False,
        gpu=gpus["h100-sxm"],
        n_gpus=1,
        mfu_range=Range(low=0.5, high=0.5),
    )
    assert t.gpu_hours.low == pytest.approx(t.gpu_hours_at_peak / 0.5)
    steps = {s.step for s in t.trace}
    assert {
        "flops_factor",
        "training_flops",
        "peak_tflops_per_gpu",
        "gpu_hours_low",
        "gpu_hours_high",
    } <= steps
    flops_step = next(s for s in t.trace if s.step == "training_flops")
    assert flops_step.unit == "FLOPs" and "tokens" in flops_step.inputs


@pytest.mark.parametrize(
    "kwargs",
    [
        {"tokens": -1.0},
        {"tokens": 0.0},
        {"active_params": float("nan")},
        {"n_gpus": 0},
        {"method": "dpo"},
        {"mfu_range": Range(low=0.5, high=1.5)},
    ],
)
def test_bad_input_raises_input_error(gpus: dict[str, GpuSpec], kwargs: dict[str, object]) -> None:
    base: dict[str, object] = dict(
        active_params=7e9, tokens=1e9, method="full", grad_checkpointing=False, gpu=gpus["h100-sxm"], n_gpus=1
    )
    base.update(kwargs)
    with pytest.raises(InputError):
        estimate_training_time(**base)  # type: ignore[arg-type]


def test_a_fine_tuning_time_says_it_assumes_packed_sequences(gpus: dict[str, GpuSpec]) -> None:
    # unpacked, padded chat data trains the padding too (fresh-2 PaddleNLP rows: 2-3x below the estimate)
    kw = dict(active_params=8e9, tokens=1e8, gpu=gpus["h100-sxm"], n_gpus=1, grad_checkpointing=True)
    lora = estimate_training_time(method="lora", **kw)  # type: ignore[arg-type]
    pre = estimate_training_time(method="pretraining", **kw)  # type: ignore[arg-type]
    assert any(a.name == "sequence_packing" for a in lora.assumptions)
    assert not any(a.name == "sequence_packing" for a in pre.assumptions)
