"""The memory-bandwidth ceiling of decoding: the most output tokens per second named GPUs can give at a load,
whatever the software (expert review 19, R06: a vendor's 2,000 tokens/s for Llama 3.1 405B BF16 on 8x MI300X
at 64 users was answered a flat "No" because the serving model's range, 837-1,250, sits below it, while the
bandwidth bound is about 2,000-3,150: the claim is optimistic, not impossible).

One decode step of a replica reads every weight once and each sequence's KV cache once, and gives one token
per sequence in flight (the decode roofline of the serving model, tools/compute/serving.py, at full
datasheet bandwidth, with no prefill sharing the steps and no kernel or all-reduce time):

    step_s          = (weight bytes + concurrency x KV bytes per sequence) / (GPUs x bandwidth)
    ceiling tokens/s = concurrency / step_s

The KV bytes are a sequence's at its mean length while it decodes (prompt + half the output, as the serving
model reads them; tools.catalog.schema.ModelArch.kv_cache_bytes, 16-bit values). A claimed rate above the
ceiling is impossible on that hardware; one between the serving model's range and the ceiling needs that
share of the datasheet bandwidth for decoding alone: a decode-only benchmark with near-ideal kernels, not
a served load."""

from __future__ import annotations

from dataclasses import dataclass

from tools.catalog.schema import GpuSpec, ModelArch

KV_BYTES_PER_VALUE = 2.0
"""16-bit KV cache values (the serving model's default; tools.compute.serving)."""


@dataclass(frozen=True)
class DecodeCeiling:
    """The ceiling and what it was computed from (bytes per step and the bandwidth of the replica)."""

    tokens_per_s: float
    weight_bytes: float
    kv_bytes_per_sequence: float
    bandwidth_bytes_per_s: float


def decode_ceiling(
    *,
    arch: ModelArch,
    gpu: GpuSpec,
    n_gpus: int,
    concurrency: int,
    weight_bytes: float,
    prompt_tokens: int,
    output_tokens: int,
) -> DecodeCeiling:
    """The decode ceiling of `n_gpus` x `gpu` at `concurrency` sequences (module docstring)."""
    if n_gpus <= 0 or concurrency <= 0 or weight_bytes <= 0:
        raise ValueError("n_gpus, concurrency and weight_bytes must be > 0")
    mean_tokens = int(prompt_tokens + output_tokens / 2)
    kv = arch.kv_cache_bytes(mean_tokens, KV_BYTES_PER_VALUE)
    bandwidth = n_gpus * gpu.memory_bandwidth_tb_per_s * 1e12
    step_s = (weight_bytes + concurrency * kv) / bandwidth
    return DecodeCeiling(concurrency / step_s, weight_bytes, kv, bandwidth)
