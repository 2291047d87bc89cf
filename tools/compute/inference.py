"""Inference throughput of one replica (roofline): prefill is compute-bound (2 x N_active FLOPs per
token at a prefill MFU); decode is bandwidth-bound: each step reads the weights once plus every
sequence's KV cache, so step time = bytes / (memory bandwidth x efficiency), unless the step's FLOPs
take longer. Ranges are low-high.
"""

from __future__ import annotations

import math
from typing import Literal

from pydantic import Field

from tools.catalog.schema import GpuSpec, ModelArch
from tools.compute.flops import BYTES_PER_WEIGHT, QUANTISED_WEIGHT_FORMATS, check_positive, peak_tflops
from tools.errors import InputError
from tools.memory_states import UNQUANTIZED_BYTES, stored_weight_bytes
from tools.ranges import Range
from tools.trace import TraceBuilder, Traced
from tools.units import gb_to_bytes, tflops_to_flops
from tools.vocabulary import KvPrecision, Precision

# Prefill and compute-bound decode reach a share of dense peak similar to training matmuls.
INFERENCE_MFU = Range(low=0.30, high=0.60)
INFERENCE_MFU_SOURCE = "estimate: vLLM / TensorRT-LLM prefill on long prompts reaches ~40-60% of dense peak"
# Decode kernels reach 55-85% of the datasheet memory bandwidth (STREAM-like copies reach ~90%).
DECODE_BANDWIDTH_EFFICIENCY = Range(low=0.55, high=0.85)
DECODE_BANDWIDTH_EFFICIENCY_SOURCE = "estimate: decode kernels achieve 55-85% of datasheet HBM bandwidth"


class InferenceEstimate(Traced):
    """Serving throughput of one replica (n_gpus working together) and GPUs for a target rate."""

    n_gpus: int
    concurrency: int
    context_len: int
    prompt_tokens: int
    weight_bytes_read_per_step: float
    kv_bytes_read_per_step: float
    prefill_tokens_per_s: Range
    time_to_first_token_s: Range
    decode_tokens_per_s: Range = Field(description="aggregate over all concurrent sequences")
    decode_tokens_per_s_per_sequence: Range
    decode_bound: Literal["memory_bandwidth", "compute"]
    gpus_needed_for_target: Range | None = Field(default=None, description="integer-valued GPU counts")
    replicas_needed_for_target: Range | None = None


def weight_bytes(*, arch: ModelArch, precision: str) -> float:
    """Bytes of all weights: quantised formats apply to the layers' linear weights only; embeddings,
    head and norms stay 16-bit (bitsandbytes / GPTQ / AWQ practice)."""
    if precision not in BYTES_PER_WEIGHT:
        raise InputError(f"unknown precision {precision!r}: use one of {', '.join(BYTES_PER_WEIGHT)}")
    return stored_weight_bytes(arch, precision)  # the formula lives in tools.memory_states


def _moe_fraction_touched(*, arch: ModelArch, tokens_per_step: int) -> float:
    """Expected share of routed experts a decode step reads with `tokens_per_step` tokens routed
    independently and uniformly: 1 - (1 - k/E)^B."""
    assert arch.n_experts is not None
    k = arch.n_active_experts or arch.n_experts
    return 1.0 - (1.0 - k / arch.n_experts) ** tokens_per_step


def estimate_inference(
    *,
    arch: ModelArch,
    gpu: GpuSpec,
    n_gpus: int,
    precision: Precision,
    concurrency: int,
    context_len: int,
    prompt_tokens: int | None = None,
    target_tokens_per_s: float | None = None,
    kv_precision: KvPrecision = "bf16",
    inference_mfu: Range | None = None,
    bandwidth_efficiency: Range | None = None,
    pipeline_stages: int = 1,
) -> InferenceEstimate:
    """Prefill and decode throughput of one replica of `n_gpus` GPUs: tensor parallel inside each of
    `pipeline_stages` pipeline stages (n_gpus / pipeline_stages GPUs per stage).

    Decode step time = max(bytes read / (n x bandwidth x eff), FLOPs / (n x peak x mfu)), where
    bytes = pipeline_stages x weights read once per step (MoE: the experts the step's tokens touch)
    + concurrency x KV cache of `context_len` tokens (the worst case, at the end of each sequence).
    Pipeline parallelism does not shorten a token's trip through the model: with the concurrent
    sequences split into pp micro-batches, each stage reads its 1/pp of the weights once per
    micro-batch, pp times per step, so the weights cost pp x W over all GPUs' bandwidth (tensor
    parallelism across the same GPUs would read W once). pp = 1 is the tensor-parallel case.
    """
    for name, v in (
        ("n_gpus", n_gpus),
        ("concurrency", concurrency),
        ("context_len", context_len),
        ("pipeline_stages", pipeline_stages),
    ):
        if not isinstance(v, int) or v < 1:
            raise InputError(f"{name} must be a whole number >= 1, got {v!r}")
    if n_gpus % pipeline_stages:
        raise InputError(f"pipeline_stages ({pipeline_stages}) must divide n_gpus ({n_gpus})")
    prompt = prompt_tokens if prompt_tokens is not None else context_len
    if not isinstance(prompt, int) or prompt < 1:
        raise InputError(f"prompt_tokens must be a whole number >= 1, got {prompt!r}")
    if target_tokens_per_s is not None:
        check_positive(target_tokens_per_s=target_tokens_per_s)
    tb = TraceBuilder()
    mfu = inference_mfu or INFERENCE_MFU
    eff = bandwidth_efficiency or DECODE_BANDWIDTH_EFFICIENCY
    tb.assume(
        "inference_mfu",
        f"{mfu.low}-{mfu.high}",
        "fraction of peak",
        "caller" if inference_mfu else INFERENCE_MFU_SOURCE,
    )
    tb.assume(
        "decode_bandwidth_efficiency",
        f"{eff.low}-{eff.high}",
        "fraction of datasheet",
        "caller" if bandwidth_efficiency else DECODE_BANDWIDTH_EFFICIENCY_SOURCE,
    )

    active = float(arch.active_param_count())
    peak = peak_tflops(gpu=gpu, precision=precision, tb=tb)
    replica_flops = n_gpus * tflops_to_flops(peak)
    width = arch.n_heads * (
        (arch.qk_nope_head_dim or 0) + (arch.qk_rope_head_dim or 0) if arch.uses_mla else arch.head_dim
    )

    # Prefill: 2 x N_active per token plus causal attention 2 x layers x width x prompt (avg s/2 keys,
    # QK and AV each 2 x width FLOPs per key).
    prefill_per_token = tb.step(
        "prefill_flops_per_token",
        "2 x N_active + 2 x layers x attn_width x prompt",
        2 * active + 2 * arch.n_layers * width * prompt,
        "FLOPs/token",
        "Kaplan et al. 2020 (2N forward)",
        active_params=active,
        prompt_tokens=prompt,
    )
    prefill = Range(
        low=replica_flops * mfu.low / prefill_per_token, high=replica_flops * mfu.high / prefill_per_token
    )
    tb.step(
        "prefill_tokens_per_s",
        "n_gpus x peak_flops x mfu / prefill_flops_per_token",
        prefill.mid,
        "tokens/s",
        n_gpus=n_gpus,
        peak_tflops=peak,
        low=prefill.low,
        high=prefill.high,
    )
    ttft = Range(low=prompt / prefill.high, high=prompt / prefill.low)
    tb.step(
        "time_to_first_token_s",
        "prompt_tokens / prefill_tokens_per_s",
        ttft.mid,
        "s",
        low=ttft.low,
        high=ttft.high,
    )

    # Decode: bytes per step.
    w_total = weight_bytes(arch=arch, precision=precision)
    if not arch.tied_embeddings:  # the input embedding is a row lookup, not a full read
        quantised = precision in QUANTISED_WEIGHT_FORMATS
        emb_bytes = UNQUANTIZED_BYTES if quantised else BYTES_PER_WEIGHT[precision]
        w_total -= arch.vocab_size * arch.hidden_size * emb_bytes
    if arch.is_moe and arch.n_experts and arch.n_active_experts and arch.n_active_experts < arch.n_experts:
        total_p, active_p = float(arch.param_count()), active
        e, k = arch.n_experts, arch.n_active_experts
        routed_total = (total_p - active_p) * e / (e - k)
        frac = _moe_fraction_touched(arch=arch, tokens_per_step=concurrency)
        read_share = ((total_p - routed_total) + routed_total * frac) / total_p
        tb.assume(
            "moe_routing", "uniform, independent per token", "", "estimate: 1 - (1 - k/E)^B experts touched"
        )
        w_read = tb.step(
            "weight_bytes_read_per_step",
            "weight_bytes x (shared + routed x (1-(1-k/E)^B)) / total",
            w_total * read_share,
            "bytes",
            weight_bytes=w_total,
            experts=e,
            active_experts=k,
            concurrency=concurrency,
            routed_fraction_touched=frac,
        )
    else:
        w_read = tb.step(
            "weight_bytes_read_per_step", "all weights once per step", w_total, "bytes", precision=precision
        )
    kv_bytes_value = BYTES_PER_WEIGHT[kv_precision]
    kv_per_seq = arch.kv_cache_bytes(context_len, kv_bytes_value)
    kv_read = tb.step(
        "kv_bytes_read_per_step",
        "concurrency x kv_cache_bytes(context_len)",
        concurrency * kv_per_seq,
        "bytes",
        "seed 001: 2 x layers x kv_heads x head_dim x tokens x bytes",
        concurrency=concurrency,
        context_len=context_len,
        kv_bytes_per_value=kv_bytes_value,
    )
    bw = n_gpus * gb_to_bytes(1000 * gpu.memory_bandwidth_tb_per_s)  # TB/s -> bytes/s (1 TB = 1000 GB)
    step_bytes = pipeline_stages * w_read + kv_read
    mem_s = Range(low=step_bytes / (bw * eff.high), high=step_bytes / (bw * eff.low))
    tb.step(
        "decode_step_memory_s",
        "(pipeline_stages x weight_bytes + kv_bytes) / (n_gpus x bandwidth x efficiency)",
        mem_s.mid,
        "s",
        bandwidth_tb_per_s=gpu.memory_bandwidth_tb_per_s,
        n_gpus=n_gpus,
        pipeline_stages=pipeline_stages,
        low=mem_s.low,
        high=mem_s.high,
    )
    decode_flops = concurrency * (2 * active + 4 * arch.n_layers * width * context_len)
    cmp_s = Range(
        low=decode_flops / (replica_flops * mfu.high), high=decode_flops / (replica_flops * mfu.low)
    )
    tb.step(
        "decode_step_compute_s",
        "concurrency x (2 N_active + 4 x layers x width x context) / (peak x mfu)",
        cmp_s.mid,
        "s",
        decode_flops=decode_flops,
        low=cmp_s.low,
        high=cmp_s.high,
    )
    step = Range(low=max(mem_s.low, cmp_s.low), high=max(mem_s.high, cmp_s.high))
    bound: Literal["memory_bandwidth", "compute"] = (
        "memory_bandwidth" if mem_s.mid >= cmp_s.mid else "compute"
    )
    tb.step(
        "decode_step_s",
        "max(memory time, compute time); bound = " + bound,
        step.mid,
        "s",
        low=step.low,
        high=step.high,
    )
    per_seq = Range(low=1.0 / step.high, high=1.0 / step.low)
    agg = per_seq.scale(concurrency)
    tb.step(
        "decode_tokens_per_s",
        "concurrency / decode_step_s",
        agg.mid,
        "tokens/s",
        concurrency=concurrency,
        low=agg.low,
        high=agg.high,
    )

    gpus_needed = replicas = None
    if target_tokens_per_s is not None:
        replicas = Range(
            low=math.ceil(target_tokens_per_s / agg.high), high=math.ceil(target_tokens_per_s / agg.low)
        )
        gpus_needed = replicas.scale(n_gpus)
        tb.step(
            "gpus_needed_for_target",
            "ceil(target / decode_tokens_per_s) x n_gpus",
            gpus_needed.high,
            "GPUs",
            target_tokens_per_s=target_tokens_per_s,
            n_gpus=n_gpus,
            low=gpus_needed.low,
            high=gpus_needed.high,
        )

    return InferenceEstimate(
        n_gpus=n_gpus,
        concurrency=concurrency,
        context_len=context_len,
        prompt_tokens=prompt,
        weight_bytes_read_per_step=w_read,
        kv_bytes_read_per_step=kv_read,
        prefill_tokens_per_s=prefill,
        time_to_first_token_s=ttft,
        decode_tokens_per_s=agg,
        decode_tokens_per_s_per_sequence=per_seq,
        decode_bound=bound,
        gpus_needed_for_target=gpus_needed,
        replicas_needed_for_target=replicas,
        **tb.fields(),
    )
