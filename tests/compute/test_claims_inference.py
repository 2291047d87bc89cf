"""Physics checks of claims, and inference throughput (prefill compute-bound, decode bandwidth-bound)."""

from __future__ import annotations

import pytest

from tools.catalog.schema import GpuSpec, ModelArch
from tools.compute.claims import check_claim, max_training_tokens
from tools.compute.inference import estimate_inference
from tools.errors import InputError


def test_seed_004_ten_billion_tokens_in_15_hours_on_one_l40s_is_impossible(gpus: dict[str, GpuSpec]) -> None:
    # Seed 004: "Fine-tune Llama 2 7B ... 10B tokens ... LoRA-8 L40S ... Training time: 15 hours".
    # LoRA needs 4 x 7e9 x 1e10 = 2.8e20 FLOPs; one L40S at its 362 TFLOPS dense peak delivers
    # 362e12 x 54,000 s = 1.95e19 in 15 h: 14.3x short even at 100% MFU.
    c = check_claim(tokens=10e9, hours=15, gpu=gpus["l40s"], n_gpus=1, active_params=7e9, method="lora")
    assert c.verdict == "impossible"
    assert c.exceeds_peak_by == pytest.approx(14.3, rel=0.01)
    assert "impossible" in c.message and "14.3x" in c.message
    # read as a person writes it, not as Python's 1e+10 / 2.8e+20
    assert c.message.startswith("10B tokens in 15 h on 1x ") and "e+" not in c.message
    assert "2.8 × 10²⁰ FLOPs needed" in c.message


def test_seed_004_rtx4090_480_tokens_per_s_is_plausible(gpus: dict[str, GpuSpec]) -> None:
    # Seed 004's own throughput row (7B LoRA, RTX 4090, 480 tok/s) is far under the card's peak:
    # 1 h -> 1.728M tokens; implied MFU ~ 4 x 7e9 x 480 / 165e12 = 8%.
    c = check_claim(
        tokens=480 * 3600, hours=1, gpu=gpus["rtx-4090"], n_gpus=1, active_params=7e9, method="lora"
    )
    assert c.verdict == "plausible"
    assert c.implied_mfu == pytest.approx(4 * 7e9 * 480 / 165e12)


def test_implausible_between_band_and_peak(gpus: dict[str, GpuSpec]) -> None:
    # 80% MFU on an H100 full fine-tune: physically possible, far above what stacks reach (<= 45%).
    hours = 6 * 7e9 * 1e9 / (0.8 * 989e12) / 3600
    c = check_claim(tokens=1e9, hours=hours, gpu=gpus["h100-sxm"], n_gpus=1, active_params=7e9, method="full")
    assert c.verdict == "implausible"
    assert c.implied_mfu == pytest.approx(0.8)
    assert c.exceeds_peak_by is None


def test_a_claim_under_the_band_has_room_and_one_inside_holds_only_if_the_run_is_fast(
    gpus: dict[str, GpuSpec],
) -> None:
    # review 5 follow-up: "implies 1% MFU, within what such runs reach (18%-32%)" read as a borderline case
    def claim_at(mfu: float) -> str:
        hours = 6 * 7e9 * 1e9 / (mfu * 989e12) / 3600
        h100 = gpus["h100-sxm"]
        c = check_claim(tokens=1e9, hours=hours, gpu=h100, n_gpus=1, active_params=7e9, method="full")
        assert c.verdict == "plausible" and c.implied_mfu == pytest.approx(mfu)
        assert c.mfu_band.low < 0.45 < c.mfu_band.high  # the band this test straddles
        return c.message

    assert "room to spare" in claim_at(0.01)
    inside = claim_at(0.45)
    assert "holds only if yours runs at 45% or better" in inside and "room" not in inside


def test_max_training_tokens_matches_claim_bound(gpus: dict[str, GpuSpec]) -> None:
    m = max_training_tokens(hours=15, gpu=gpus["l40s"], n_gpus=1, active_params=7e9, method="lora")
    assert m.tokens_at_peak == pytest.approx(362e12 * 15 * 3600 / (4 * 7e9))
    assert m.tokens.high < m.tokens_at_peak < 10e9


def test_decode_is_bandwidth_bound_at_low_concurrency(
    gpus: dict[str, GpuSpec], models: dict[str, ModelArch]
) -> None:
    arch = models["llama-3-70b"]
    inf = estimate_inference(
        arch=arch, gpu=gpus["h100-sxm"], n_gpus=2, precision="bf16", concurrency=1, context_len=8192
    )
    assert inf.decode_bound == "memory_bandwidth"
    # Per step: ~139 GB of weights (input embedding is a lookup) + 2.7 GB KV (seed 001: ~2.5 GB per 8K
    # sequence for this model) over 2 x 3.35 TB/s at 55-85% efficiency -> ~26-40 tokens/s.
    assert inf.kv_bytes_read_per_step == pytest.approx(2 * 80 * 8 * 128 * 8192 * 2)
    assert 25 < inf.decode_tokens_per_s_per_sequence.low < inf.decode_tokens_per_s_per_sequence.high < 42


def test_decode_aggregate_rises_with_concurrency_and_gpus_for_target(
    gpus: dict[str, GpuSpec], models: dict[str, ModelArch]
) -> None:
    arch = models["llama-3.1-8b"]
    kw = dict(arch=arch, gpu=gpus["l40s"], n_gpus=1, precision="bf16", context_len=4096)
    one = estimate_inference(concurrency=1, **kw)  # type: ignore[arg-type]
    many = estimate_inference(concurrency=32, target_tokens_per_s=5000, **kw)  # type: ignore[arg-type]
    assert many.decode_tokens_per_s.low > 5 * one.decode_tokens_per_s.low
    assert many.decode_tokens_per_s_per_sequence.high < one.decode_tokens_per_s_per_sequence.high
    assert many.gpus_needed_for_target is not None
    g = many.gpus_needed_for_target
    assert g.low <= g.high and g.low == int(g.low)
    assert g.low * many.decode_tokens_per_s.high >= 5000


def test_moe_decode_reads_fewer_weights_at_concurrency_one(
    gpus: dict[str, GpuSpec], models: dict[str, ModelArch]
) -> None:
    arch = models["mixtral-8x7b"]
    kw = dict(arch=arch, gpu=gpus["h100-sxm"], n_gpus=2, precision="bf16", context_len=2048)
    c1 = estimate_inference(concurrency=1, **kw)  # type: ignore[arg-type]
    c64 = estimate_inference(concurrency=64, **kw)  # type: ignore[arg-type]
    total_bytes = arch.param_count() * 2
    assert c1.weight_bytes_read_per_step < 0.35 * total_bytes  # ~13B active of 47B
    assert c64.weight_bytes_read_per_step > 0.95 * (total_bytes - 32000 * 4096 * 2)  # all experts touched


def test_prefill_is_compute_bound_and_quantised_weights_decode_faster(
    gpus: dict[str, GpuSpec], models: dict[str, ModelArch]
) -> None:
    arch = models["llama-3.1-8b"]
    kw = dict(arch=arch, gpu=gpus["rtx-4090"], n_gpus=1, concurrency=1, context_len=2048, prompt_tokens=1000)
    bf16 = estimate_inference(precision="bf16", **kw)  # type: ignore[arg-type]
    int4 = estimate_inference(precision="int4", **kw)  # type: ignore[arg-type]
    # Prefill: 165 TFLOPS x 30-60% / ~16.3 GFLOPs per token -> ~3,000-6,000 tokens/s.
    assert 2500 < bf16.prefill_tokens_per_s.low < bf16.prefill_tokens_per_s.high < 7000
    assert int4.decode_tokens_per_s.low > 2 * bf16.decode_tokens_per_s.low
    assert bf16.time_to_first_token_s.high == pytest.approx(1000 / bf16.prefill_tokens_per_s.low)


@pytest.mark.parametrize(
    "bad", [{"concurrency": 0}, {"n_gpus": 0}, {"context_len": -5}, {"precision": "int3"}]
)
def test_inference_bad_input(
    gpus: dict[str, GpuSpec], models: dict[str, ModelArch], bad: dict[str, object]
) -> None:
    kw: dict[str, object] = dict(
        arch=models["llama-3.1-8b"],
        gpu=gpus["l40s"],
        n_gpus=1,
        precision="bf16",
        concurrency=1,
        context_len=1024,
    )
    kw.update(bad)
    with pytest.raises(InputError):
        estimate_inference(**kw)  # type: ignore[arg-type]
