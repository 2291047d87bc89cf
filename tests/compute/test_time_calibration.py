"""Issue 13's time model: the fitted constants match bench/time_fit.py, the band depends on framework and
GPU generation as the calibration rows say, MoE and FP8 behave as their sources define them, the claim
check and the estimate agree, and the bench scores the fit rows inside loose bounds."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
import yaml

from bench.calibration_data import TRAINING_FILE, load_training_split
from bench.time_accuracy import fit_and_held_out, scored_sides, summarise
from bench.time_fit import (
    FIT_SIDES,
    NO_ADAPTER_EFFECT,
    NO_GENERATION_EFFECT,
    NO_RECOMPUTE_EFFECT,
    _fit_rows,
    cross_validate,
    cv_bias,
    cv_half_widths,
    development_rows,
    fit,
    fit_constants,
)
from bench.time_rows import row_parallel
from tools.catalog.schema import GpuSpec, ModelArch
from tools.compute import efficiency as eff
from tools.compute.claims import check_claim
from tools.compute.efficiency import efficiency_band
from tools.compute.training import estimate_training_time
from tools.errors import InputError


def test_constants_are_the_fit(gpus: dict[str, GpuSpec]) -> None:
    # efficiency.py says its anchors come from bench/time_fit.py on the fit rows: re-run the fit.
    f = fit()
    anchors = f["framework_anchor"]
    assert isinstance(anchors, dict)
    for (fw, gen, prec), value in eff.FRAMEWORK_ANCHORS.items():
        assert anchors[f"{fw}/{gen}/{prec}"] == pytest.approx(value, abs=0.001)
    generic = f["generic_anchor"]
    assert isinstance(generic, dict)
    for (gen, prec), value in eff.GENERIC_ANCHORS.items():
        assert generic[f"{gen}/{prec}"] == pytest.approx(value, abs=0.001)
    assert f["hopper_over_ampere"] == pytest.approx(eff.HOPPER_OVER_AMPERE, abs=0.001)
    assert f["blackwell_over_hopper"] == pytest.approx(eff.BLACKWELL_OVER_HOPPER, abs=0.001)
    assert f["moe_factor_range"] == pytest.approx((eff.MOE_FACTOR.low, eff.MOE_FACTOR.high), abs=0.001)
    assert f["adapter_over_full"] == pytest.approx(eff.ADAPTER_OVER_FULL, abs=0.001)
    assert f["full_recompute_factor"] == pytest.approx(eff.FULL_RECOMPUTE_FACTOR, abs=0.001)


def test_half_widths_are_the_cross_validation() -> None:
    # efficiency.py's half-widths come from the leave-one-family-out CV of the development rows: re-run it.
    cv = cross_validate()
    sides = load_training_split().sides()
    development = {f for side in FIT_SIDES for f in sides.get(side, [])}
    assert {c.row.family for c in cv} <= development  # a side outside FIT_SIDES is never read
    # 15 families, 78 rows until fresh-2 became development data (2026-11-28), 19 / 126 until fresh-3 did
    # (2026-11-29): llama3-paper has no tokens/s; DeepSeek-V3 and the MoE Model Zoo are MoE only
    assert len({c.row.family for c in cv}) == 24
    assert len(cv) == 167 and not any(c.row.model.moe or c.row.method == "qlora" for c in cv)
    widths = cv_half_widths(cv)
    assert widths["framework_half_width"] == pytest.approx(eff.FRAMEWORK_HALF_WIDTH_CV, abs=0.001)
    assert widths["generic_half_width"] == pytest.approx(eff.GENERIC_HALF_WIDTH_CV, abs=0.001)
    # the shipped half-width is the CV figure up to issue 13's cap (width <= 1.5x / 2x): both are capped
    assert min(eff.FRAMEWORK_HALF_WIDTH_CV, eff.FRAMEWORK_HALF_WIDTH_CAP) == eff.FRAMEWORK_HALF_WIDTH
    assert min(eff.GENERIC_HALF_WIDTH_CV, eff.GENERIC_HALF_WIDTH_CAP) == eff.GENERIC_HALF_WIDTH
    assert eff.FRAMEWORK_HALF_WIDTH**2 <= 1.5 + 1e-9 and eff.GENERIC_HALF_WIDTH**2 <= 2.0 + 1e-9
    # out of family a source scatters wider than the fit rows around their own anchors (the pooled ones:
    # since 2026-11-29 a framework cell is pulled towards them, off its own rows' median)
    f = fit()
    assert float(f["in_sample_generic_half_width"]) < eff.GENERIC_HALF_WIDTH_CV  # type: ignore[arg-type]
    assert eff.CALIBRATION.framework_width_capped and eff.CALIBRATION.generic_width_capped
    # the rule for moving the middle finds no biased group
    assert not any(biased for _, _, biased in cv_bias(cv).values())


def test_a_fold_refits_without_its_family() -> None:
    # leaving out llm-foundry, torchtitan, fms-fsdp and FlagPerf removes every Hopper/Ampere pair of one
    # stack: the ratio takes its no-information value
    gone = {"llm-foundry-mpt", "torchtitan-a100", "torchtitan-h100", "fms-fsdp-readme", "flagperf-nvidia"}
    rows = [r for r in development_rows() if r.family not in gone]
    c = fit_constants(_fit_rows(rows))
    assert c.hopper_over_ampere is None and ("torchtitan", "ampere", "bf16") not in c.framework_anchor
    assert c.calibration(small_batch_exponent=0.27).hopper_over_ampere == NO_GENERATION_EFFECT
    # ... and every stack publishing runs with and without full recompute (InternEvo too)
    c = fit_constants(_fit_rows([r for r in rows if r.family != "internevo-perf-doc"]))
    assert c.full_recompute_factor is None
    assert c.calibration(small_batch_exponent=0.27).full_recompute_factor == NO_RECOMPUTE_EFFECT
    # the same for the adapter factor without the stacks publishing both LoRA and full training
    no_pairs = {"nemo-perf-summary", "torchtune-readme", "nemo-automodel-perf-summary", "dgxc-benchmarking"}
    c = fit_constants(_fit_rows([r for r in development_rows() if r.family not in no_pairs]))
    assert c.adapter_over_full is None
    assert c.calibration(small_batch_exponent=0.27).adapter_over_full == NO_ADAPTER_EFFECT


def test_the_fit_reads_the_development_sides_only(tmp_path: Path) -> None:
    # a held-out side added after the model was built (a new split name) is scored, never fitted
    data = yaml.safe_load(TRAINING_FILE.read_text(encoding="utf-8"))
    data["split"]["new_held_out"] = ["qwen1-readme"]
    data["split"]["fit"] = [f for f in data["split"]["fit"] if f != "qwen1-readme"]
    path = tmp_path / "rows.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    families = {r.family for r in development_rows(path)}
    assert "qwen1-readme" not in families and "olmo-core-readme" in families


def test_fit_uses_the_estimates_sequence_length() -> None:
    # torchtitan's H100 rows print no sequence length; the estimate takes its 8192 default, and the fit
    # must count the same attention FLOPs (else their MFU would be read ~20% low)
    titan = [fr for fr in _fit_rows() if fr.row.family == "torchtitan-h100" and fr.row.seq_len is None]
    assert titan
    for fr in titan:
        assert fr.comm_headroom is None or fr.comm_headroom > 1  # a real micro-batch, not 0 tokens
        assert fr.mfu > 0.18


def test_lora_runs_above_the_dense_band_by_the_adapter_factor(gpus: dict[str, GpuSpec]) -> None:
    # a LoRA step's MFU (on 4N) is the dense band x ADAPTER_OVER_FULL; full training is not touched. The
    # factor is 0.999 since tim16 (1.057 before): the full rows' optimizer update, charged apart where the
    # step is stated, came out of their MFU; NeMo's pairs (1.10, 1.01 before) sit near 1
    assert pytest.approx(0.999, abs=0.001) == eff.ADAPTER_OVER_FULL
    kw = dict(active_params=8e9, tokens=1e9, grad_checkpointing=True, gpu=gpus["h100-sxm"], n_gpus=8)
    full = estimate_training_time(method="full", **kw)  # type: ignore[arg-type]
    lora = estimate_training_time(method="lora", **kw)  # type: ignore[arg-type]
    assert lora.mfu == full.mfu
    assert lora.throughput_efficiency.mid == pytest.approx(
        full.throughput_efficiency.mid * eff.ADAPTER_OVER_FULL, rel=1e-9
    )
    assert any(a.name == "adapter_over_full" for a in lora.assumptions)
    assert not any(a.name == "adapter_over_full" for a in full.assumptions)
    # LoRA is still faster per token than full training: 4N at ~1.0x the MFU vs 6N
    assert lora.wall_hours.mid < full.wall_hours.mid


def test_capped_band_says_so_in_the_assumptions(gpus: dict[str, GpuSpec]) -> None:
    capped = dataclasses.replace(eff.CALIBRATION, generic_width_capped=True)
    kw = dict(
        active_params=8e9, tokens=1e9, method="full", grad_checkpointing=True, gpu=gpus["h100-sxm"], n_gpus=8
    )
    t = estimate_training_time(calibration=capped, **kw)  # type: ignore[arg-type]
    assert any(a.name == "mfu_band_width" and "cap" in str(a.value) for a in t.assumptions)
    uncapped = dataclasses.replace(eff.CALIBRATION, generic_width_capped=False)
    free = estimate_training_time(calibration=uncapped, **kw)  # type: ignore[arg-type]
    assert not any(a.name == "mfu_band_width" for a in free.assumptions)
    shipped = estimate_training_time(**kw)  # type: ignore[arg-type]
    assert any(a.name == "mfu_band_width" for a in shipped.assumptions)  # both CV figures above the cap


def test_framework_changes_the_band(gpus: dict[str, GpuSpec]) -> None:
    a100 = gpus["a100-80gb-sxm"]
    titan = efficiency_band(gpu=a100, precision="bf16", framework="torchtitan")
    hf = efficiency_band(gpu=a100, precision="bf16", framework="hf")
    # torchtitan reaches ~57% of A100 peak in its table; HF/PEFT single-GPU LoRA ~41% (fit rows), ~47% dense
    # once Qwen's recomputing rows are read as such (efficiency.FRAMEWORK_ANCHORS: 0.558 vs 0.468; tim16,
    # the optimizer update out of full rows with a stated step: 0.562 vs 0.492, 1.14x)
    assert titan.framework == "torchtitan" and hf.framework == "hf"
    assert titan.mfu.mid > 1.1 * hf.mfu.mid
    # a framework's band is narrower than the generic one and within issue 13's 1.5x (held at its cap)
    generic = efficiency_band(gpu=a100, precision="bf16", framework=None)
    assert titan.mfu.high / titan.mfu.low < min(1.5, generic.mfu.high / generic.mfu.low)


def test_unknown_framework_uses_the_generic_band_and_says_so(gpus: dict[str, GpuSpec]) -> None:
    kw = dict(
        active_params=8e9, tokens=1e9, method="full", grad_checkpointing=True, gpu=gpus["h100-sxm"], n_gpus=8
    )
    none = estimate_training_time(**kw)  # type: ignore[arg-type]
    axolotl = estimate_training_time(framework="axolotl", **kw)  # type: ignore[arg-type]
    assert none.framework is None and axolotl.framework is None  # no calibration row for axolotl
    assert none.mfu == axolotl.mfu
    assert none.mfu.high / none.mfu.low == pytest.approx(eff.GENERIC_HALF_WIDTH**2, rel=0.01)
    assert any(a.name == "framework" and "generic band" in str(a.value) for a in none.assumptions)
    assert any(a.name == "framework" and "axolotl" in str(a.value) for a in axolotl.assumptions)
    assert any("framework" in n for n in none.narrowing)
    with pytest.raises(InputError):
        estimate_training_time(framework="not-a-framework", **kw)  # type: ignore[arg-type]


def test_a100_reaches_more_of_its_peak_than_h100_but_h100_is_faster(gpus: dict[str, GpuSpec]) -> None:
    # llm-foundry (same stack on both): MFU on H100 = 0.78 x MFU on A100; H100's 3.2x peak still wins.
    for fw in ("torchtitan", None):
        a = efficiency_band(gpu=gpus["a100-80gb-sxm"], precision="bf16", framework=fw)
        h = efficiency_band(gpu=gpus["h100-sxm"], precision="bf16", framework=fw)
        # (the pooled cells: 0.86 since DGX Cloud's NeMo/MaxText H100 rows joined them; same stack: 0.73)
        assert h.mfu.mid < 0.9 * a.mfu.mid
        assert h.mfu.mid * 989 > 2 * a.mfu.mid * 312


def test_moe_is_slower_than_dense_with_the_same_active_params(
    gpus: dict[str, GpuSpec], models: dict[str, ModelArch]
) -> None:
    kw = dict(
        active_params=13e9,
        tokens=1e9,
        method="full",
        grad_checkpointing=True,
        gpu=gpus["h100-sxm"],
        n_gpus=8,
        seq_len=4096,
    )
    dense = estimate_training_time(attention_shape=(32, 4096), moe=False, **kw)  # type: ignore[arg-type]
    moe = estimate_training_time(attention_shape=(32, 4096), moe=True, **kw)  # type: ignore[arg-type]
    balanced = estimate_training_time(
        attention_shape=(32, 4096),
        moe=True,
        moe_balanced_routing=True,
        **kw,  # type: ignore[arg-type]
    )
    # at best (MOE_FACTOR_CEILING, routing balanced by luck) an MoE step is as fast as the dense one
    assert moe.tokens_per_s_per_gpu.high <= dense.tokens_per_s_per_gpu.high * (1 + 1e-9)
    assert moe.tokens_per_s_per_gpu.mid < dense.tokens_per_s_per_gpu.mid
    assert moe.wall_hours.low >= dense.wall_hours.low * (1 - 1e-9)
    assert balanced.tokens_per_s_per_gpu.high > moe.tokens_per_s_per_gpu.high * 0.99  # imbalance costs time
    assert balanced.tokens_per_s_per_gpu.low > moe.tokens_per_s_per_gpu.low
    assert any(a.name == "expert_imbalance_slowdown" for a in moe.assumptions)


def test_fp8_charges_attention_at_the_bf16_peak(gpus: dict[str, GpuSpec]) -> None:
    # FP8 recipes convert linear layers only: at 32k tokens attention is ~half the FLOPs of an 8B model
    h100 = gpus["h100-sxm"]
    kw = dict(
        active_params=8e9,
        tokens=1e9,
        method="full",
        grad_checkpointing=True,
        gpu=h100,
        n_gpus=8,
        precision="fp8",
    )
    short = estimate_training_time(attention_shape=(32, 4096), seq_len=2048, **kw)  # type: ignore[arg-type]
    long = estimate_training_time(attention_shape=(32, 4096), seq_len=32768, **kw)  # type: ignore[arg-type]
    assert h100.fp8_dense_tflops is not None
    assert h100.bf16_dense_tflops < long.peak_tflops_per_gpu < short.peak_tflops_per_gpu
    assert short.peak_tflops_per_gpu < h100.fp8_dense_tflops
    bf16 = estimate_training_time(
        active_params=8e9,
        tokens=1e9,
        method="full",
        grad_checkpointing=True,
        gpu=h100,
        n_gpus=8,
        attention_shape=(32, 4096),
        seq_len=32768,
    )
    assert bf16.peak_tflops_per_gpu == h100.bf16_dense_tflops


def test_claim_check_and_estimate_agree(gpus: dict[str, GpuSpec]) -> None:
    # The example: "plan 1.6x longer" must be read against the estimate of the same set-up.
    kw = dict(active_params=8e9, method="lora", grad_checkpointing=True, gpu=gpus["h100-sxm"], n_gpus=8)
    t = estimate_training_time(tokens=10e9, framework="nemo", **kw)  # type: ignore[arg-type]
    c = check_claim(tokens=10e9, hours=1.0, framework="nemo", **kw)  # type: ignore[arg-type]
    assert c.mfu_band == t.effective_mfu
    # the claim's optimistic wall-clock equals the estimate's low end
    assert c.implied_mfu / c.mfu_band.high * 1.0 == pytest.approx(t.wall_hours.low, rel=1e-9)
    plausible = check_claim(tokens=10e9, hours=t.wall_hours.mid, framework="nemo", **kw)  # type: ignore[arg-type]
    fast = check_claim(tokens=10e9, hours=t.wall_hours.low * 0.9, framework="nemo", **kw)  # type: ignore[arg-type]
    assert plausible.verdict == "plausible" and fast.verdict == "implausible"


def test_bench_scores_the_development_rows_within_loose_bounds() -> None:
    fit_rows, held_out = fit_and_held_out()
    assert len(fit_rows) >= 40 and len(held_out) >= 15
    # the development sides only: a later held-out side is scored, never fitted
    every = [s for name, side in scored_sides().items() if name in FIT_SIDES for s in side]
    s = summarise(every)
    assert s.rows >= 140
    # 90.2% / 11.1% (92.5% / 9.9% before fresh-3 was fitted and the framework cells were pulled towards the
    # pooled cells, which trades in-sample coverage for out-of-family coverage: bench/time_cv.py 84.8% ->
    # 89.7%; 95.8% before fresh-2 was fitted; every side fitted, bands capped)
    assert s.coverage >= 0.90
    assert s.median_error <= 0.15
    # the framework rows' bands sit at the 1.5x cap, the generic ones at the 2x cap; DeepSpeed's ZeRO
    # collectives (0.11-0.21 of the link) and unstated sample lengths widen the rows they set
    framed = [
        x
        for x in every
        if x.row.framework in eff.CALIBRATED_FRAMEWORKS and not x.row.model.moe and x.row.method != "qlora"
    ]
    set_by_comm = [x for x in framed if x.row.framework == "deepspeed" and row_parallel(x.row).sharding]
    widths = [x.with_framework.high / x.with_framework.low for x in framed if x not in set_by_comm]
    assert widths and max(widths) <= 1.5 * 1.1 + 1e-9
    assert s.width_without <= 2.0 + 1e-9


def test_bench_scores_any_named_held_out_side(tmp_path: Path) -> None:
    # a fresh held-out set lands as a further `split` side: the bench scores it by its name, unfitted
    data = yaml.safe_load(TRAINING_FILE.read_text(encoding="utf-8"))
    keep = {"qwen1-readme", "torchtune-readme", "torchtitan-h100"}
    data["rows"] = [r for r in data["rows"] if r["family"] in keep]
    data["split"] = {
        "fit": ["qwen1-readme"],
        "held_out": ["torchtune-readme"],
        "fresh_held_out": ["torchtitan-h100"],
    }
    path = tmp_path / "rows.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    sides = scored_sides(path)
    assert list(sides) == ["fit", "held_out", "fresh_held_out"]
    assert {s.row.family for s in sides["fresh_held_out"]} == {"torchtitan-h100"}
    assert len(sides["fresh_held_out"]) == 7
