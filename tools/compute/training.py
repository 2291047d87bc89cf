"""Training compute and time (tools.compute.estimate_training_time's model):

    flops_per_token = k x N_active + 12 x layers x attention width x seq_len   (model FLOPs; context beyond
                      8,192 tokens at 6 x, the causal count: tools.compute.flops.ATTENTION_CALIBRATED_SEQ_LEN)
                      k = 6 full / pretraining, 4 LoRA / QLoRA; recompute is NOT added to the FLOPs:
                      full recompute is the MFU factor FULL_RECOMPUTE_FACTOR (counted once)
    mfu             = band(GPU generation x precision x framework)   (tools.compute.efficiency)
    throughput_eff  = mfu x small_batch x recompute x moe / expert_imbalance / qlora_slowdown x scaling
                      x pipeline, capped or slowed by the collectives (tools.compute.parallel)
                      x padding efficiency on unpacked data (tools.compute.padding); per-step times added
                      (optimizer update, eager attention, transformers' MoE loop: tools.compute.moe_loop)
    tokens/s/GPU    = throughput_eff x peak_flops / flops_per_token
    gpu_hours       = flops / (peak_flops x throughput_eff x goodput) / 3600
    wall_hours      = gpu_hours / n_gpus
    gpu_hours_at_peak = flops / peak_flops / 3600   (seed 001's figure: MFU = 100%, a lower bound)
    peak_flops      = the compute precision's dense peak; with FP8 the attention term runs at the BF16
                      peak (FP8 recipes convert linear layers only): a harmonic blend of the two

Each factor is a named, sourced constant (here, in tools.compute.efficiency or tools.compute.flops).
Ranges are low-high; the low end of a time is the high end of an efficiency.
"""

from __future__ import annotations

import math

from tools.catalog.schema import GpuSpec, ModelArch, ScaleOut
from tools.compute.attention_eager import with_eager_attention
from tools.compute.efficiency import (
    CALIBRATION,
    EXPERT_IMBALANCE_SLOWDOWN,
    EXPERT_IMBALANCE_SOURCE,
    FULL_RECOMPUTE_SOURCE,
    HALF_WIDTH_SOURCE,
    MOE_FACTOR_CEILING,
    MOE_FACTOR_SOURCE,
    MOE_ROUTING_SOURCE,
    QLORA_DEQUANT_SLOWDOWN,
    QLORA_DEQUANT_SLOWDOWN_SOURCE,
    SMALL_BATCH_SOURCE,
    Calibration,
    efficiency_band,
    generation_of,
    moe_routing_factor,
    moe_routing_intensity,
    routing_ridge_ratio,
    small_batch_factor,
)
from tools.compute.flops import (
    attention_flops,
    attention_width,
    blended_peak_tflops,
    check_positive,
    check_training_method,
    flops_factor_step,
    gpu_class_of,
    peak_tflops,
)
from tools.compute.moe_loop import EAGER_MOE_FRAMEWORKS, with_moe_loop
from tools.compute.optimizer_update import with_optimizer_update
from tools.compute.padding import (
    PADDING_SOURCE,
    UNSTATED_LENGTHS,
    UNSTATED_MAX_TOKENS,
    SampleLengths,
    padding,
)
from tools.compute.parallel import parallel_limits
from tools.compute.training_inputs import (
    HINT_FABRIC,
    HINT_FRAMEWORK,
    HINT_GATHERS,
    HINT_MICRO_BATCH,
    HINT_ORDER,
    HINT_SEQ_LEN,
    PRETRAINING_GOODPUT,
    PRETRAINING_GOODPUT_SOURCE,
    SEQUENCE_PACKING_SOURCE,
    checked_framework,
    gather_tokens_per_micro_batch,
)
from tools.compute.training_result import TrainingTime as TrainingTime  # re-exported: its home until tim8
from tools.compute.training_result import either_end
from tools.compute.training_scaling import BF16_WEIGHT_BYTES, QLORA_WEIGHT_BYTES, scaling_efficiency_for
from tools.errors import InputError
from tools.preference import with_reference_forward
from tools.ranges import Range
from tools.trace import TraceBuilder, UntracedBuilder
from tools.units import seconds_to_hours, tflops_to_flops
from tools.vocabulary import (
    BATCH_SIZE_DEFAULT,
    Framework,
    Precision,
    Sharding,
    TrainingMethod,
    TrainingPrecision,
)

_UNITY = Range(low=1.0, high=1.0)
"""The factor 1 as a range (no goodput loss, no slowdown, one GPU): frozen, so shared."""


def estimate_training_time(
    *,
    active_params: float,
    tokens: float,
    method: TrainingMethod,
    grad_checkpointing: bool,
    gpu: GpuSpec,
    n_gpus: int,
    precision: Precision = "bf16",
    mfu_range: Range | None = None,
    flops_factor: float | None = None,
    gpus_per_node: int | None = None,
    scale_out: ScaleOut = "infiniband",
    scaling_efficiency: Range | None = None,
    qlora_slowdown: Range | None = None,
    arch: ModelArch | None = None,
    seq_len: int | None = None,
    framework: Framework | None = None,
    batch_size: int | None = None,
    attention_shape: tuple[int, int] | None = None,
    moe: bool | None = None,
    moe_balanced_routing: bool = False,
    moe_routed_elems_per_param: float | None = None,
    moe_layout: tuple[int, int, int] | None = None,
    sharding: Sharding | None = None,
    tensor_parallel: int = 1,
    pipeline_stages: int = 1,
    pipeline_micro_batches: int | None = None,
    virtual_stages: int = 1,
    total_params: float | None = None,
    gradient_accumulation_steps: int = 1,
    packed: bool = True,
    sample_lengths: SampleLengths | None = None,
    traced: bool = True,
    calibration: Calibration = CALIBRATION,
    training_objective: str | None = None,
    precompute_ref_log_probs: bool = False,
    flash_attention: bool = True,
    attention_heads: int | None = None,
    training_precision: TrainingPrecision | None = None,
) -> TrainingTime:
    """GPU-hours, wall-clock hours and tokens/s per GPU of a training run, as Ranges, plus seed 001's
    100%-MFU bound.

    active_params: parameters used per token (MoE: active, not total). tokens: dataset tokens x
    epochs. flops_factor overrides k (seed 001 uses 6 even for QLoRA). With `arch` (or
    `attention_shape` = (layers, attention width)) and `seq_len` the PaLM attention term is added.
    `framework` picks the framework's fitted band (None or no calibration row: the generic band, said
    so). `batch_size`: micro-batch per GPU, sequences (small ones run below the band).
    `grad_checkpointing` (full recompute of every layer) keeps FULL_RECOMPUTE_FACTOR of the MFU: the
    bands are MFUs without it, and recompute is never added to the FLOPs. `moe`
    (default: from `arch`) applies the MoE factor, and the expert-imbalance slowdown unless
    `moe_balanced_routing`, scaled by the routing traffic (efficiency.moe_routing_factor;
    `moe_routed_elems_per_param` = k x hidden x MoE layers / active params, default from `arch`).
    Parallelism (tools.compute.parallel): `pipeline_stages` > 1 charges the
    pipeline bubble (for `pipeline_micro_batches` per step, else 4-8 per stage; `virtual_stages` for
    interleaved schedules); `sharding` zero3/fsdp caps tokens/s at what the weight gathers over the
    link allow (dense models; `total_params` gathered, default `active_params`); `sharding` ddp /
    zero1 / zero2 synchronise the gradients once per optimizer step (`gradient_accumulation_steps`
    micro-batches), zero1/zero2 with the step waiting for it. `packed=False`: each micro-batch is
    padded to its longest sample (tools.compute.padding), from `sample_lengths` (else either end of
    the published instruction sets); `seq_len` is then the truncation length and tokens/s counts
    the samples' tokens, not the padding. `traced=False`: the same numbers with an empty trace and no
    assumptions. `calibration`: the fitted constants (bench/time_fit.py's cross-validation passes each
    fold's refit). `training_objective`, `precompute_ref_log_probs`: tools.preference (DPO's reference).
    Full/pretraining with a stated `batch_size`: the optimizer update's time per step is added
    (tools.compute.optimizer_update; `training_precision` pure-bf16 / pure-fp16: no FP32 master, half the
    bytes; None or mixed: 28 B/param).
    `flash_attention=False`: eager attention's score traffic is added (tools.compute.attention_eager; heads
    from `arch`, else `attention_heads`). MoE on transformers' modules (moe_loop.EAGER_MOE_FRAMEWORKS): the
    expert loop's host time is added (tools.compute.moe_loop; `moe_layout` = (experts, experts per token, MoE
    layers), default from `arch`).
    """
    if not packed and sample_lengths is None:
        args = dict(locals())
        ends = [estimate_training_time(**{**args, "sample_lengths": lengths}) for lengths in UNSTATED_LENGTHS]
        return either_end(ends)
    method = check_training_method(method)
    framework = checked_framework(framework)
    check_positive(active_params=active_params, tokens=tokens)
    if not isinstance(n_gpus, int) or n_gpus < 1:
        raise InputError(f"n_gpus must be a whole number >= 1, got {n_gpus!r}")
    if batch_size is not None and (not isinstance(batch_size, int) or batch_size < 1):
        raise InputError(f"batch_size must be a whole number >= 1, got {batch_size!r}")
    per_node = gpus_per_node or min(n_gpus, gpu.max_gpus_per_node)
    if per_node < 1:
        raise InputError(f"gpus_per_node must be >= 1, got {gpus_per_node!r}")
    tb = TraceBuilder() if traced else UntracedBuilder()
    narrowing: list[str] = []  # inputs the user can state, most telling first (sorted at the end)
    measure = "time one training step on your set-up: its tokens/s per GPU replaces the estimate"

    k = flops_factor_step(tb, method, flops_factor)
    pad = None
    computed_seq: float | None = seq_len
    if not packed:
        if sample_lengths is None:  # handled above: either end of UNSTATED_LENGTHS
            raise InputError("unpacked data needs sample lengths")
        max_tokens = seq_len or UNSTATED_MAX_TOKENS
        samples = batch_size or BATCH_SIZE_DEFAULT
        pad = padding(lengths=sample_lengths, samples_per_micro_batch=samples, max_tokens=max_tokens)
        computed_seq = pad.padded_tokens_per_sample
        tb.assume("sequence_packing", "no: each micro-batch padded to its longest sample", "", PADDING_SOURCE)
        tb.assume(
            "sample_tokens",
            f"mean {sample_lengths.mean_tokens:.0f}, sd {sample_lengths.sd_tokens:.0f}, "
            f"truncated at {max_tokens}",
            "tokens",
            sample_lengths.source,
        )
        tb.step(
            "padded_tokens_per_sample",
            "E[min(longest of the micro-batch, max_tokens)] (log-normal lengths)",
            pad.padded_tokens_per_sample,
            "tokens",
            PADDING_SOURCE,
            samples_per_micro_batch=samples,
            useful_tokens_per_sample=pad.useful_tokens_per_sample,
            padding_efficiency=pad.efficiency,
        )
    elif method != "pretraining":
        tb.assume("sequence_packing", "samples packed into full sequences", "", SEQUENCE_PACKING_SOURCE)
    per_token = tb.step(
        "dense_flops_per_token",
        "k x N_active",
        k * active_params,
        "FLOPs/token",
        k=k,
        active_params=active_params,
    )
    dense_per_token, attn = per_token, 0.0
    shape = (arch.n_layers, attention_width(arch)) if arch is not None else attention_shape
    if shape is not None and computed_seq is not None:
        check_positive(seq_len=computed_seq)
        attn = attention_flops(n_layers=shape[0], attention_width=shape[1], seq_len=computed_seq,
            causal_kernel=flash_attention)  # fmt: skip
        per_token = tb.step(
            "flops_per_token",
            "k x N_active + 12 x layers x attn_width x min(seq_len, 8192) (+ 6 x ... x the rest: causal)",
            per_token + attn,
            "FLOPs/token",
            "PaLM (Chowdhery et al. 2022) App. B; causal FLOPs beyond the calibrated 8,192 (FlashAttention)",
            attention_flops_per_token=attn,
            seq_len=computed_seq,
        )
    elif shape is not None:
        narrowing.append(HINT_SEQ_LEN)
    per_token, dense_per_token, attn = with_reference_forward(tb, training_objective,
        precompute_ref_log_probs, active_params=active_params, per_token=per_token, dense=dense_per_token,
        attention=attn)  # fmt: skip
    flops = tb.step(
        "training_flops",
        "flops_per_token x tokens",
        per_token * tokens,
        "FLOPs",
        flops_per_token=per_token,
        tokens=tokens,
    )

    peak = peak_tflops(gpu=gpu, precision=precision, tb=tb)
    bf16_peak = peak_tflops(gpu=gpu, precision="bf16")
    if attn > 0 and peak != bf16_peak:
        peak = tb.step(
            "blended_peak_tflops",
            "(dense + attn) / (dense / precision_peak + attn / bf16_peak): FP8 runs the linear layers only",
            blended_peak_tflops(
                precision_peak_tflops=peak,
                bf16_peak_tflops=bf16_peak,
                dense_flops=dense_per_token,
                attention_flops=attn,
            ),
            "TFLOPS",
            "torchao convert_to_float8_training (nn.Linear only); TE FP8 keeps attention in BF16",
            precision_peak_tflops=peak,
            bf16_peak_tflops=bf16_peak,
            dense_flops_per_token=dense_per_token,
            attention_flops_per_token=attn,
        )
    peak_flops = tflops_to_flops(peak)
    at_peak = tb.step(
        "gpu_hours_at_peak",
        "flops / (peak_flops x 3600)",
        seconds_to_hours(flops / peak_flops),
        "GPU-hours",
        "seed 001: divides by peak (MFU = 100%): theoretical lower bound",
        flops=flops,
        peak_tflops=peak,
    )

    used_framework: Framework | None = None
    gpu_measured = True  # the GPU type has published throughputs behind its band
    if mfu_range is None:
        band = efficiency_band(gpu=gpu, precision=precision, framework=framework, calibration=calibration)
        mfu, used_framework = band.mfu, band.framework
        tb.assume("mfu_band", f"{mfu.low:.2f}-{mfu.high:.2f} ({band.how})", "fraction of peak", band.source)
        if band.width_capped:
            tb.assume(
                "mfu_band_width",
                "held at its cap (1.5x wide with a framework, 2x generic): new sources scatter wider in CV",
                "",
                HALF_WIDTH_SOURCE,
            )
        if framework is None:
            tb.assume("framework", "not given: generic band (every calibrated stack pooled)", "", band.source)
            narrowing.append(HINT_FRAMEWORK)
        elif used_framework is None and band.calibrated:
            tb.assume(
                "framework",
                f"{framework}: no published throughput in the calibration set, generic band used",
                "",
                band.source,
            )
            measure = f"time one training step with {framework}: no published measurement of it here"
        gpu_measured = band.calibrated
        if not gpu_measured:
            measure = f"time one training step on {gpu.name}: no published measurement of this GPU here"
    else:
        if not (mfu_range.low > 0 and mfu_range.high <= 1):
            raise InputError(f"mfu_range must lie in (0, 1], got {mfu_range.low}-{mfu_range.high}")
        mfu = mfu_range
        tb.assume("mfu", f"{mfu.low:.2f}-{mfu.high:.2f}", "fraction of peak", "caller")

    factor = _UNITY
    if mfu_range is None and computed_seq is not None:
        mb = batch_size or BATCH_SIZE_DEFAULT
        small = small_batch_factor(
            tokens_per_micro_batch=round(mb * computed_seq), exponent=calibration.small_batch_exponent
        )
        if batch_size is None:
            narrowing.append(HINT_MICRO_BATCH)
        if small < 1.0:
            tb.assume(
                "small_batch_factor",
                f"{small:.2f} ({mb} x {computed_seq:.0f} tokens per micro-batch)",
                "x MFU",
                SMALL_BATCH_SOURCE,
            )
            factor = factor.scale(small)
    if mfu_range is None and grad_checkpointing and flops_factor is None:
        # recompute counted once: as the MFU a full-recompute run keeps, never as FLOPs
        tb.assume(
            "full_activation_recompute",
            f"{calibration.full_recompute_factor:.2f}",
            "x MFU",
            FULL_RECOMPUTE_SOURCE,
        )
        factor = factor.scale(calibration.full_recompute_factor)
    adapter, adapter_source = calibration.adapter_factor(used_framework)
    if mfu_range is None and method in ("lora", "qlora") and adapter != 1.0:
        tb.assume("adapter_over_full", f"{adapter:.2f}", "x dense MFU", adapter_source)
        factor = factor.scale(adapter)
    is_moe = moe if moe is not None else (arch is not None and arch.is_moe)
    if is_moe and mfu_range is None:
        imbalance = _UNITY if moe_balanced_routing else EXPERT_IMBALANCE_SLOWDOWN
        if moe_routed_elems_per_param is None and arch is not None and arch.is_moe and arch.n_active_experts:
            moe_routed_elems_per_param = moe_routing_intensity(
                hidden_size=arch.hidden_size,
                experts_per_token=arch.n_active_experts,
                moe_layers=arch.n_layers - arch.first_dense_layers,
                active_params=active_params,
            )
        routing, moe_f = 1.0, calibration.moe_factor  # expert layout unknown: the rows' raw spread
        if moe_routed_elems_per_param is not None and calibration.moe_factor_no_routing is not None:
            # the traffic weighs more on a GPU of more FLOP/byte; the factor is at most the dense middle
            ridge = routing_ridge_ratio(gpu, precision)
            routing = moe_routing_factor(moe_routed_elems_per_param * ridge, calibration.moe_routing_scale)
            scaled = calibration.moe_factor_no_routing.scale(routing)
            moe_f = Range(low=min(scaled.low, MOE_FACTOR_CEILING), high=min(scaled.high, MOE_FACTOR_CEILING))
        factor = Range(
            low=factor.low * moe_f.low / imbalance.high, high=factor.high * moe_f.high / imbalance.low
        )
        tb.assume("moe_factor", f"{moe_f.low:.2f}-{moe_f.high:.2f}", "x dense MFU", MOE_FACTOR_SOURCE)
        if moe_f is not calibration.moe_factor:
            tb.assume(
                "moe_routing_factor", f"{routing:.2f}", "x MoE factor at no routing", MOE_ROUTING_SOURCE
            )
        if not moe_balanced_routing:
            tb.assume(
                "expert_imbalance_slowdown",
                f"{imbalance.low:.2f}-{imbalance.high:.2f}",
                "x time",
                EXPERT_IMBALANCE_SOURCE,
            )
        if gpu_measured:
            measure = "time one training step: MoE grouped GEMMs, all-to-all and routing balance vary most"

    if scaling_efficiency is None:
        scaling, used = scaling_efficiency_for(
            gpu=gpu, n_gpus=n_gpus, gpus_per_node=per_node, scale_out=scale_out, method=method
        )
        for name, value, source in used:
            tb.assume(name, value, "fraction", source)
        if n_gpus > per_node and scale_out not in ("infiniband", "roce"):
            narrowing.append(HINT_FABRIC)
    else:
        scaling = scaling_efficiency
        tb.assume("scaling_efficiency", f"{scaling.low}-{scaling.high}", "fraction", "caller")
    tb.step(
        "scaling_efficiency",
        "throughput(n) / (n x throughput(1))",
        scaling.mid,
        "fraction",
        n_gpus=n_gpus,
        gpus_per_node=per_node,
        scale_out=scale_out,
        low=scaling.low,
        high=scaling.high,
    )

    goodput = _UNITY
    if method == "pretraining":
        goodput = PRETRAINING_GOODPUT
        tb.assume(
            "pretraining_goodput", f"{goodput.low}-{goodput.high}", "fraction", PRETRAINING_GOODPUT_SOURCE
        )
    slowdown = _UNITY
    if method == "qlora":
        slowdown = qlora_slowdown or QLORA_DEQUANT_SLOWDOWN
        tb.assume(
            "qlora_dequant_slowdown",
            f"{slowdown.low}-{slowdown.high}",
            "x LoRA time",
            QLORA_DEQUANT_SLOWDOWN_SOURCE if qlora_slowdown is None else "caller",
        )

    limits = parallel_limits(
        tb=tb,
        gpu=gpu,
        method=method,
        n_gpus=n_gpus,
        gpus_per_node=per_node,
        hopper_on=generation_of(gpu) in ("hopper", "blackwell"),
        sharding=None if is_moe else sharding,  # MoE: experts stay on their EP ranks, not gathered
        tensor_parallel=tensor_parallel,
        pipeline_stages=pipeline_stages,
        pipeline_micro_batches=pipeline_micro_batches,
        virtual_stages=virtual_stages,
        total_params=total_params or active_params,
        weight_bytes=QLORA_WEIGHT_BYTES if method == "qlora" else BF16_WEIGHT_BYTES,
        tokens_per_micro_batch=gather_tokens_per_micro_batch(batch_size, computed_seq),
        gradient_accumulation_steps=gradient_accumulation_steps,
        framework=framework,
    )
    pipe, cap = limits.pipeline, limits.comm_cap
    thr = Range(
        low=mfu.low * factor.low * scaling.low * pipe.low / slowdown.high,
        high=mfu.high * factor.high * scaling.high * pipe.high / slowdown.low,
    )
    tb.step(
        "throughput_efficiency",
        "mfu x small_batch x moe / imbalance x scaling x pipeline / qlora_slowdown",
        thr.mid,
        "fraction",
        mfu_low=mfu.low,
        mfu_high=mfu.high,
        factor_low=factor.low,
        factor_high=factor.high,
        pipeline_low=pipe.low,
        pipeline_high=pipe.high,
        slowdown_low=slowdown.low,
        slowdown_high=slowdown.high,
        low=thr.low,
        high=thr.high,
    )
    if cap is not None and limits.comm_exposed:
        # the step waits for the optimizer step's collectives: times add, rates combine harmonically
        thr = Range(
            low=1.0 / (1.0 / thr.low + peak_flops / (cap.low * per_token)),
            high=1.0 / (1.0 / thr.high + peak_flops / (cap.high * per_token)),
        )
        tb.step(
            "throughput_efficiency_with_step_sync",
            "1 / (1 / throughput_efficiency + peak_flops / (comm_cap x flops_per_token))",
            thr.mid,
            "fraction",
            low=thr.low,
            high=thr.high,
        )
        if cap.low * per_token / peak_flops < thr.high:
            narrowing.append(HINT_GATHERS)
    elif cap is not None and cap.low * per_token / peak_flops < thr.high:
        # the weight gathers take longer than the compute: the step waits for the link. With no
        # stated micro-batch (the default 1 sequence is the memory plan's floor, a run is free to
        # take more) only the slow end is capped: the range widens instead of moving.
        high_cap = cap.high if batch_size is not None else math.inf
        thr = Range(
            low=min(thr.low, cap.low * per_token / peak_flops),
            high=min(thr.high, high_cap * per_token / peak_flops),
        )
        tb.step(
            "throughput_efficiency_comm_bound",
            "min(throughput_efficiency, comm_cap x flops_per_token / peak_flops)",
            thr.mid,
            "fraction",
            low=thr.low,
            high=thr.high,
        )
        narrowing.append(HINT_GATHERS)
    heads = arch.n_heads if arch is not None else attention_heads
    if not flash_attention and heads is not None and shape is not None and computed_seq is not None:
        thr = with_eager_attention(tb, thr, n_layers=shape[0], n_heads=heads, seq_len=computed_seq, gpu=gpu,
            peak_tflops=peak, flops_per_token=per_token)  # fmt: skip
    if method in ("full", "pretraining") and batch_size is not None and computed_seq is not None:
        thr = with_optimizer_update(tb, thr, total_params=total_params or active_params, n_gpus=n_gpus,
            sharding=sharding, tensor_parallel=tensor_parallel, pipeline_stages=pipeline_stages,
            pipeline_micro_batches=pipeline_micro_batches, tokens_per_micro_batch=batch_size * computed_seq,
            gradient_accumulation_steps=gradient_accumulation_steps, training_precision=training_precision,
            gpu=gpu, peak_tflops=peak, flops_per_token=per_token)  # fmt: skip
    if arch is not None and arch.is_moe and arch.n_experts:
        moe_layout = moe_layout or (arch.n_experts, arch.n_active_experts or 1, arch.n_moe_layers)
    loop_tokens = gather_tokens_per_micro_batch(batch_size, computed_seq)
    if is_moe and mfu_range is None and framework in EAGER_MOE_FRAMEWORKS and moe_layout and loop_tokens:
        thr = with_moe_loop(tb, thr, n_experts=moe_layout[0], experts_per_token=moe_layout[1],
            moe_layers=moe_layout[2], tokens_per_micro_batch=loop_tokens, recompute=grad_checkpointing,
            peak_tflops=peak, flops_per_token=per_token)  # fmt: skip
    if pad is not None:
        thr = thr.scale(pad.efficiency)
        tb.step(
            "throughput_efficiency_useful",
            "throughput_efficiency x padding_efficiency: the samples' share of the computed tokens",
            thr.mid,
            "fraction",
            PADDING_SOURCE,
            padding_efficiency=pad.efficiency,
            low=thr.low,
            high=thr.high,
        )
    tps = Range(low=thr.low * peak_flops / per_token, high=thr.high * peak_flops / per_token)
    tb.step(
        "tokens_per_s_per_gpu",
        "throughput_efficiency x peak_flops / flops_per_token",
        tps.mid,
        "tokens/s",
        low=tps.low,
        high=tps.high,
        peak_tflops=peak,
        flops_per_token=per_token,
    )
    eff = Range(low=thr.low * goodput.low, high=thr.high * goodput.high)
    tb.step(
        "effective_mfu",
        "throughput_efficiency x goodput",
        eff.mid,
        "fraction",
        goodput_low=goodput.low,
        goodput_high=goodput.high,
        low=eff.low,
        high=eff.high,
    )
    gpu_hours = Range(low=at_peak / eff.high, high=at_peak / eff.low)
    tb.step(
        "gpu_hours_low",
        "gpu_hours_at_peak / effective_mfu_high",
        gpu_hours.low,
        "GPU-hours",
        gpu_hours_at_peak=at_peak,
        effective_mfu_high=eff.high,
    )
    tb.step(
        "gpu_hours_high",
        "gpu_hours_at_peak / effective_mfu_low",
        gpu_hours.high,
        "GPU-hours",
        gpu_hours_at_peak=at_peak,
        effective_mfu_low=eff.low,
    )
    wall = gpu_hours.scale(1.0 / n_gpus)
    tb.step("wall_hours_low", "gpu_hours_low / n_gpus", wall.low, "h", n_gpus=n_gpus)
    tb.step("wall_hours_high", "gpu_hours_high / n_gpus", wall.high, "h", n_gpus=n_gpus)
    narrowing = sorted(narrowing, key=HINT_ORDER.index) + [measure]

    return TrainingTime(
        flops=flops,
        flops_per_token=per_token,
        flops_factor=k,
        tokens=tokens,
        active_params=active_params,
        method=method,
        n_gpus=n_gpus,
        peak_tflops_per_gpu=peak,
        gpu_class=gpu_class_of(gpu),
        framework=used_framework,
        mfu=mfu,
        throughput_efficiency=thr,
        effective_mfu=eff,
        tokens_per_s_per_gpu=tps,
        narrowing=narrowing,
        scaling_efficiency=scaling,
        gpu_hours=gpu_hours,
        wall_hours=wall,
        gpu_hours_at_peak=at_peak,
        wall_hours_at_peak=at_peak / n_gpus,
        **tb.fields(),
    )
