"""Fit the training-time efficiency constants (tools/compute/efficiency.py) on the FIT rows only.

Rows are bench/data/training_throughput.yaml restricted to the `fit` families of its split. For each
row the published tokens/s/GPU is turned into an MFU with the same FLOPs count the estimate uses
(tools.compute.flops: k x N_active + the attention term; recompute NOT counted, because the published
throughputs already pay for it) over the same peak (FP8 rows: attention at the BF16 peak, blended).
Then, in this order:

1. small-batch and QLoRA factors are taken out (their constants are fitted from the Qwen single-GPU pair);
2. dense rows give the framework anchors: median MFU per (framework, generation, precision) cell, and
   the generic anchors: median per (generation, precision) over every framework;
3. the generation ratios (hopper / ampere from llm-foundry, which has both; blackwell / hopper from
   Megatron-Bridge, which has both) and the MoE factor (MoE MFU / the dense anchor of its cell);
4. the band half-widths: the 90th percentile of |log(MFU / anchor)| over the fit rows, for the
   framework anchors and for the generic ones.

Prints the constants; tools/compute/efficiency.py holds the values with this script as their source, and
tests/compute/test_time_calibration.py checks that the two agree. Held-out rows are never read here.

Run: .venv/bin/python bench/time_fit.py
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass

from bench.calibration_data import TrainingRow, load_training_rows, load_training_split, rows_in
from bench.time_rows import row_attention, row_generation, row_parallel, row_precision
from tools.catalog.load import load_catalog
from tools.catalog.schema import GpuSpec
from tools.compute.efficiency import generation_of, small_batch_factor
from tools.compute.flops import (
    FLOPS_PER_PARAM_TOKEN_ADAPTER,
    FLOPS_PER_PARAM_TOKEN_FULL,
    attention_flops,
    blended_peak_tflops,
)
from tools.compute.flops import peak_tflops as _peak
from tools.compute.parallel import (
    comm_cap_tokens_per_s,
    fsdp_bytes_per_param,
    pipeline_efficiency_range,
    ring_bus_bandwidth_gb_per_s,
)
from tools.compute.training import BF16_WEIGHT_BYTES, QLORA_WEIGHT_BYTES
from tools.units import tflops_to_flops


@dataclass(frozen=True)
class FitRow:
    row: TrainingRow
    mfu: float
    """published tokens/s/GPU x FLOPs per token / peak, small-batch factor taken out"""
    framework: str
    generation: str
    precision: str
    comm_headroom: float | None
    """the comm cap's optimistic end / the published tokens/s (FSDP rows); below 1 = comm-bound"""


def _comm_headroom(r: TrainingRow, gpu: GpuSpec, tokens_per_micro_batch: int) -> float | None:
    """How far the published rate sits below the FSDP gather cap (None: no gathers, or MoE)."""
    par = row_parallel(r)
    dp = r.gpus // (par.tensor_parallel * par.pipeline_stages)
    if par.sharding is None or r.model.moe or dp <= 1 or r.tokens_per_s_per_gpu is None:
        return None
    bus = ring_bus_bandwidth_gb_per_s(
        gpu=gpu,
        n_gpus=r.gpus,
        gpus_per_node=min(r.gpus, gpu.max_gpus_per_node),
        generation_hopper_on=generation_of(gpu) in ("hopper", "blackwell"),
    )
    weight_bytes = QLORA_WEIGHT_BYTES if r.method == "qlora" else BF16_WEIGHT_BYTES
    cap = comm_cap_tokens_per_s(
        tokens_per_micro_batch=tokens_per_micro_batch,
        bus_gb_per_s=bus.high,
        bytes_per_param=fsdp_bytes_per_param(method=r.method, weight_bytes=weight_bytes),
        total_params=r.model.params_b * 1e9,
        dp=dp,
    )
    return None if cap is None else cap / r.tokens_per_s_per_gpu


def _fit_rows() -> list[FitRow]:
    gpus = {g.id: g for g in load_catalog().gpus}
    out: list[FitRow] = []
    for r in rows_in(load_training_rows(), load_training_split().fit):
        if r.tokens_per_s_per_gpu is None:
            continue
        gpu = gpus[r.gpu]
        prec = row_precision(r)
        active = (r.model.active_params_b or r.model.params_b) * 1e9
        k = FLOPS_PER_PARAM_TOKEN_ADAPTER if r.method in ("lora", "qlora") else FLOPS_PER_PARAM_TOKEN_FULL
        layers, width = row_attention(r)
        seq = r.seq_len or 0
        attn = attention_flops(n_layers=layers, attention_width=width, seq_len=seq)
        peak = tflops_to_flops(  # FP8: attention at the BF16 peak, as the estimate does
            blended_peak_tflops(
                precision_peak_tflops=_peak(gpu=gpu, precision=prec),
                bf16_peak_tflops=_peak(gpu=gpu, precision="bf16"),
                dense_flops=k * active,
                attention_flops=attn,
            )
        )
        per_token = k * active + attn
        mfu = r.tokens_per_s_per_gpu * per_token / peak
        par = row_parallel(r)
        mb_seqs = par.tokens_per_micro_batch_sequences or 1
        mfu /= small_batch_factor(tokens_per_micro_batch=mb_seqs * seq)
        if par.pipeline_stages > 1:  # the bubble is charged apart, so it comes out of the band
            mfu /= pipeline_efficiency_range(
                stages=par.pipeline_stages,
                micro_batches=par.pipeline_micro_batches,
                virtual_stages=par.virtual_stages,
            ).mid
        out.append(
            FitRow(r, mfu, r.framework, row_generation(gpu), prec, _comm_headroom(r, gpu, mb_seqs * seq))
        )
    return out


def _median_by(rows: list[FitRow], key: tuple[str, ...]) -> dict[tuple[str, ...], float]:
    groups: dict[tuple[str, ...], list[float]] = {}
    for fr in rows:
        k = tuple(getattr(fr, name) for name in key)
        groups.setdefault(k, []).append(fr.mfu)
    return {k: statistics.median(v) for k, v in groups.items()}


def _q90_abs_log(ratios: list[float]) -> float:
    logs = sorted(abs(math.log(x)) for x in ratios)
    idx = min(len(logs) - 1, math.ceil(0.9 * len(logs)) - 1)
    return math.exp(logs[idx])


def fit() -> dict[str, object]:
    """The fitted constants, by name (see the module docstring for the order)."""
    rows = _fit_rows()
    dense = [fr for fr in rows if not fr.row.model.moe and fr.row.method != "qlora"]
    fw_anchor = _median_by(
        [fr for fr in dense if fr.framework != "other"], ("framework", "generation", "precision")
    )
    generic = _median_by(dense, ("generation", "precision"))
    foundry = [fr for fr in dense if fr.row.family == "llm-foundry-mpt" and fr.precision == "bf16"]
    by_gen = _median_by(foundry, ("generation",))
    hopper_over_ampere = by_gen[("hopper",)] / by_gen[("ampere",)]
    mb = [fr for fr in dense if fr.framework == "megatron"]
    mb_gen = _median_by(mb, ("generation",))
    blackwell_over_hopper = mb_gen[("blackwell",)] / mb_gen[("hopper",)]
    qlora = [fr for fr in rows if fr.row.method == "qlora"]
    qlora_slowdown = [fw_anchor[(fr.framework, fr.generation, fr.precision)] / fr.mfu for fr in qlora]
    moe = [fr for fr in rows if fr.row.model.moe]
    moe_ratio = []
    for fr in moe:
        anchor = fw_anchor.get((fr.framework, fr.generation, "fp8"))
        if anchor is None:  # Megatron dense rows are FP8 only; B200 BF16 MoE uses the FP8 anchor
            anchor = fw_anchor[(fr.framework, "hopper", "fp8")]
        moe_ratio.append(fr.mfu / anchor)
    fw_resid = [
        fr.mfu / fw_anchor[(fr.framework, fr.generation, fr.precision)]
        for fr in dense
        if fr.framework != "other"
    ]
    gen_resid = [fr.mfu / generic[(fr.generation, fr.precision)] for fr in dense]
    return {
        "framework_anchor": {"/".join(k): round(v, 3) for k, v in sorted(fw_anchor.items())},
        "generic_anchor": {"/".join(k): round(v, 3) for k, v in sorted(generic.items())},
        "hopper_over_ampere": round(hopper_over_ampere, 3),
        "blackwell_over_hopper": round(blackwell_over_hopper, 3),
        "qlora_slowdown": [round(x, 3) for x in qlora_slowdown],
        "moe_factor_range": (round(min(moe_ratio), 3), round(max(moe_ratio), 3)),
        "framework_half_width": round(_q90_abs_log(fw_resid), 3),
        "generic_half_width": round(_q90_abs_log(gen_resid), 3),
        "rows": len(rows),
        # FSDP fit rows whose published rate the gather cap would forbid (must stay 0: the cap may only
        # bind where the fit rows say nothing), and the smallest headroom over the cap
        "comm_bound_fit_rows": sum(1 for fr in rows if fr.comm_headroom is not None and fr.comm_headroom < 1),
        "min_comm_headroom": round(min(fr.comm_headroom for fr in rows if fr.comm_headroom is not None), 2),
    }


def main() -> int:
    for name, value in fit().items():
        if isinstance(value, dict):
            print(f"{name}:")
            for k, v in value.items():
                print(f"  {k:28s} {v}")
        else:
            print(f"{name:28s} {value}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
