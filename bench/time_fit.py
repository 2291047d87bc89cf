"""Fit the training-time efficiency constants (tools/compute/efficiency.py) on the development rows.

Rows are bench/data/training_throughput.yaml (+ _fresh2/3.yaml) restricted to the families of the FIT_SIDES
of its split (fit, held_out, fresh_held_out, fresh2/3_held_out: every side collected so far, all of whose
errors have been seen; fresh4_held_out and b200_held_out are checks, bench/time_cv.py --with-side). For each
row the published tokens/s/GPU is turned into an MFU with the same FLOPs count the estimate uses
(tools.compute.flops: k x N_active + the attention term; recompute NOT counted as FLOPs) over the same peak
(FP8 rows: attention at the BF16 peak, blended), on the tokens the GPU computed: unpacked rows' padding
comes out (tools.compute.padding; rows whose data set has no published lengths are left out), a whole run's
rate (bench.time_rows.row_whole_run: the Llama 2 paper's GPU-hours) is divided by the pretraining goodput's
middle, and a step sync that adds to the step (tools.compute.parallel: ZeRO-1/2); a row whose collectives
may set its rate (IDENTIFIED_HEADROOM) is left out of the constants. Then, in this order:

1. small-batch and QLoRA factors are taken out (their constants are fitted from the Qwen single-GPU pair),
   the full-recompute factor (full-recompute / no-recompute MFU within each stack publishing both) out
   of the full-recompute rows, and the adapter factor (LoRA / full MFU within each stack publishing
   both) out of LoRA/QLoRA rows;
2. dense rows give the framework anchors: median MFU per (framework, generation, precision) cell, pulled
   towards the generic anchor by the cell's source-family count (CELL_SHRINK_FAMILIES), and the generic
   anchors: median per (generation, precision) over every framework;
3. the generation ratios (median over the stacks with dense rows on both generations: hopper / ampere
   from llm-foundry, torchtitan, fms-fsdp, DeepSpeed and Megatron; blackwell / hopper apart for the
   Transformer Engine stacks (efficiency.TE_FRAMEWORKS: Megatron) and the others (none in FIT_SIDES; with
   fresh-4: torchtitan, Unsloth, Surogate), Blackwell never pooled: its generic cell is Hopper's x the
   others' ratio, the TE one while the others' is unidentified) and
   the MoE factor (MoE MFU
   / the middle of the dense band the estimate reads for the row's GPU, precision and framework);
4. the band half-widths, by leave-one-family-out cross-validation (cross_validate): each family
   in turn is left out, steps 1-3 are re-run on the others (a constant only that family identifies takes
   its no-information value: generation ratio 1.0, adapter and recompute factors 1.0, small-batch
   exponent 0), and its
   dense rows are
   predicted with the real estimate (bench.time_accuracy.predict); half-width = exp(90th percentile of
   |log(published / geometric middle)|), for the rows whose framework has a band and for every row
   without a framework. cv_bias checks the middle for a systematic shift by generation or method.
   The in-sample 90th percentile is printed beside it for comparison.

Prints the constants; tools/compute/efficiency.py holds the values with this script as their source, and
tests/compute/test_time_calibration.py checks that the two agree. A side outside FIT_SIDES (a held-out
set added later) is never read here.

Run: .venv/bin/python -m bench.time_fit
"""

from __future__ import annotations

import dataclasses
import math
import statistics
from dataclasses import dataclass
from pathlib import Path

from bench.calibration_data import (
    TRAINING_FILE,
    TrainingRow,
    load_training_rows,
    load_training_split,
    rows_in,
)
from bench.time_accuracy import predict
from bench.time_fit_ratios import (
    ADAPTER_METHODS,
    ADAPTER_PAIR_FRAMEWORKS,
    IDENTIFIED_HEADROOM,
    FitRow,
    _adapter_over_full,
    _comm_cap,
    _framework_adapter_over_full,
    _full_recompute_factor,
    _generation_ratio,
    _median_by,
    moe_routing_scale,
)
from bench.time_rows import (
    row_attention,
    row_data,
    row_eager_attention_heads,
    row_framework,
    row_full_recompute,
    row_generation,
    row_moe_loop_seconds_per_token,
    row_moe_routing,
    row_optimizer_seconds_per_token,
    row_parallel,
    row_precision,
    row_seq_len,
    row_whole_run,
)
from tools.catalog.load import load_catalog
from tools.compute.attention_eager import EAGER_BYTES_PER_SCORE, eager_seconds_per_token
from tools.compute.efficiency import (
    CALIBRATION,
    SMALL_BATCH_EXPONENT,
    TE_FRAMEWORKS,
    Calibration,
    Generation,
    PrecisionClass,
    efficiency_band,
    routing_ridge_ratio,
    small_batch_factor,
)
from tools.compute.efficiency import (
    MOE_FACTOR_CEILING as _DENSE_MIDDLE_CEILING,
)
from tools.compute.flops import (
    FLOPS_PER_PARAM_TOKEN_ADAPTER,
    FLOPS_PER_PARAM_TOKEN_FULL,
    attention_flops,
    blended_peak_tflops,
)
from tools.compute.flops import peak_tflops as _peak
from tools.compute.padding import padding
from tools.compute.parallel import pipeline_efficiency_range
from tools.compute.training_inputs import PRETRAINING_GOODPUT
from tools.ranges import Range
from tools.units import tflops_to_flops
from tools.vocabulary import FRAMEWORKS

GENERATIONS: tuple[Generation, ...] = ("ampere", "hopper", "blackwell", "amd", "gaudi")
PRECISIONS: tuple[PrecisionClass, ...] = ("bf16", "fp8")
FIT_SIDES: tuple[str, ...] = ("fit", "held_out", "fresh_held_out", "fresh2_held_out", "fresh3_held_out")
"""The split sides the constants are fitted on (development data: all their errors had been seen;
bench/data/README.md). fresh2 joined on 2026-11-28, fresh3 on 2026-11-29. A later side is scored by
bench/time_accuracy.py, never fitted, unless it joins here."""
UNFITTED_DEVELOPMENT_SIDES: tuple[str, ...] = (
    "fresh4_held_out",
    "fresh5_held_out",
    "fresh6_held_out",
    "fresh7_held_out",
    "device_held_out",
    "device2_held_out",
)
"""Development sides scored but not fitted. tim16 fitted them all (`bench.time_cv --with-side` with these,
every fold refitted without its family): leave-one-family-out 77.2% / 16.8% -> 69.8% / 18.9% (hf adapter
factor on) or 70.7% / 18.0% (off), so they stay out (bench/data/README.md, tim16)."""
NO_ADAPTER_EFFECT = 1.0
"""The LoRA/full MFU ratio where no stack in the rows publishes both: LoRA at the dense band."""
NO_RECOMPUTE_EFFECT = 1.0
"""The full-recompute MFU factor where no stack in the rows publishes runs with and without it."""
NO_GENERATION_EFFECT = 1.0
"""A generation ratio the rows cannot identify (its only stack left out of a cross-validation fold):
the no-information value, the same share of peak on both generations."""


def development_rows(path: Path = TRAINING_FILE) -> list[TrainingRow]:
    """The rows of the FIT_SIDES families."""
    sides = load_training_split(path).sides()
    return rows_in(load_training_rows(path), [f for side in FIT_SIDES for f in sides.get(side, [])])


def _fit_rows(
    training_rows: list[TrainingRow] | None = None, *, small_batch_exponent: float = SMALL_BATCH_EXPONENT
) -> list[FitRow]:
    """The fit side's rows (or the given ones) as MFUs on the estimate's FLOPs and peak. Unpacked rows
    whose data set has no published lengths are left out (their computed tokens are unknown)."""
    gpus = {g.id: g for g in load_catalog().gpus}
    out: list[FitRow] = []
    if training_rows is None:
        training_rows = development_rows()
    for r in training_rows:
        if r.tokens_per_s_per_gpu is None:
            continue
        gpu = gpus[r.gpu]
        prec = row_precision(r)
        par = row_parallel(r)
        mb_seqs = par.tokens_per_micro_batch_sequences or 1
        data = row_data(r)
        computed = r.tokens_per_s_per_gpu  # tokens/s the GPU computes, padding included
        if row_whole_run(r):  # a whole run's rate: the step rate is above it by the goodput
            computed /= PRETRAINING_GOODPUT.mid
        seq: float = row_seq_len(r) or 0  # the same sequence (stated or the family's default) as the estimate
        if not data.packed:
            if data.lengths is None or data.max_tokens is None:
                continue
            pad = padding(lengths=data.lengths, samples_per_micro_batch=mb_seqs, max_tokens=data.max_tokens)
            seq, computed = pad.padded_tokens_per_sample, computed / pad.efficiency
        heads = row_eager_attention_heads(r)
        if heads is not None and seq:  # eager attention: its score traffic comes out (at the bytes' middle)
            b = EAGER_BYTES_PER_SCORE
            score_s = eager_seconds_per_token(
                n_layers=row_attention(r)[0], n_heads=heads, seq_len=seq, bytes_per_score=b.mid, gpu=gpu
            )
            computed = 1.0 / (1.0 / computed - score_s)
        if r.method in ("full", "pretraining") and par.tokens_per_micro_batch_sequences and seq:
            # the optimizer update, once per step, comes out as the estimate charges it (stated steps only)
            computed = 1.0 / (1.0 / computed - row_optimizer_seconds_per_token(r, gpu, mb_seqs * seq))
        if seq:  # transformers' expert loop (hf MoE rows): its host time comes out as the estimate charges it
            computed = 1.0 / (1.0 / computed - row_moe_loop_seconds_per_token(r, mb_seqs * seq))
        active = (r.model.active_params_b or r.model.params_b) * 1e9
        k = FLOPS_PER_PARAM_TOKEN_ADAPTER if r.method in ("lora", "qlora") else FLOPS_PER_PARAM_TOKEN_FULL
        layers, width = row_attention(r)
        flash = heads is None  # a fused causal kernel (eager attention computes every score)
        attn = attention_flops(n_layers=layers, attention_width=width, seq_len=seq, causal_kernel=flash)
        peak = tflops_to_flops(  # FP8: attention at the BF16 peak, as the estimate does
            blended_peak_tflops(
                precision_peak_tflops=_peak(gpu=gpu, precision=prec),
                bf16_peak_tflops=_peak(gpu=gpu, precision="bf16"),
                dense_flops=k * active,
                attention_flops=attn,
            )
        )
        per_token = k * active + attn
        headroom, identified = None, True
        comm = _comm_cap(r, gpu, mb_seqs * seq) if seq else None
        if comm is not None:
            cap, exposed = comm
            middle = math.sqrt(cap.low * cap.high)
            if exposed:  # the step waits for the sync: take its time out (at the cap's middle)
                headroom = middle / computed
                identified = headroom >= IDENTIFIED_HEADROOM
                computed = 1.0 / (1.0 / computed - 1.0 / middle) if identified else computed
            else:
                headroom = cap.low / computed
                identified = headroom >= 1.0
        mfu = computed * per_token / peak
        mfu /= small_batch_factor(tokens_per_micro_batch=round(mb_seqs * seq), exponent=small_batch_exponent)
        if par.pipeline_stages > 1:  # the bubble is charged apart, so it comes out of the band
            mfu /= pipeline_efficiency_range(
                stages=par.pipeline_stages,
                micro_batches=par.pipeline_micro_batches,
                virtual_stages=par.virtual_stages,
            ).mid
        out.append(FitRow(r, mfu, r.framework, row_generation(gpu), prec, headroom, identified))
    return out


def _q90_abs_log(ratios: list[float]) -> float:
    """exp of the 90th percentile (nearest rank) of |log ratio|."""
    logs = sorted(abs(math.log(x)) for x in ratios)
    idx = min(len(logs) - 1, math.ceil(0.9 * len(logs)) - 1)
    return math.exp(logs[idx])


@dataclass(frozen=True)
class FitConstants:
    """Steps 2-3 of the module docstring on a set of fit rows; a ratio the rows cannot identify
    (its only stack absent, as in a cross-validation fold) is None."""

    framework_anchor: dict[tuple[str, ...], float]
    generic_anchor: dict[tuple[str, ...], float]
    hopper_over_ampere: float | None
    blackwell_over_hopper: float | None
    qlora_slowdown: list[float]
    moe_factor: tuple[float, float] | None
    adapter_over_full: float | None = None
    full_recompute_factor: float | None = None
    framework_adapter_over_full: dict[str, float] = dataclasses.field(default_factory=dict)
    framework_adapter_pairs: dict[str, float] = dataclasses.field(default_factory=dict)  # applied or not
    blackwell_over_hopper_other: float | None = None
    moe_routing_scale: float | None = None
    moe_factor_no_routing: tuple[float, float] | None = None

    def calibration(
        self,
        *,
        small_batch_exponent: float,
        framework_half_width: float = 1.0,
        generic_half_width: float = 1.0,
    ) -> Calibration:
        """These constants as the estimate reads them; unidentified ratios take NO_GENERATION_EFFECT,
        an unidentified MoE factor the shipped one (no MoE row is then predicted)."""
        fw = {
            (k[0], k[1], k[2]): v
            for k, v in self.framework_anchor.items()
            if k[0] in FRAMEWORKS and k[1] in GENERATIONS and k[2] in PRECISIONS
        }
        gen = {
            (k[0], k[1]): v
            for k, v in self.generic_anchor.items()
            if k[0] in GENERATIONS and k[1] in PRECISIONS
        }
        moe = (
            CALIBRATION.moe_factor
            if self.moe_factor is None
            else Range(low=self.moe_factor[0], high=self.moe_factor[1])
        )
        return Calibration(
            framework_anchors=fw,  # type: ignore[arg-type]
            generic_anchors=gen,
            hopper_over_ampere=self.hopper_over_ampere or NO_GENERATION_EFFECT,
            blackwell_over_hopper=self.blackwell_over_hopper or NO_GENERATION_EFFECT,
            framework_half_width=framework_half_width,
            generic_half_width=generic_half_width,
            small_batch_exponent=small_batch_exponent,
            moe_factor=moe,
            adapter_over_full=self.adapter_over_full or NO_ADAPTER_EFFECT,
            framework_adapter_over_full=self.framework_adapter_over_full,
            full_recompute_factor=self.full_recompute_factor or NO_RECOMPUTE_EFFECT,
            blackwell_over_hopper_other=self.blackwell_over_hopper_other,
            moe_routing_scale=self.moe_routing_scale,
            moe_factor_no_routing=None
            if self.moe_factor_no_routing is None
            else Range(low=self.moe_factor_no_routing[0], high=self.moe_factor_no_routing[1]),
        )


MOE_FACTOR_CEILING = _DENSE_MIDDLE_CEILING  # tools.compute.efficiency.MOE_FACTOR_CEILING, 1.0
"""The MoE factor's top: an MoE layer runs the dense FLOPs of its active experts as thinner grouped GEMMs
and adds the router, the token permutation and the all-to-all, so its MFU on active parameters does not
exceed the dense band's middle for the same stack. FlagPerf's Qwen1.5-MoE-A2.7B on 8 A800 (1.02 on
2026-11-29, inside that cell's own scatter) sits at 0.95 since tim8: the ceiling does not bind."""
CELL_SHRINK_FAMILIES = 1.0
"""A framework cell's anchor is pulled towards the pooled (generic) cell of its generation and precision
in log space, by k / (n + k) with n the cell's source families: a one-family cell keeps half its lead over
the pooled stacks, a three-family cell three quarters. Why: out of family, a cell fitted on one or two
sources carries their quirks (FlagPerf's megatron-core A800 rows 1.4x Megatron-LLaMA's and the Megatron-LM
paper's in the same cell). Chosen by the per-side leave-one-family-out scores (bench/time_cv.py, every
side, 2026-11-29 with fresh-3 fitted): k = 0 coverage 88.7% / median error 14.2%; 0.5: 89.7% / 13.6%;
1: 89.7% / 13.3%; 2: 88.7% / 13.3%; 4: 86.8% / 13.5%."""


def _families_by_cell(dense: list[FitRow]) -> dict[tuple[str, ...], int]:
    """Source families behind each framework cell (framework, generation, precision)."""
    fams: dict[tuple[str, ...], set[str]] = {}
    for fr in dense:
        if fr.framework != "other":
            fams.setdefault((fr.framework, fr.generation, fr.precision), set()).add(fr.row.family)
    return {k: len(v) for k, v in fams.items()}


def _shrunk(
    fw_anchor: dict[tuple[str, ...], float],
    generic: dict[tuple[str, ...], float],
    families: dict[tuple[str, ...], int],
    te_ratio: float = NO_GENERATION_EFFECT,
) -> dict[tuple[str, ...], float]:
    """Each framework cell pulled towards its pooled cell by CELL_SHRINK_FAMILIES (log space); a
    TE_FRAMEWORKS cell on Blackwell towards the pooled Hopper cell moved by the TE stacks' ratio."""
    out = {}
    for k, v in fw_anchor.items():
        weight = families[k] / (families[k] + CELL_SHRINK_FAMILIES)
        target = generic.get(k[1:])
        if k[1] == "blackwell" and k[0] in TE_FRAMEWORKS and ("hopper", k[2]) in generic:
            target = generic[("hopper", k[2])] * te_ratio
        if target is None:  # no pooled cell of its own (a generation only this stack has)
            out[k] = v
            continue
        out[k] = target * (v / target) ** weight
    return out


def fit_constants(rows: list[FitRow], adapter_pairs: list[FitRow] | None = None) -> FitConstants:
    """Anchors, generation ratios, adapter, QLoRA and MoE factors of these fit rows (comm-bound rows,
    whose MFU the published rate does not identify, left out); ADAPTER_PAIR_FRAMEWORKS' adapter factors from
    `adapter_pairs` (None: the same fit rows, so a cross-validation fold reads no pair of the family it
    predicts; tim16, once the pair families joined FIT_SIDES)."""
    rows = [fr for fr in rows if fr.identified]
    recompute = _full_recompute_factor(rows)

    def no_recompute(frs: list[FitRow]) -> list[FitRow]:  # the bands are MFUs without full recompute
        r = recompute or NO_RECOMPUTE_EFFECT
        return [dataclasses.replace(fr, mfu=fr.mfu / r) if row_full_recompute(fr.row) else fr for fr in frs]

    rows = no_recompute(rows)  # full recompute comes out first, then the adapter factors
    # the pooled factor reads the stacks without a factor of their own (tim16: with the HF full rows fitted,
    # hf's unfused PEFT pairs, ~0.6-0.9, had pulled the pooled NeMo-like 1.057 to 0.784)
    pooled = [fr for fr in rows if fr.framework not in ADAPTER_PAIR_FRAMEWORKS]
    adapter = _adapter_over_full(pooled, {g.id: g.usable_memory_gib for g in load_catalog().gpus})
    pairs = rows if adapter_pairs is None else no_recompute([fr for fr in adapter_pairs if fr.identified])
    by_fw = {fw: _framework_adapter_over_full(pairs, fw) for fw in ADAPTER_PAIR_FRAMEWORKS}
    # applied only where the framework has a dense full/pretraining fit row, else the factor sets its cell:
    # tim15, hf's 0.722 out of its all-LoRA Ampere cell (0.468 -> 0.626) put the A100 HF full rows of other
    # sources 25-60% fast, leave-one-family-out 77.6% / 17.0% -> 73.0% / 17.5% (bench/data/README.md, tim15)
    anchored = {fr.framework for fr in rows if fr.row.method not in ADAPTER_METHODS and not fr.row.model.moe}
    fw_adapter = {fw: v for fw, v in by_fw.items() if v is not None and fw in anchored}
    # the adapter factor (the framework's own where fitted) comes out of LoRA/QLoRA rows before the anchors
    rows = [
        dataclasses.replace(fr, mfu=fr.mfu / fw_adapter.get(fr.framework, adapter or NO_ADAPTER_EFFECT))
        if fr.row.method in ADAPTER_METHODS
        else fr
        for fr in rows
    ]
    dense = [fr for fr in rows if not fr.row.model.moe and fr.row.method != "qlora"]
    fw_anchor = _median_by(
        [fr for fr in dense if fr.framework != "other"], ("framework", "generation", "precision")
    )
    generic = _median_by(dense, ("generation", "precision"))
    blackwell_te = _generation_ratio(dense, "blackwell", "hopper", te_stacks=True)
    blackwell_other = _generation_ratio(dense, "blackwell", "hopper", te_stacks=False)
    # Blackwell is not pooled across stacks: its rows split by kernel class (efficiency.TE_FRAMEWORKS), so
    # the generic Blackwell cell (a stack not named) is the Hopper one moved by the ratio of the stacks
    # outside TE_FRAMEWORKS (most stacks a buyer runs), and a framework's Blackwell cell is pulled towards
    # the Hopper cell moved by its own class's ratio
    generic = {k: v for k, v in generic.items() if k[0] != "blackwell"}
    te_ratio = blackwell_te or NO_GENERATION_EFFECT
    other_ratio = blackwell_other or te_ratio
    for prec in PRECISIONS:
        if ("hopper", prec) in generic:
            generic[("blackwell", prec)] = generic[("hopper", prec)] * other_ratio
    fw_anchor = _shrunk(fw_anchor, generic, _families_by_cell(dense), te_ratio=te_ratio)
    qlora = [fr for fr in rows if fr.row.method == "qlora"]
    # against the stack's own 16-bit cell (QLoRA rows of an unnamed stack, Answer.AI's fsdp_qlora, have none)
    qlora_slowdown = [
        fw_anchor[(fr.framework, fr.generation, fr.precision)] / fr.mfu
        for fr in qlora
        if (fr.framework, fr.generation, fr.precision) in fw_anchor
    ]
    c = FitConstants(
        framework_anchor=fw_anchor,
        generic_anchor=generic,
        hopper_over_ampere=_generation_ratio(dense, "hopper", "ampere"),
        blackwell_over_hopper=blackwell_te,
        blackwell_over_hopper_other=blackwell_other,
        qlora_slowdown=qlora_slowdown,
        moe_factor=None,
        adapter_over_full=adapter,
        full_recompute_factor=recompute,
        framework_adapter_over_full=fw_adapter,
        framework_adapter_pairs={fw: v for fw, v in by_fw.items() if v is not None},
    )
    # MoE factor: the MoE row's MFU over the dense band middle the estimate reads for the same GPU,
    # precision and framework (the framework's band, else the generic one)
    cal = c.calibration(small_batch_exponent=0.0)
    gpus = {g.id: g for g in load_catalog().gpus}
    moe_ratio: list[tuple[float, float | None]] = []
    # QLoRA MoE rows carry the dequantisation slowdown (charged apart, as for dense QLoRA rows): left out
    for fr in (fr for fr in rows if fr.row.model.moe and fr.row.method != "qlora"):
        band = efficiency_band(
            gpu=gpus[fr.row.gpu], precision=fr.precision, framework=row_framework(fr.row), calibration=cal
        )
        x = row_moe_routing(fr.row)  # read at the row GPU's ridge, as the estimate reads it
        x = None if x is None else x * routing_ridge_ratio(gpus[fr.row.gpu], fr.precision)
        moe_ratio.append((fr.mfu / math.sqrt(band.mfu.low * band.mfu.high), x))
    raw = [r for r, _ in moe_ratio]
    moe = (min(raw), min(MOE_FACTOR_CEILING, max(raw))) if raw else None
    # the routing traffic taken out of the rows whose expert layout is known (efficiency.MOE_ROUTING_SCALE)
    known = [(r, x) for r, x in moe_ratio if x is not None]
    scale = moe_routing_scale(known)
    if scale is None:
        return dataclasses.replace(c, moe_factor=moe)
    no_routing = [r * (1.0 + x / scale) for r, x in known]
    # not capped here: the estimate holds the routed factor at MOE_FACTOR_CEILING
    moe_no_routing = (min(no_routing), max(no_routing))
    return dataclasses.replace(
        c, moe_factor=moe, moe_routing_scale=scale, moe_factor_no_routing=moe_no_routing
    )


def fit() -> dict[str, object]:
    """The fitted constants, by name (see the module docstring for the order)."""
    every = _fit_rows()
    rows = [fr for fr in every if fr.identified]
    c = fit_constants(rows)
    assert c.hopper_over_ampere is not None and c.blackwell_over_hopper is not None and c.moe_factor
    dense = [fr for fr in rows if not fr.row.model.moe and fr.row.method != "qlora"]
    fw_resid = [
        fr.mfu / c.framework_anchor[(fr.framework, fr.generation, fr.precision)]
        for fr in dense
        if fr.framework != "other"
    ]
    gen_resid = [fr.mfu / c.generic_anchor[(fr.generation, fr.precision)] for fr in dense]
    cell_rows: dict[tuple[str, ...], int] = {}
    for fr in dense:
        if fr.framework != "other":
            key = (fr.framework, fr.generation, fr.precision)
            cell_rows[key] = cell_rows.get(key, 0) + 1
    families = _families_by_cell(dense)
    return {
        "framework_anchor": {"/".join(k): round(v, 3) for k, v in sorted(c.framework_anchor.items())},
        # (source families, rows) behind each framework cell (efficiency.FRAMEWORK_CELL_EVIDENCE)
        "framework_cell_evidence": {"/".join(k): (families[k], n) for k, n in sorted(cell_rows.items())},
        "generic_anchor": {"/".join(k): round(v, 3) for k, v in sorted(c.generic_anchor.items())},
        "hopper_over_ampere": round(c.hopper_over_ampere, 3),
        "blackwell_over_hopper": round(c.blackwell_over_hopper, 3),
        "blackwell_over_hopper_other": None
        if c.blackwell_over_hopper_other is None
        else round(c.blackwell_over_hopper_other, 3),
        "adapter_over_full": round(c.adapter_over_full or NO_ADAPTER_EFFECT, 3),
        "framework_adapter_over_full": {k: round(v, 3) for k, v in c.framework_adapter_over_full.items()},
        "framework_adapter_pairs": {k: round(v, 3) for k, v in c.framework_adapter_pairs.items()},
        "full_recompute_factor": round(c.full_recompute_factor or NO_RECOMPUTE_EFFECT, 3),
        "qlora_slowdown": [round(x, 3) for x in c.qlora_slowdown],
        "moe_factor_range": (round(c.moe_factor[0], 3), round(c.moe_factor[1], 3)),
        "moe_routing_scale": None if c.moe_routing_scale is None else float(f"{c.moe_routing_scale:.3g}"),
        "moe_factor_no_routing": None
        if c.moe_factor_no_routing is None
        else (round(c.moe_factor_no_routing[0], 3), round(c.moe_factor_no_routing[1], 3)),
        # in-sample scatter, for comparison with the cross-validated half-widths (cross_validate below)
        "in_sample_framework_half_width": round(_q90_abs_log(fw_resid), 3),
        "in_sample_generic_half_width": round(_q90_abs_log(gen_resid), 3),
        "rows": len(rows),
        # sharded / synced rows whose published rate sits at the collectives' cap (left out of the
        # constants: their MFU is not identified), and the smallest headroom over the cap of the others
        "comm_bound_fit_rows": sorted(fr.row.id for fr in every if not fr.identified),
        "min_comm_headroom": round(min(fr.comm_headroom for fr in rows if fr.comm_headroom is not None), 2),
    }


# --- leave-one-family-out cross-validation: the band half-widths (tools/compute/efficiency.py) -------
SMALL_BATCH_FAMILY = "qwen1-readme"
"""The family the small-batch exponent comes from (efficiency.SMALL_BATCH_SOURCE); a fold without it
has no small-batch correction (exponent 0)."""
BIAS_MIN_FAMILIES = 2
BIAS_MIN_SHIFT = 0.10
"""Rule for correcting the middle: a group (generation x precision, or method) is biased when its
out-of-family rows come from >= 2 families, every family's median residual has the same sign and the
group's median residual exceeds 10%; then its anchors would move by that median. None qualifies today."""


@dataclass(frozen=True)
class CvResidual:
    row: TrainingRow
    generation: str
    precision: str
    log_residual_generic: float
    """log(published / geometric middle), no framework given, constants refitted without the family"""
    log_residual_framework: float | None
    """the same with the row's framework given (None: the row's stack has no name in the vocabulary)"""


def cross_validate(training_rows: list[TrainingRow] | None = None) -> list[CvResidual]:
    """Each fit family left out in turn: refit every constant on the others, predict its dense
    16-bit/FP8 rows (MoE and QLoRA factors come from one family each: no out-of-family residual)."""
    rows = training_rows or development_rows()
    gpus = {g.id: g for g in load_catalog().gpus}
    out: list[CvResidual] = []
    for family in sorted({r.family for r in rows}):
        train = [r for r in rows if r.family != family]
        exponent = SMALL_BATCH_EXPONENT if any(r.family == SMALL_BATCH_FAMILY for r in train) else 0.0
        cal = fit_constants(_fit_rows(train, small_batch_exponent=exponent)).calibration(
            small_batch_exponent=exponent
        )
        for r in rows:
            if r.family != family or r.tokens_per_s_per_gpu is None or r.model.moe or r.method == "qlora":
                continue
            gpu = gpus[r.gpu]
            generic = predict(r, gpu, None, cal)
            fw = row_framework(r)
            given = None if fw is None else predict(r, gpu, fw, cal)

            def log_res(rng: Range, pub: float = r.tokens_per_s_per_gpu) -> float:
                return math.log(pub / math.sqrt(rng.low * rng.high))

            out.append(
                CvResidual(
                    r,
                    row_generation(gpu),
                    row_precision(r),
                    log_res(generic),
                    None if given is None else log_res(given),
                )
            )
    return out


def cv_half_widths(residuals: list[CvResidual]) -> dict[str, float]:
    """The rule of efficiency.FRAMEWORK_HALF_WIDTH_CV / GENERIC_HALF_WIDTH_CV: exp(90th percentile of
    |log residual|) over the out-of-family predictions."""
    fw = [math.exp(c.log_residual_framework) for c in residuals if c.log_residual_framework is not None]
    return {
        "framework_half_width": round(_q90_abs_log(fw), 3),
        "generic_half_width": round(_q90_abs_log([math.exp(c.log_residual_generic) for c in residuals]), 3),
    }


def cv_bias(residuals: list[CvResidual]) -> dict[str, tuple[float, int, bool]]:
    """Per group: (median out-of-family residual as a ratio - 1, families, biased by the rule)."""
    groups: dict[str, list[CvResidual]] = {}
    for c in residuals:
        for key in (f"{c.generation}/{c.precision}", f"method {c.row.method}"):
            groups.setdefault(key, []).append(c)
    out: dict[str, tuple[float, int, bool]] = {}
    for key, cs in sorted(groups.items()):
        med = statistics.median(c.log_residual_generic for c in cs)
        fams: dict[str, list[float]] = {}
        for c in cs:
            fams.setdefault(c.row.family, []).append(c.log_residual_generic)
        signs = {statistics.median(v) > 0 for v in fams.values()}
        biased = len(fams) >= BIAS_MIN_FAMILIES and len(signs) == 1 and abs(math.expm1(med)) > BIAS_MIN_SHIFT
        out[key] = (round(math.expm1(med), 3), len(fams), biased)
    return out


def main() -> int:
    for name, value in fit().items():
        if isinstance(value, dict):
            print(f"{name}:")
            for k, v in value.items():
                print(f"  {k:28s} {v}")
        else:
            print(f"{name:28s} {value}")
    cv = cross_validate()
    print(f"leave-one-family-out CV ({len(cv)} dense rows, {len({c.row.family for c in cv})} families):")
    for fam in sorted({c.row.family for c in cv}):
        logs = [c.log_residual_generic for c in cv if c.row.family == fam]
        print(
            f"  {fam:28s} rows {len(logs):2d}  median {math.expm1(statistics.median(logs)):+.1%}"
            f"  widest {math.expm1(max(logs, key=abs)):+.1%}"
        )
    for name, value in cv_half_widths(cv).items():
        print(f"  cv_{name:24s} {value}")
    print("  bias by group (median published / middle - 1, families, biased by the rule):")
    for key, (shift, n, biased) in cv_bias(cv).items():
        print(f"    {key:24s} {shift:+.1%}  {n}  {'BIASED' if biased else '-'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
