"""Parts of a serving step's time that are not the GPU's own compute or memory reads: the tensor-parallel
all-reduces over the GPUs' link, the sends between pipeline stages, and whether an engine release
predates a kernel or scheduler change (tools.compute.serving; constants in serving_constants)."""

from __future__ import annotations

import math
import re

from tools.catalog.schema import GpuSpec, ModelArch
from tools.compute import serving_constants as K
from tools.compute.moe_loop import experts_hit
from tools.ranges import Range
from tools.trace import TraceBuilder
from tools.units import gb_to_bytes


def link_kind(gpu: GpuSpec, n_gpus: int) -> str:
    """nvlink, infinity_fabric, pcie or pcie_no_p2p: how the replica's GPUs exchange all-reduces. An NVLink
    bridge joins pairs only, so more than two bridged GPUs talk over PCIe."""
    link = gpu.scale_up_link
    if link == "infinity_fabric":  # all-to-all like NVSwitch, but RCCL's small all-reduce is slower
        return "infinity_fabric"
    if link in K.NVLINK_LINKS or (link == "nvlink_bridge" and n_gpus <= 2):
        return "nvlink"
    return "pcie_no_p2p" if gpu.consumer else "pcie"


_VERSION = re.compile(r"v?(\d+)\.(\d+)")
_MONTH = re.compile(r"(\d{4})-(\d{2})")


def released_before(version: str | None, date: str | None, boundary: tuple[tuple[int, int], str]) -> bool:
    """Whether an engine release predates `boundary` ((major, minor) of the first release past it, its
    'YYYY-MM'): by the version when it reads as one, else by the month; unknown is a current release."""
    first_version, first_month = boundary
    v = _VERSION.match(version.strip()) if version else None
    if v and first_version != (0, 0):
        return (int(v.group(1)), int(v.group(2))) < first_version
    m = _MONTH.match(date.strip()) if date else None
    if m is None:
        return False
    return f"{m.group(1)}-{m.group(2)}" < first_month


_ENGINE_RELEASE = re.compile(r"^(?P<name>[a-z][a-z-]*?)(?:[\s_-]+v?(?P<version>\d+(?:\.\d+)*))?$")


def split_engine_release(name: str) -> tuple[str, str | None]:
    """A serving framework as a user may state it, with its release: 'vllm-0.5' -> ('vllm', '0.5'),
    'vLLM v0.6.3' -> ('vllm', '0.6.3'), 'tensorrt-llm' -> ('tensorrt-llm', None). The version reaches the
    engine generations (serving_constants: vLLM's V0 engine before v0.8); the name is checked by the
    caller. A name that does not read as name + version is returned whole, lower-cased."""
    text = name.strip().lower()
    m = _ENGINE_RELEASE.match(text)
    if m is None:
        return text, None
    return m.group("name"), m.group("version")


def soft_max(a: float, b: float, p: float) -> float:
    """(a^p + b^p)^(1/p): the larger of the two when p is large, their sum when p = 1."""
    if math.isinf(p):
        return max(a, b)
    out: float = (a**p + b**p) ** (1.0 / p)
    return out


def gemm_plus_attention_s(
    *,
    bytes_read: tuple[float, float],
    flops: tuple[float, float],
    bytes_per_s: Range,
    flops_per_s: Range,
    p: float,
    tb: TraceBuilder,
) -> Range:
    """A step's GPU time as two kernels in sequence, each at its own roofline: the GEMMs (weights read,
    matmul FLOPs) then the attention (KV-cache read, attention FLOPs). `bytes_read` and `flops` are
    (GEMMs, attention); the rates are the band's (slow low, fast high). The attention's KV read neither
    hides behind the GEMMs' FLOPs nor they behind it (per-operator roofline: Yuan et al. 2024, LLM-Viewer;
    ATTENTION_KERNELS_APART_SOURCE)."""
    (w_bytes, kv_bytes), (gemm_flops, attn_flops) = bytes_read, flops
    fast = soft_max(w_bytes / bytes_per_s.high, gemm_flops / flops_per_s.high, p) + soft_max(
        kv_bytes / bytes_per_s.high, attn_flops / flops_per_s.high, p
    )
    slow = soft_max(w_bytes / bytes_per_s.low, gemm_flops / flops_per_s.low, p) + soft_max(
        kv_bytes / bytes_per_s.low, attn_flops / flops_per_s.low, p
    )
    out = Range(low=fast, high=slow)
    tb.step(
        "step_gemm_plus_attention_s",
        "soft max(weights read, GEMM FLOPs) + soft max(KV read, attention FLOPs): kernels in sequence",
        out.mid,
        "s",
        K.ATTENTION_KERNELS_APART_SOURCE,
        weight_bytes=w_bytes,
        kv_bytes=kv_bytes,
        gemm_flops=gemm_flops,
        attention_flops=attn_flops,
        low=out.low,
        high=out.high,
    )
    return out


def pipeline_hops_s(stages: int, tb: TraceBuilder | None) -> float:
    """Point-to-point sends between pipeline stages of one token step (one per stage)."""
    if stages == 1:
        return 0.0
    total = stages * K.PIPELINE_HOP_S
    if tb is not None:
        tb.assume("pipeline_hop_s", K.PIPELINE_HOP_S, "s", K.PIPELINE_HOP_SOURCE)
        tb.step("step_pipeline_hops_s", "stages x hop", total, "s", stages=stages)
    return total


def allreduce_s(
    arch: ModelArch,
    gpu: GpuSpec,
    n_gpus: int,
    tokens: float,
    nvlink_latency_s: float,
    tb: TraceBuilder | None,
) -> float:
    """Tensor-parallel all-reduces of one step: 2 per layer, each latency + ring bytes / link rate."""
    if n_gpus == 1:
        return 0.0
    kind = link_kind(gpu, n_gpus)
    latency = nvlink_latency_s if kind == "nvlink" else K.ALLREDUCE_LATENCY_S[kind]
    per_direction = gb_to_bytes(gpu.scale_up_bandwidth_gb_per_s or 64.0) / 2
    rate = (
        per_direction
        * K.LINK_BANDWIDTH_EFFICIENCY
        * (K.NO_P2P_BANDWIDTH_FACTOR if kind == "pcie_no_p2p" else 1.0)
    )
    message = tokens * arch.hidden_size * K.ACTIVATION_BYTES
    per_call = latency + 2 * (n_gpus - 1) / n_gpus * message / rate
    total = K.ALLREDUCES_PER_LAYER * arch.n_layers * per_call
    if tb is not None:
        tb.assume(
            "allreduce_latency_s",
            f"nvlink {K.ALLREDUCE_LATENCY_S['nvlink']}, infinity fabric "
            f"{K.ALLREDUCE_LATENCY_S['infinity_fabric']}, pcie {K.ALLREDUCE_LATENCY_S['pcie']}, "
            f"consumer pcie {K.ALLREDUCE_LATENCY_S['pcie_no_p2p']}",
            "s",
            K.ALLREDUCE_LATENCY_SOURCE,
        )
        tb.step(
            "step_allreduce_s",
            "2 x layers x (latency + 2(n-1)/n x tokens x hidden x 2 B / (link GB/s / 2 x eff))",
            total,
            "s",
            "Megatron-LM tensor parallelism (Shoeybi et al. 2019); ring all-reduce bytes (NCCL)",
            link=kind,
            n_gpus=n_gpus,
            tokens_per_step=tokens,
            latency_s=latency,
        )
    return total


def engine_fixed_s(
    arch: ModelArch,
    framework: str,
    *,
    tp: int,
    stages: int,
    precision: str,
    v0_engine: bool,
    layer_s: float,
    v0_tp_s: float,
    int4_layer_s: float,
    tb: TraceBuilder | None,
) -> float:
    """Fixed time of one token step (all stages) that neither the bytes nor the FLOPs set: the engine's
    latency-bound kernels per layer (serving_constants.LAYER_STEP_S; not for MLA + MoE layers, whose kernel
    floor counts them), vLLM V0's input broadcast to its tensor-parallel workers (VLLM_V0_TP_STEP_S, once per
    stage) and the slow 4-bit weight-only GEMMs of the PyTorch engines (INT4_WEIGHT_ONLY_LAYER_S)."""
    per_layer = 0.0 if arch.uses_mla and arch.is_moe else layer_s
    int4 = int4_layer_s if precision == "int4" and framework in K.INT4_SLOW_KERNEL_FRAMEWORKS else 0.0
    broadcast = v0_tp_s * stages if v0_engine and tp > 1 else 0.0
    total = arch.n_layers * (per_layer + int4) + broadcast
    if tb is not None and total:
        if per_layer:
            tb.assume("layer_step_s", per_layer, f"s per layer ({framework})", K.LAYER_STEP_SOURCE)
        if int4:
            tb.assume("int4_weight_only_layer_s", int4, "s per layer", K.INT4_WEIGHT_ONLY_SOURCE)
        if broadcast:
            tb.assume("vllm_v0_tp_step_s", v0_tp_s, "s per step", K.VLLM_V0_TP_STEP_SOURCE)
        tb.step(
            "step_engine_fixed_s",
            "layers x (per-layer kernel time + 4-bit GEMM time) + V0 TP input broadcast",
            total,
            "s",
            layers=arch.n_layers,
            layer_s=per_layer,
            int4_layer_s=int4,
            v0_tp_broadcast_s=broadcast,
        )
    return total


EAGER_FRAMEWORKS = frozenset({"transformers"})
"""Engines that run the model eagerly from Python, one op at a time (no CUDA graphs): their host issues every
step's ops (serving_constants.EAGER_HOST_S_PER_LAYER)."""


def hit_experts(arch: ModelArch, tokens: float) -> float:
    """Routed experts a step's `tokens` hit in one MoE layer, routing taken as uniform: E x (1 - (1 - k/E)^t)
    (each expert missed by every token's top-k with probability (1 - k/E) per token); 0 for a dense model."""
    if not arch.is_moe or arch.n_experts is None:
        return 0.0
    return experts_hit(n_experts=arch.n_experts, experts_per_token=arch.n_active_experts or 1, tokens=tokens)


def eager_host_s(
    arch: ModelArch, framework: str, precision: str, tb: TraceBuilder | None, tokens: float = 1.0
) -> float:
    """Host time of one decode step of an eager engine (transformers' generate()): layers x (the layer's ops
    + its linears' bitsandbytes ops when the weights are quantised on load: int8 = LLM.int8(), int4 / nf4 =
    4-bit) + MoE layers x experts the step's `tokens` hit x the per-expert loop's ops; 0 for engines that
    replay CUDA graphs. The step is the longer of this and the GPU's time."""
    if framework not in EAGER_FRAMEWORKS:
        return 0.0
    four_bit = K.BNB_4BIT_S_PER_LINEAR
    quant_s = {"int8": K.BNB_INT8_S_PER_LINEAR, "int4": four_bit, "nf4": four_bit}.get(precision, 0.0)
    total = arch.n_layers * (K.EAGER_HOST_S_PER_LAYER + K.LINEARS_PER_LAYER * quant_s)
    experts = hit_experts(arch, tokens)
    if experts:
        moe_s = arch.n_moe_layers * experts * K.EAGER_HOST_S_PER_HIT_EXPERT
        total += moe_s
        if tb is not None:
            tb.assume("eager_host_s_per_hit_expert", K.EAGER_HOST_S_PER_HIT_EXPERT, "s", K.EAGER_MOE_SOURCE)
            tb.step(
                "step_host_moe_s",
                "MoE layers x experts hit (E x (1 - (1 - k/E)^tokens)) x host time per hit expert",
                moe_s,
                "s",
                moe_layers=arch.n_moe_layers,
                experts_hit=experts,
            )
    if tb is not None:
        tb.assume("eager_host_s_per_layer", K.EAGER_HOST_S_PER_LAYER, "s", K.EAGER_HOST_SOURCE)
        if quant_s:
            why = K.BNB_INT8_SOURCE if precision == "int8" else K.BNB_4BIT_SOURCE
            tb.assume("bitsandbytes_s_per_linear", quant_s, f"s ({precision})", why)
        tb.step(
            "step_host_s",
            "layers x (eager host time per layer + linears per layer x bitsandbytes time per linear)",
            total,
            "s",
            layers=arch.n_layers,
            linears_per_layer=K.LINEARS_PER_LAYER,
            quantised_linear_s=quant_s,
        )
    return total


def time_to_first_token(
    *,
    static: bool,
    live: int,
    concurrency: int,
    output_tokens: int,
    prefill_s: Range,
    step: Range,
    tb: TraceBuilder,
) -> Range:
    """Mean time to first token: the request's own prefill, the wait for the running step to end, the
    prompts of other requests prefilled before it, and, beyond what the KV cache holds, the wait for a
    slot. A static batch prefills all its prompts first."""
    if static:
        ttft = Range(low=live * prefill_s.low + step.low, high=live * prefill_s.high + step.high)
        tb.step(
            "time_to_first_token_s", "batch x prefill + one step", ttft.mid, "s", low=ttft.low, high=ttft.high
        )
        return ttft
    # closed loop: requests finish (and are replaced) at live / (output x step) per second (Little's law),
    # so prefill takes a share rho = rate x prefill of the engine's time. Arrivals spread over time (the
    # steady state) queue behind rho / (2 (1 - rho)) prefills (M/D/1 mean wait, Kleinrock 1975); a
    # benchmark that starts all requests at once with fixed lengths (a wave) waits on average for half
    # of the other live prompts. The band spans the two.
    rho = Range(
        low=min(K.MAX_PREFILL_UTILISATION, live * prefill_s.low / (output_tokens * step.high)),
        high=min(K.MAX_PREFILL_UTILISATION, live * prefill_s.high / (output_tokens * step.low)),
    )
    steady = rho.low / (2 * (1 - rho.low)) * prefill_s.low
    wave = (live - 1) / 2 * prefill_s.high
    # waiting beyond what the cache holds: Little's law, time in system = concurrency x output / throughput
    kv_wait = Range(low=0.0, high=0.0)
    if concurrency > live:
        extra = (concurrency - live) / live
        kv_wait = Range(low=extra * output_tokens * step.low, high=extra * output_tokens * step.high)
    ttft = Range(
        low=prefill_s.low + step.low / 2 + steady + kv_wait.low,
        high=prefill_s.high
        + step.high
        + max(wave, rho.high / (2 * (1 - rho.high)) * prefill_s.high)
        + kv_wait.high,
    )
    tb.step(
        "time_to_first_token_s",
        "prefill + 1/2 to 1 step + queue behind other prompts (steady: rho/(2(1-rho)) x prefill; wave: "
        "(live-1)/2 x prefill) + KV-slot wait ((concurrency - live)/live x output x step)",
        ttft.mid,
        "s",
        prefill_share_rho=rho.mid,
        low=ttft.low,
        high=ttft.high,
    )
    return ttft
