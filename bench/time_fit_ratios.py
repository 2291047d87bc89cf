"""The ratios bench/time_fit.py reads between the fit rows of one software stack: generation ratios
(Hopper/Ampere, Blackwell/Hopper by kernel class), the LoRA/full adapter factor and the full-recompute
factor, each a median within the stacks publishing both sides (module docstring of bench/time_fit.py,
step 1 and 3), and the FitRow they are computed on."""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass

from bench.calibration_data import TrainingRow
from bench.time_rows import row_framework, row_full_recompute, row_parallel
from tools.catalog.schema import GpuSpec
from tools.compute.efficiency import MOE_FACTOR_CEILING, TE_FRAMEWORKS, generation_of
from tools.compute.parallel import parallel_limits
from tools.compute.training_scaling import BF16_WEIGHT_BYTES, QLORA_WEIGHT_BYTES
from tools.ranges import Range
from tools.trace import UntracedBuilder
from tools.vocabulary import FRAMEWORKS


@dataclass(frozen=True)
class FitRow:
    row: TrainingRow
    mfu: float
    """computed tokens/s/GPU x FLOPs per token / peak: padding, the exposed step sync, the small-batch
    factor and the pipeline bubble taken out"""
    framework: str
    generation: str
    precision: str
    comm_headroom: float | None
    """sharded or synced rows: the collectives' cap over the computed tokens/s (overlapped gathers: the
    cap's slow end; a sync added to the step: the cap's middle)"""
    identified: bool = True
    """False when the collectives may set the row's rate (IDENTIFIED_HEADROOM): its MFU is not
    identified and it stays out of the constants"""


def _median_by(rows: list[FitRow], key: tuple[str, ...]) -> dict[tuple[str, ...], float]:
    groups: dict[tuple[str, ...], list[float]] = {}
    for fr in rows:
        k = tuple(getattr(fr, name) for name in key)
        groups.setdefault(k, []).append(fr.mfu)
    return {k: statistics.median(v) for k, v in groups.items()}


def _stack(fr: FitRow) -> str:
    """The software stack a row ran on: its framework where the vocabulary names one (torchtitan's A100
    and H100 tables are one stack), else its source family ('other' pools unrelated stacks)."""
    return fr.framework if fr.framework in FRAMEWORKS else fr.row.family


def _generation_ratio(
    rows: list[FitRow], top: str, bottom: str, te_stacks: bool | None = None
) -> float | None:
    """Median MFU on `top` / median MFU on `bottom` within each stack that has dense rows on both at one
    precision (Hopper/Ampere: BF16; Blackwell/Hopper: FP8 or BF16, a stack's ratio the median over the
    precisions it has on both); the median over those stacks (None: no such stack). te_stacks: only the
    stacks of efficiency.TE_FRAMEWORKS (True) or only the others (False)."""
    precs = ("bf16",) if bottom == "ampere" else ("fp8", "bf16")
    stacks: dict[str, list[FitRow]] = {}
    for fr in rows:
        if fr.precision in precs and (te_stacks is None or (fr.framework in TE_FRAMEWORKS) == te_stacks):
            stacks.setdefault(_stack(fr), []).append(fr)
    ratios = []
    for srows in stacks.values():
        by = _median_by(srows, ("generation", "precision"))
        per_prec = [by[(top, p)] / by[(bottom, p)] for p in precs if (top, p) in by and (bottom, p) in by]
        if per_prec:
            ratios.append(statistics.median(per_prec))
    return statistics.median(ratios) if ratios else None


IDENTIFIED_HEADROOM = 2.0
"""A row identifies its MFU when its collectives cannot set its rate: a sync added to the step takes at
most half of it (cap's middle >= 2 x the rate; its time comes out, the rest is compute); overlapped
gathers do not bind even at the cap's slow end (cap.low >= the rate)."""


def _comm_cap(r: TrainingRow, gpu: GpuSpec, tokens_per_micro_batch: float) -> tuple[Range, bool] | None:
    """The estimate's collective cap on the row's tokens/s per GPU and whether it adds to the step
    (None: no gathers or step sync, or MoE)."""
    par = row_parallel(r)
    if r.model.moe:
        return None
    limits = parallel_limits(
        tb=UntracedBuilder(),
        gpu=gpu,
        method=r.method,
        n_gpus=r.gpus,
        gpus_per_node=min(r.gpus, gpu.max_gpus_per_node),
        hopper_on=generation_of(gpu) in ("hopper", "blackwell"),
        sharding=par.sharding,
        tensor_parallel=par.tensor_parallel,
        pipeline_stages=par.pipeline_stages,
        pipeline_micro_batches=par.pipeline_micro_batches,
        virtual_stages=par.virtual_stages,
        total_params=r.model.params_b * 1e9,
        weight_bytes=QLORA_WEIGHT_BYTES if r.method == "qlora" else BF16_WEIGHT_BYTES,
        tokens_per_micro_batch=tokens_per_micro_batch,
        gradient_accumulation_steps=par.gradient_accumulation_steps,
        framework=row_framework(r),
    )
    return None if limits.comm_cap is None else (limits.comm_cap, limits.comm_exposed)


ADAPTER_METHODS = ("lora", "qlora")


PAGED_STATE_BYTES_PER_PARAM = 4.0
"""The least GPU memory per parameter a full fine-tune holds without paging or offloading: BF16 weights (2 B)
and 8-bit Adam's two moments (1 B each; Dettmers et al. 2022, 8-bit Optimizers via Block-wise Quantization),
gradients freed in the backward (optimizer-in-backward). A one-GPU full row above the GPU's usable memory
pages its optimizer states to the host (bitsandbytes paged optimizers: unified-memory page transfers when
the GPU runs out; torchtune's single-device full recipe on a 24 GB RTX 4090, Llama 3.1 8B)."""


def _full_state_paged(fr: FitRow, usable_memory_gib: dict[str, float]) -> bool:
    """A one-GPU full/pretraining row whose weights and least optimizer states exceed the GPU: its step
    includes host-device paging, so it does not measure full training's compute against LoRA's."""
    r = fr.row
    if r.method in ADAPTER_METHODS or r.gpus > 1:
        return False
    state_gib = r.model.params_b * 1e9 * PAGED_STATE_BYTES_PER_PARAM / 2**30
    return state_gib > usable_memory_gib.get(r.gpu, float("inf"))


def _adapter_over_full(rows: list[FitRow], usable_memory_gib: dict[str, float] | None = None) -> float | None:
    """Median over matched set-ups of LoRA MFU / full-or-pretraining MFU (dense rows). A pair is one source
    family's LoRA and full rows of the same model on the same GPU, GPU count, precision and sequence length,
    so the ratio is the method's alone: a cell median (before tim8) mixed a 70B LoRA on 8 GPUs with a 7B
    full run on 64 and read their size and scale as LoRA's. A full row that pages its optimizer states
    (_full_state_paged, `usable_memory_gib` by GPU id) is no pair. Each set-up's ratio is its medians'
    ratio; the median over set-ups (None: no such pair). LoRA skips only the weight-gradient GEMMs (4N of
    6N: the backward still computes activation gradients through the frozen weights; Hu et al. 2021, LoRA,
    sec. 4.2 measured 1.25x the full fine-tune's speed on GPT-3 175B, i.e. 0.83 on this 4N/6N scale)."""
    cells: dict[tuple[object, ...], tuple[list[float], list[float]]] = {}
    for fr in rows:
        if fr.row.model.moe or fr.row.method == "qlora" or _full_state_paged(fr, usable_memory_gib or {}):
            continue
        r = fr.row
        key = (_stack(fr), r.family, r.model.name, r.gpu, r.gpus, fr.precision, r.seq_len)
        lora, full = cells.setdefault(key, ([], []))
        (lora if r.method == "lora" else full).append(fr.mfu)
    ratios = [statistics.median(lo) / statistics.median(fu) for lo, fu in cells.values() if lo and fu]
    return statistics.median(ratios) if ratios else None


ADAPTER_PAIR_FRAMEWORKS = ("hf",)
"""Frameworks whose LoRA/full factor is fitted apart from the pooled one (_framework_adapter_over_full): a
plain transformers + PEFT loop runs its unfused adapters (dropout, A, B and the add per projection) at
~0.6-0.7 of full fine-tuning's MFU, where NeMo's fused LoRA (the pooled pairs) runs at ~1.06
(bench/data/README.md, tim14)."""


def _precision_regime(r: TrainingRow) -> str:
    """'mixed' (FP32 master weights, autocast) or 'pure' 16-bit, from the device rows' framework_detail."""
    return "mixed" if "mixed" in (r.framework_detail or "") else "pure"


def _framework_adapter_over_full(rows: list[FitRow], framework: str) -> float | None:
    """LoRA MFU / full MFU of `framework` on matched set-ups of the adapter-pair rows (bench/time_fit.py's
    ADAPTER_PAIR_FILES: this repository's device and device2 measurements, one script on one H200): the same
    model, GPU, GPU count, precision and precision regime (pure 16-bit or mixed) and sequence; full recompute
    already taken out. Each set-up's ratio is its medians' ratio; the median over set-ups (None: no pair)."""
    cells: dict[tuple[object, ...], tuple[list[float], list[float]]] = {}
    for fr in rows:
        r = fr.row
        if fr.framework != framework or r.model.moe or r.method not in ("lora", "full"):
            continue
        key = (r.model.name, r.gpu, r.gpus, fr.precision, _precision_regime(r), r.seq_len)
        lora, full = cells.setdefault(key, ([], []))
        (lora if r.method == "lora" else full).append(fr.mfu)
    ratios = [statistics.median(lo) / statistics.median(fu) for lo, fu in cells.values() if lo and fu]
    return statistics.median(ratios) if ratios else None


def _full_recompute_factor(rows: list[FitRow]) -> float | None:
    """Median full-recompute MFU / median no-recompute MFU (checkpointing stated off) within each stack x
    generation x precision publishing both (dense rows); the median over those cells (None: none)."""
    cells: dict[tuple[str, str, str], tuple[list[float], list[float]]] = {}
    for fr in rows:
        if fr.row.model.moe or fr.row.method == "qlora":
            continue
        full, none = cells.setdefault((_stack(fr), fr.generation, fr.precision), ([], []))
        if row_full_recompute(fr.row):
            full.append(fr.mfu)
        elif fr.row.gradient_checkpointing is False:
            none.append(fr.mfu)
    ratios = [statistics.median(fu) / statistics.median(no) for fu, no in cells.values() if fu and no]
    return statistics.median(ratios) if ratios else None


# Routing scales tried (log-spaced, 1e-5 .. 1e-2 elements per parameter), and the relative improvement below
# which a smaller scale (a stronger routing term) is not taken
ROUTING_SCALES = tuple(10 ** (-5 + i / 20) for i in range(61))
ROUTING_SCATTER_TOLERANCE = 1e-3


def _log_mad(values: list[float]) -> float:
    logs = [math.log(v) for v in values]
    mid = statistics.median(logs)
    return statistics.median(abs(v - mid) for v in logs)


def moe_routing_scale(ratios: list[tuple[float, float]]) -> float | None:
    """The routing scale s that makes the MoE rows' ratio x (1 + x / s) scatter least: median absolute
    deviation in log space, robust to the one or two rows that set a min..max range (ratios: (MoE MFU / dense
    middle, routing intensity x)). Scales where every row would sit above the dense middle at no routing
    (MOE_FACTOR_CEILING) are not tried; ties (within ROUTING_SCATTER_TOLERANCE) go to the larger s, the weaker
    term. None when fewer than two routing intensities are known or no scale lowers the raw scatter."""
    if len({x for _, x in ratios}) < 2:
        return None
    best: float | None = None
    best_scatter = _log_mad([r for r, _ in ratios])
    for scale in sorted(ROUTING_SCALES, reverse=True):
        normalised = [r * (1.0 + x / scale) for r, x in ratios]
        if min(normalised) > MOE_FACTOR_CEILING:
            break  # the term would explain more than the rows lose
        if _log_mad(normalised) < best_scatter * (1.0 - ROUTING_SCATTER_TOLERANCE):
            best, best_scatter = scale, _log_mad(normalised)
    return best
