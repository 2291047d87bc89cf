"""Serving time of one replica under continuous batching (issue 14).

One replica is `n_gpus` GPUs in tensor parallel. At `concurrency` requests in flight (closed loop: a
finished request is replaced at once), each of `prompt_tokens` in and `output_tokens` out, the engine
runs steps; each step decodes one token for every live sequence and, with chunked prefill (vLLM,
SGLang, TensorRT-LLM default), processes a share of new prompts so that prefill keeps pace:
prompt_tokens / output_tokens prefill tokens per decoded token. A step takes

    max(GEMMs + attention, kernel floor) + all-reduce time + step overhead (+ engine CPU time)

    GEMMs, attention = soft max(bytes / (n x bandwidth x eff), FLOPs / (n x peak x eff)) of each kernel
      kind in turn: weights read, tokens x 2 x active params; KV read at mean length, attention FLOPs
    all-reduce   = 2 x layers x (latency + 2(n-1)/n x tokens x hidden x 2 B / link bandwidth)
    kernel floor = layers x latency-bound kernels x kernel latency (DeepSeek-style MLA + MoE layers)
    engine CPU   = live sequences x CPU time per sequence (vLLM's V0 engine only)

(roofline of decode: Pope et al. 2022 "Efficiently Scaling Transformer Inference"; chunked prefill:
Agrawal et al. 2024 "Sarathi-Serve"; tensor-parallel all-reduces: Shoeybi et al. 2019). Sequences
beyond what the KV cache holds wait: throughput stops growing and the wait lands in the time to
first token (Little's law). The replica's output tokens/s = live sequences / step time; a user's
inter-token latency is the step time. Efficiencies are TensorRT-LLM's, scaled for other engines by their
published same-hardware ratio; the time to first token is the prompt's prefill at the prefill
efficiency, half to one step, and the queue behind other prompts (steady arrivals to a started-at-once
wave).

A replica over several nodes is `pipeline_stages` stages of n/stages GPUs in tensor parallel (GPipe-style
micro-batches, Huang et al. 2019; vLLM pipeline parallelism): the live sequences split into one
micro-batch per stage, every stage busy. A token step is then stages x one stage's step, each stage
reading its 1/stages of the weights once per micro-batch: the weights' read time is that of one stage's
GPUs reading them all, so pipelining adds memory for the KV cache but no per-user speed, and adds a
point-to-point hop per stage.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from tools.catalog.schema import GpuSpec, ModelArch
from tools.compute import serving_constants as K
from tools.compute.flops import BYTES_PER_WEIGHT, peak_tflops
from tools.compute.serving_steps import (
    allreduce_s,
    eager_host_s,
    engine_fixed_s,
    gemm_plus_attention_s,
    pipeline_hops_s,
    released_before,
    soft_max,
    time_to_first_token,
)
from tools.errors import InputError
from tools.memory_states import stored_weight_bytes
from tools.ranges import Range
from tools.trace import TraceBuilder, Traced, UntracedBuilder
from tools.units import MS_PER_S, gb_to_bytes, gib_to_bytes, ms_per_token_to_tokens_per_s, tflops_to_flops
from tools.vocabulary import SERVING_FRAMEWORKS, KvPrecision, Precision, ServingFramework

Batching = Literal["continuous", "static"]


@dataclass(frozen=True)
class ServingEfficiency:
    """The fitted bands (tools.compute.serving_constants); the calibration bench passes others."""

    bandwidth: Range = K.BANDWIDTH_EFFICIENCY
    compute: Range = K.COMPUTE_EFFICIENCY
    prefill: Range = K.PREFILL_EFFICIENCY
    step_overhead_s: Range = K.STEP_OVERHEAD_S
    overlap_exponent: float = K.OVERLAP_EXPONENT
    moe_compute_factor: float = K.MOE_COMPUTE_EFFICIENCY_FACTOR
    nvlink_allreduce_latency_s: float = K.ALLREDUCE_LATENCY_S["nvlink"]
    fp8_kv_with_fp8_weights: bool = K.FP8_KV_WITH_FP8_WEIGHTS
    layer_step_s: Mapping[str, float] = field(default_factory=lambda: dict(K.LAYER_STEP_S))
    v0_tp_step_s: float = K.VLLM_V0_TP_STEP_S
    int4_layer_s: float = K.INT4_WEIGHT_ONLY_LAYER_S
    fixed_band: float = K.BAND_HALF_WIDTH
    attention_apart: bool = K.ATTENTION_KERNELS_APART
    framework_factor: Mapping[str, float] = field(default_factory=lambda: dict(K.FRAMEWORK_EFFICIENCY))
    moe_routing_kernels: int = K.MOE_ROUTING_KERNELS_PER_LAYER


class ServingTime(Traced):
    """Throughput and latency of one serving replica at a stated load."""

    n_gpus: int
    concurrency: int
    live_sequences: int
    max_concurrency: int
    framework_max_batch: int
    prompt_tokens: int
    output_tokens: int
    output_tokens_per_s: Range
    ms_per_output_token: Range
    time_to_first_token_s: Range
    per_user_tokens_per_s: Range
    decode_bound: Literal["memory_bandwidth", "compute"]
    framework: str
    weights_fit: bool
    prefill_s: Range | None = None
    """One prompt's prefill alone, seconds (the service time of the first-token queue; None if unknown)."""
    engine_copies: int = 1
    """Engines the replica's GPUs run side by side, each with its own batch and prefill queue (tools.compute.
    serving_copies); the per-user and first-token figures are one copy's."""


def _check(**values: int) -> None:
    for name, v in values.items():
        if isinstance(v, bool) or not isinstance(v, int) or v < 1:
            raise InputError(f"{name} must be a whole number >= 1, got {v!r}")


def framework_max_batch(framework: str, gpu: GpuSpec) -> int:
    """The engine's default cap on sequences in flight (vLLM's depends on the GPU's memory)."""
    if (
        framework == "vllm"
        and gpu.usable_memory_gib >= K.VLLM_LARGE_GPU_MIN_GIB
        and "a100" not in gpu.name.lower()
    ):
        return K.VLLM_LARGE_GPU_MAX_NUM_SEQS
    return K.MAX_BATCH_BY_FRAMEWORK.get(framework, K.MAX_BATCH_BY_FRAMEWORK["vllm"])


def kv_replication(arch: ModelArch, tp: int, mla_dp_attention: bool = True) -> float:
    """Copies of each KV-cache entry a tensor-parallel group of `tp` GPUs holds (and reads): 1 when the KV
    heads split evenly over the GPUs; tp / n_kv_heads when there are fewer KV heads than GPUs (each GPU
    keeps a whole head). MLA: 1 with data-parallel attention (each GPU keeps its own sequences' latents:
    how the recommender sizes an MLA deployment, serving_constants.MLA_KV_SOURCE); tp under plain
    tensor parallelism, whose GPUs each hold the whole latent cache."""
    if arch.uses_mla:
        return 1.0 if mla_dp_attention else float(tp)
    return max(1.0, tp / arch.n_kv_heads)


def _weights_read(arch: ModelArch, precision: str, tokens_per_step: float) -> float:
    """Bytes of weights a step reads: all but the input embedding (a row lookup); MoE: the shared part
    plus the routed experts that tokens routed uniformly touch, 1 - (1 - k/E)^tokens."""
    total = stored_weight_bytes(arch, precision)
    if not arch.tied_embeddings:
        emb_bytes = 2.0 if precision in ("fp8", "int8", "int4", "nf4") else BYTES_PER_WEIGHT[precision]
        total -= arch.vocab_size * arch.hidden_size * emb_bytes
    if not (
        arch.is_moe and arch.n_experts and arch.n_active_experts and arch.n_active_experts < arch.n_experts
    ):
        return total
    e, k = arch.n_experts, arch.n_active_experts
    total_p, active_p = float(arch.param_count()), float(arch.active_param_count())
    routed = (total_p - active_p) * e / (e - k)
    touched = 1.0 - (1.0 - k / e) ** max(tokens_per_step, 1.0)
    share: float = ((total_p - routed) + routed * touched) / total_p
    return total * share


def estimate_serving_time(
    *,
    arch: ModelArch,
    gpu: GpuSpec,
    n_gpus: int,
    precision: Precision = "bf16",
    kv_precision: KvPrecision | None = None,
    concurrency: int,
    prompt_tokens: int,
    output_tokens: int,
    framework: ServingFramework | None = None,
    traced: bool = True,
    batching: Batching = "continuous",
    efficiency: ServingEfficiency | None = None,
    pipeline_stages: int = 1,
    max_batch: int | None = None,
    grouped_kv_reads: bool = True,
    mla_dp_attention: bool = True,
    engine_version: str | None = None,
    engine_date: str | None = None,
    scheduler_steps: int = 1,
    max_tokens_per_step: int | None = None,
    kv_cache_gib: float | None = None,
) -> ServingTime:
    """Output tokens/s of the replica, ms per output token and time to first token (low-high), and how
    many requests its KV cache holds. `batching="static"` (a fixed batch, prefill then decode, the
    2023 TensorRT-LLM tables) is for the calibration bench; serving is continuous. `max_batch` overrides the
    engine's default cap on sequences in flight (vLLM `max_num_seqs`, TensorRT-LLM `max_batch_size`).
    `grouped_kv_reads=False` is a decode attention kernel that reads a GQA model's KV cache once per query
    head rather than once per KV head (TensorRT-LLM before its XQA kernels, 2023): for the bench.
    `mla_dp_attention=False`: an MLA model served with plain tensor parallelism (the latent cache copied to
    every GPU), as benchmarks without data-parallel attention ran it.
    `engine_version` / `engine_date` ("YYYY-MM"): the release a benchmark ran, for the engine generations
    whose step differs from today's (serving_constants: vLLM's V0 engine, early MLA kernels); None, the
    default, is a current release. `scheduler_steps`: vLLM multi-step scheduling (--num-scheduler-steps),
    which spreads the V0 engine's per-step CPU work over that many steps. `max_tokens_per_step`: the
    engine's token budget per step (vLLM max_num_batched_tokens, TensorRT-LLM max_num_tokens) when stated;
    None: the engine's default. `kv_cache_gib`: the KV cache the engine reports at start-up, over the replica
    (vLLM's log line 'Available KV cache memory: X GiB', set by --gpu-memory-utilization), in place of the
    budget from the default utilisation; None: computed."""
    _check(
        n_gpus=n_gpus,
        concurrency=concurrency,
        prompt_tokens=prompt_tokens,
        output_tokens=output_tokens,
        pipeline_stages=pipeline_stages,
        scheduler_steps=scheduler_steps,
    )
    if n_gpus % pipeline_stages:
        raise InputError(f"{n_gpus} GPUs do not split into {pipeline_stages} pipeline stages")
    pp = pipeline_stages
    tp = n_gpus // pp
    if precision not in BYTES_PER_WEIGHT:
        raise InputError(f"unknown precision {precision!r}: use one of {', '.join(BYTES_PER_WEIGHT)}")
    if framework is not None and framework not in SERVING_FRAMEWORKS:
        raise InputError(
            f"unknown serving framework {framework!r}: use one of {', '.join(SERVING_FRAMEWORKS)}"
        )
    tb = TraceBuilder() if traced else UntracedBuilder()
    eff = efficiency or ServingEfficiency()
    fw = framework or K.FRAMEWORK_DEFAULT_SERVING
    tb.assume(
        "serving_framework", fw, "", "caller" if framework else "default: vLLM, the most deployed open server"
    )
    fp8_kv = eff.fp8_kv_with_fp8_weights and precision == "fp8" and fw == "tensorrt-llm"
    kv_prec: str = kv_precision or ("fp8" if fp8_kv else "bf16")
    kv_why = "FP8 with FP8 weights on TensorRT-LLM (ModelOpt kv_cache_quant_algo FP8)" if fp8_kv else "16-bit"
    tb.assume("kv_cache_precision", kv_prec, "", "caller" if kv_precision else f"default: {kv_why}")
    tb.assume(
        "bandwidth_efficiency",
        f"{eff.bandwidth.low}-{eff.bandwidth.high}",
        "of datasheet",
        K.BANDWIDTH_EFFICIENCY_SOURCE,
    )
    tb.assume(
        "compute_efficiency",
        f"{eff.compute.low}-{eff.compute.high}",
        "of dense peak",
        K.COMPUTE_EFFICIENCY_SOURCE,
    )
    tb.assume(
        "prefill_efficiency",
        f"{eff.prefill.low}-{eff.prefill.high}",
        "of dense peak",
        K.PREFILL_EFFICIENCY_SOURCE,
    )
    fw_factor = eff.framework_factor.get(fw, K.FRAMEWORK_EFFICIENCY[fw])
    tb.assume("framework_efficiency", fw_factor, "x TensorRT-LLM's", K.FRAMEWORK_EFFICIENCY_SOURCE)
    cpu_per_sequence_s = 0.0
    v0_engine = fw == "vllm" and released_before(engine_version, engine_date, K.VLLM_V1_DEFAULT)
    if v0_engine:
        cpu_per_sequence_s = K.VLLM_V0_CPU_S_PER_SEQUENCE / scheduler_steps
        tb.assume(
            "engine_cpu_s_per_sequence_per_step",
            cpu_per_sequence_s,
            f"s (vLLM V0 engine{f', {scheduler_steps} scheduler steps' if scheduler_steps > 1 else ''})",
            K.VLLM_V0_CPU_SOURCE,
        )
    early_mla = 1.0
    if arch.uses_mla and released_before(None, engine_date, K.EARLY_MLA_KERNELS):
        early_mla = K.EARLY_MLA_KERNELS_EFFICIENCY
        tb.assume("early_mla_kernels_efficiency", early_mla, "x", K.EARLY_MLA_KERNELS_SOURCE)
        fw_factor *= early_mla
    vllm_factor = eff.framework_factor.get("vllm", K.FRAMEWORK_EFFICIENCY["vllm"])  # the share is vLLM's
    vendor_factor = K.VENDOR_SHARE_OF_TRTLLM.get(gpu.vendor, vllm_factor) / vllm_factor
    if vendor_factor != 1.0:
        tb.assume("vendor_efficiency", vendor_factor, f"x on {gpu.vendor}", K.VENDOR_EFFICIENCY_SOURCE)
        fw_factor *= vendor_factor
    tb.assume("band_half_width", K.BAND_HALF_WIDTH, "x/÷", K.BAND_SOURCE)
    tb.assume(
        "step_overhead_s",
        f"{eff.step_overhead_s.low}-{eff.step_overhead_s.high}",
        "s",
        K.STEP_OVERHEAD_SOURCE,
    )

    # --- what the KV cache holds -----------------------------------------------------------------
    weights = stored_weight_bytes(arch, precision)
    usable = n_gpus * (
        gib_to_bytes(gpu.usable_memory_gib) * K.GPU_MEMORY_UTILIZATION
        - gib_to_bytes(K.RUNTIME_RESERVE_GIB_PER_GPU)
    )
    tb.assume("gpu_memory_utilization", K.GPU_MEMORY_UTILIZATION, "fraction", K.GPU_MEMORY_UTILIZATION_SOURCE)
    tb.assume("runtime_reserve_gib_per_gpu", K.RUNTIME_RESERVE_GIB_PER_GPU, "GiB", K.RUNTIME_RESERVE_SOURCE)
    kv_budget = tb.step(
        "kv_cache_budget_bytes",
        "n_gpus x (usable x utilization - reserve) - weights",
        usable - weights,
        "bytes",
        n_gpus=n_gpus,
        weight_bytes=weights,
    )
    if kv_cache_gib is not None:  # the cache the engine reported allocating (a stated set-up)
        stated = gib_to_bytes(kv_cache_gib)
        kv_budget = tb.step("kv_cache_budget_stated_bytes", "the engine's stated KV cache", stated, "bytes")
    kv_bytes_value = BYTES_PER_WEIGHT[kv_prec]
    # a static batch's sequences grow in lockstep: by its last step every one holds prompt + output, so a
    # paged engine that admitted them by current use preempts those the cache no longer holds
    full_length = K.KV_RESERVED_AT_FULL_LENGTH[fw] or batching == "static"
    tb.assume("kv_admitted_at_full_length", str(full_length).lower(), "", K.KV_ADMISSION_SOURCE)
    held_len = prompt_tokens + (output_tokens if full_length else output_tokens // 2)
    replication = kv_replication(arch, tp, mla_dp_attention)
    if arch.uses_mla and mla_dp_attention:
        tb.assume("mla_kv_cache", "partitioned over the replica's GPUs", "", K.MLA_KV_SOURCE)
    if replication > 1:
        tb.assume("kv_cache_replication", replication, "copies", K.KV_REPLICATION_SOURCE)
    kv_full = arch.kv_cache_bytes(held_len, kv_bytes_value) * replication
    cap_batch = max_batch or framework_max_batch(fw, gpu)
    if max_batch:
        tb.assume("framework_max_batch", cap_batch, "sequences", "caller")
    elif cap_batch != K.MAX_BATCH_BY_FRAMEWORK.get(fw):
        tb.assume("framework_max_batch", cap_batch, "sequences", K.VLLM_MAX_NUM_SEQS_SOURCE)
    by_kv = max(0, math.floor(kv_budget / kv_full)) if kv_full > 0 else cap_batch
    max_conc = int(
        tb.step(
            "max_concurrency",
            "min(floor(kv_budget / (kv_cache_bytes(held length) x replication)), framework max batch)",
            min(by_kv, cap_batch),
            "requests",
            "every sequence reserved at full length prompt + output (no eviction)"
            if full_length
            else "admitted by current use: sequences held at mean length prompt + output/2 (paged KV)",
            kv_bytes_per_sequence=kv_full,
            framework_max_batch=cap_batch,
        )
    )
    weights_fit = kv_budget > 0
    if not weights_fit:
        tb.assume(
            "weights_do_not_fit", "true", "", "the replica's memory cannot hold the weights: figures are moot"
        )
    static = batching == "static" or fw == "transformers"  # generate(): one padded batch, no admission
    prefill_per_output = 0.0 if static else prompt_tokens / output_tokens
    by_budget = max_conc
    if max_tokens_per_step and not static:
        # each step decodes a token per sequence and, to keep pace, prefills prompt/output tokens more:
        # past the budget, prefill falls behind and fewer sequences run (vLLM max_num_batched_tokens,
        # TensorRT-LLM max_num_tokens; only when stated: the defaults, 8192 on large GPUs, rarely bind)
        by_budget = max(1, math.floor(max_tokens_per_step / (1 + prefill_per_output)))
        tb.assume("max_tokens_per_step", max_tokens_per_step, "tokens", "caller")
    live = max(1, min(concurrency, max_conc, by_budget))
    tb.step(
        "live_sequences",
        "min(concurrency, max_concurrency, token budget / (1 + prompt/output))",
        live,
        "requests",
        concurrency=concurrency,
        sequences_by_token_budget=by_budget,
    )

    # --- one engine step ---------------------------------------------------------------------------
    active = float(arch.active_param_count())
    peak = peak_tflops(gpu=gpu, precision=precision, tb=tb)
    flops_rate = n_gpus * tflops_to_flops(peak)  # every stage busy: the FLOPs spread over all GPUs
    bandwidth = tp * gb_to_bytes(1000 * gpu.memory_bandwidth_tb_per_s)  # one stage reads all weights
    width = arch.n_heads * (
        (arch.qk_nope_head_dim or 0) + (arch.qk_rope_head_dim or 0) if arch.uses_mla else arch.head_dim
    )
    attn = K.ATTENTION_FLOPS_PER_KEY_PER_WIDTH * arch.n_layers * width
    mean_ctx = prompt_tokens + output_tokens / 2
    tokens_per_step = live * (1 + prefill_per_output)
    attn_flops = live * attn * mean_ctx + live * prefill_per_output * attn * prompt_tokens / 2
    step_flops = tokens_per_step * 2 * active + attn_flops  # GEMMs + attention
    # engines prefill a prompt in one chunk of its length (vLLM, SGLang and TensorRT-LLM token budgets of
    # 2-16k tokens hold a typical prompt), so a step either decodes alone or decodes beside a whole
    # prompt: a dense model reads its weights once either way; an MoE model's decode-only steps touch
    # only the experts their few tokens route to
    prefill_tokens = live * prefill_per_output
    with_prompt = min(1.0, prefill_tokens / prompt_tokens) if prefill_tokens else 0.0
    chunk = max(float(prompt_tokens), prefill_tokens)
    w_read = with_prompt * _weights_read(arch, precision, (live + chunk) / pp) + (
        1.0 - with_prompt
    ) * _weights_read(arch, precision, live / pp)
    # vLLM V0 cannot run FlashAttention on an FP8 cache and falls back to its paged-attention kernel, which
    # reads a KV head once per query head (VLLM_V0_FP8_KV_PAGED_ATTENTION_SOURCE)
    v0_fp8_kv = v0_engine and kv_prec == "fp8" and gpu.vendor == "nvidia"
    grouped = grouped_kv_reads and not v0_fp8_kv
    kv_passes = 1.0 if grouped or arch.uses_mla else arch.n_heads / arch.n_kv_heads
    if kv_passes > 1:
        why = K.VLLM_V0_FP8_KV_PAGED_ATTENTION_SOURCE if v0_fp8_kv else K.UNGROUPED_KV_READS_SOURCE
        tb.assume("kv_reads_per_step", kv_passes, "x the KV cache", why)
    kv_read = live * arch.kv_cache_bytes(int(mean_ctx), kv_bytes_value) * replication * kv_passes / pp
    bw_eff = eff.bandwidth.scale(fw_factor)
    mem_s = Range(
        low=(w_read + kv_read) / (bandwidth * bw_eff.high),
        high=(w_read + kv_read) / (bandwidth * bw_eff.low),
    )
    tb.step(
        "step_memory_s",
        "(weights read + live x kv_cache_bytes(prompt + output/2) x replication x passes / stages)"
        " / (n / stages x bandwidth x eff "
        "x framework)",
        mem_s.mid,
        "s",
        weight_bytes_read=w_read,
        kv_bytes_read=kv_read,
        bandwidth_tb_per_s=gpu.memory_bandwidth_tb_per_s,
        low=mem_s.low,
        high=mem_s.high,
    )
    moe = eff.moe_compute_factor if arch.is_moe else 1.0
    cmp_eff = eff.compute.scale(moe * fw_factor)
    cmp_s = Range(low=step_flops / (flops_rate * cmp_eff.high), high=step_flops / (flops_rate * cmp_eff.low))
    tb.step(
        "step_compute_s",
        "live x [(2 N_act + attn x ctx) + prompt/output x (2 N_act + attn x prompt/2)] / (n x peak x eff x "
        "framework)",
        cmp_s.mid,
        "s",
        "chunked prefill: Agrawal et al. 2024 (Sarathi-Serve)",
        step_flops=step_flops,
        peak_tflops=peak,
        low=cmp_s.low,
        high=cmp_s.high,
    )
    comm_s = allreduce_s(arch, gpu, tp, tokens_per_step / pp, eff.nvlink_allreduce_latency_s, tb)
    hops_s = pipeline_hops_s(pp, tb)
    p = eff.overlap_exponent
    kernels = K.LATENCY_BOUND_KERNELS_PER_MLA_MOE_LAYER if arch.uses_mla and arch.is_moe else 0
    floor_s = Range(low=0.0, high=0.0)
    if kernels:
        per_kernel = Range(
            low=K.KERNEL_LATENCY_S / K.BAND_HALF_WIDTH / early_mla,
            high=K.KERNEL_LATENCY_S * K.BAND_HALF_WIDTH / early_mla,
        )
        floor_s = per_kernel.scale(arch.n_layers * kernels)
        tb.assume("kernel_latency_s", K.KERNEL_LATENCY_S, "s per kernel", K.KERNEL_LATENCY_SOURCE)
        tb.step(
            "step_kernel_floor_s",
            "layers x latency-bound kernels per layer x kernel latency (/ early-kernel factor)",
            floor_s.mid,
            "s",
            K.KERNEL_LATENCY_SOURCE,
            layers=arch.n_layers,
            kernels_per_layer=kernels,
            low=floor_s.low,
            high=floor_s.high,
        )
    host_s = eager_host_s(arch, fw, precision, tb, tokens=live)
    if host_s:  # an eager engine's host issues the step's ops while the GPU runs behind: the longer one
        floor_s = Range(
            low=max(floor_s.low, host_s / eff.fixed_band), high=max(floor_s.high, host_s * eff.fixed_band)
        )
    cpu_s = live * cpu_per_sequence_s
    fixed_s = engine_fixed_s(
        arch,
        fw,
        tp=tp,
        stages=pp,
        precision=precision,
        v0_engine=v0_engine,
        layer_s=eff.layer_step_s.get(fw, 0.0),
        v0_tp_s=eff.v0_tp_step_s,
        int4_layer_s=eff.int4_layer_s,
        tb=tb,
        moe_routing_kernels=eff.moe_routing_kernels,
    )
    if cpu_s:
        tb.step(
            "step_engine_cpu_s",
            "live x CPU time per sequence (scheduling, input preparation, sampling; not overlapped in V0)",
            cpu_s,
            "s",
            K.VLLM_V0_CPU_SOURCE,
            live_sequences=live,
        )
    gpu_s = Range(low=soft_max(mem_s.low, cmp_s.low, p), high=soft_max(mem_s.high, cmp_s.high, p))
    if eff.attention_apart:  # (ServingEfficiency(attention_apart=False): the round-6 overlapped step)
        gpu_s = gemm_plus_attention_s(
            bytes_read=(w_read, kv_read),
            flops=(step_flops - attn_flops, attn_flops),
            bytes_per_s=bw_eff.scale(bandwidth),
            flops_per_s=cmp_eff.scale(flops_rate),
            p=p,
            tb=tb,
        )
    step = Range(
        low=max(gpu_s.low, floor_s.low)
        + comm_s
        + hops_s
        + pp * eff.step_overhead_s.low
        + cpu_s
        + fixed_s / eff.fixed_band,
        high=max(gpu_s.high, floor_s.high)
        + comm_s
        + hops_s
        + pp * eff.step_overhead_s.high
        + cpu_s
        + fixed_s * eff.fixed_band,
    )
    if arch.uses_mla and mla_dp_attention and 1 < tp <= live and not static:
        # attention data-parallel ranks step together (the MoE layers between them synchronise), so each
        # step waits for the rank that drew the most prompt tokens; fewer sequences than ranks leave
        # nothing to balance (a lone request's step is its own rank's)
        tb.assume(
            "attention_dp_balance",
            K.ATTENTION_DP_BALANCE,
            "of a balanced step's speed",
            K.ATTENTION_DP_SOURCE,
        )
        step = step.scale(1.0 / K.ATTENTION_DP_BALANCE)
    mem_bound = mem_s.mid >= cmp_s.mid
    bound: Literal["memory_bandwidth", "compute"] = "memory_bandwidth" if mem_bound else "compute"
    tb.step(
        "step_s",
        "max((memory^p + compute^p)^(1/p), kernel floor, eager host) + all-reduce + stage hops"
        f" + stages x overhead + engine CPU + engine fixed (/ attention-DP balance); {bound}-bound",
        step.mid,
        "s",
        low=step.low,
        high=step.high,
    )

    # --- prefill alone (time to first token; static batches' prefill phase) ---------------------------
    prefill_flops = prompt_tokens * (2 * active + attn * prompt_tokens / 2)
    prefill_comm_s = allreduce_s(arch, gpu, tp, prompt_tokens, eff.nvlink_allreduce_latency_s, None)
    prefill_comm_s += pipeline_hops_s(pp, None)
    stage_rate = flops_rate / pp  # a prompt passes the stages one after another
    pre_eff = eff.prefill.scale(moe * fw_factor)
    prefill_s = Range(
        low=prefill_flops / (stage_rate * pre_eff.high) + prefill_comm_s + pp * eff.step_overhead_s.low,
        high=prefill_flops / (stage_rate * pre_eff.low) + prefill_comm_s + pp * eff.step_overhead_s.high,
    )
    tb.step(
        "prefill_s",
        "prompt x (2 N_act + attn x prompt/2) / (n / stages x peak x prefill eff x framework) + all-reduces",
        prefill_s.mid,
        "s",
        low=prefill_s.low,
        high=prefill_s.high,
    )
    if static:  # the batch's prompts first, then output_tokens decode steps
        total = Range(
            low=live * prefill_s.low + output_tokens * step.low,
            high=live * prefill_s.high + output_tokens * step.high,
        )
        tps = Range(low=live * output_tokens / total.high, high=live * output_tokens / total.low)
    else:
        tps = Range(low=live / step.high, high=live / step.low)
    tb.step(
        "output_tokens_per_s",
        "live_sequences / step_s" if not static else "live x output / (live x prefill + output x step)",
        tps.mid,
        "tokens/s",
        low=tps.low,
        high=tps.high,
    )
    ms = step.scale(MS_PER_S)
    ttft = time_to_first_token(
        static=static,
        live=live,
        concurrency=concurrency,
        output_tokens=output_tokens,
        prefill_s=prefill_s,
        step=step,
        tb=tb,
    )
    return ServingTime(
        n_gpus=n_gpus,
        concurrency=concurrency,
        live_sequences=live,
        max_concurrency=max_conc,
        framework_max_batch=cap_batch,
        prompt_tokens=prompt_tokens,
        output_tokens=output_tokens,
        output_tokens_per_s=tps,
        ms_per_output_token=ms,
        time_to_first_token_s=ttft,
        per_user_tokens_per_s=Range(
            low=ms_per_token_to_tokens_per_s(ms.high), high=ms_per_token_to_tokens_per_s(ms.low)
        ),
        decode_bound=bound,
        framework=fw,
        weights_fit=weights_fit,
        prefill_s=prefill_s,
        **tb.fields(),
    )
