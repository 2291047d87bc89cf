"""Named, sourced constants of the serving model (tools.compute.serving).

The efficiency bands were fitted on the fit families of bench/data/serving_throughput.yaml
(`python -m bench.serving_accuracy --fit` prints the grid search); the held-out families
(NIM, the H200 launch blog, GigaGPU, the A100 sweep) were never used to choose them.
Every other constant is a framework default or a datasheet-level figure with its source.
"""

from __future__ import annotations

from typing import Final

from tools.ranges import Range

# --- decode and prefill efficiency (fitted) --------------------------------------------------------
BANDWIDTH_EFFICIENCY = Range(low=0.56, high=0.875)  # fitted centre 0.70, band x/÷ 1.25
"""Share of datasheet HBM bandwidth a decode step's weight and KV reads reach."""
BANDWIDTH_EFFICIENCY_SOURCE = (
    "fitted on bench/data/serving_throughput.yaml fit families (TensorRT-LLM perf pages 2023 and v1.0, "
    "RTX 4090 vLLM blog, Spheron H100 blog); decode kernels reach 60-90% of datasheet bandwidth"
)
COMPUTE_EFFICIENCY = Range(low=0.40, high=0.625)  # fitted centre 0.50, band x/÷ 1.25
"""Share of dense tensor peak a batched step's matmuls reach (decode at large batch, chunked prefill)."""
COMPUTE_EFFICIENCY_SOURCE = "fitted on the serving fit families (see BANDWIDTH_EFFICIENCY_SOURCE)"
STEP_OVERHEAD_S = Range(low=0.00008, high=0.000125)  # fitted centre 0.1 ms, band x/÷ 1.25
"""Fixed time per engine step besides GPU work: scheduling, sampling, kernel-launch gaps (CUDA graphs)."""
STEP_OVERHEAD_SOURCE = (
    "fitted on the serving fit families (the step's CPU work mostly overlaps GPU work in current engines: "
    "vLLM V1 blog, 2025)"
)

# --- memory available to the KV cache ---------------------------------------------------------------
GPU_MEMORY_UTILIZATION: Final = 0.90
"""Share of usable GPU memory the engine claims (vLLM `gpu_memory_utilization` default 0.9; TensorRT-LLM
`free_gpu_memory_fraction` 0.9 of what is left after weights)."""
GPU_MEMORY_UTILIZATION_SOURCE = "vLLM engine args: gpu_memory_utilization=0.9 (default)"
RUNTIME_RESERVE_GIB_PER_GPU: Final = 2.0
"""Per GPU: activations of the largest step, CUDA graphs, communication buffers (vLLM profiles ~1-3 GiB)."""
RUNTIME_RESERVE_SOURCE = "estimate: vLLM's profile run reserves ~1-3 GiB for activations and CUDA graphs"
MAX_BATCH_BY_FRAMEWORK: dict[str, int] = {
    "vllm": 256,  # vLLM engine args: max_num_seqs default 256
    "sglang": 1024,  # estimate: SGLang sizes max_running_requests from the KV pool, CUDA graphs to 512+
    "tensorrt-llm": 2048,  # trtllm-build / LLM API max_batch_size default 2048
    "tgi": 256,  # estimate: TGI caps the batch by max_batch_total_tokens; comparable to vLLM's 256
}
MAX_BATCH_SOURCE = "framework defaults: vLLM max_num_seqs=256, TensorRT-LLM max_batch_size=2048"
PROMPT_TOKENS_DEFAULT: Final = 1000
OUTPUT_TOKENS_DEFAULT: Final = 1000
"""Request shape when unstated: 1000 in / 1000 out, the common shape of serving benchmark tables
(TensorRT-LLM perf overview, vLLM benchmark_serving examples)."""
FRAMEWORK_DEFAULT_SERVING: Final = "vllm"
"""The inference server assumed when none is named (the most deployed open server)."""

# --- tensor-parallel communication ------------------------------------------------------------------
ALLREDUCES_PER_LAYER: Final = 2
"""Megatron-style tensor parallelism: one all-reduce after attention, one after the MLP, per layer
(Shoeybi et al. 2019, Megatron-LM section 3)."""
ACTIVATION_BYTES: Final = 2.0
"""All-reduced activations are 16-bit (BF16/FP16) even with FP8 weights."""
NVLINK_ALLREDUCE_LATENCY_S: Final = 40e-6
"""Effective time of one small all-reduce on NVLink, sync and launch included: fitted on the fit families
(grid 8-40 us, the range nccl-tests report for small NVLink all-reduces; the fit picks the top)."""
ALLREDUCE_LATENCY_S: dict[str, float] = {
    "nvlink": NVLINK_ALLREDUCE_LATENCY_S,
    "pcie": 1.5 * NVLINK_ALLREDUCE_LATENCY_S,  # nccl-tests: PCIe small all-reduce ~1.5-2x NVLink's
    "pcie_no_p2p": 3.0 * NVLINK_ALLREDUCE_LATENCY_S,  # GeForce: no peer-to-peer, staged through host
}
ALLREDUCE_LATENCY_SOURCE = (
    "NVLink: fitted; PCIe 1.5x and consumer PCIe 3x NVLink (nccl-tests small-message latency; GeForce RTX "
    "40/50 series have peer-to-peer disabled, so NCCL stages through host memory). No multi-GPU PCIe row "
    "in the calibration set: these two are estimates"
)
LINK_BANDWIDTH_EFFICIENCY: Final = 0.7
"""Bus bandwidth NCCL all-reduce reaches of the per-direction link rate (nccl-tests busbw ~70-80%)."""
NO_P2P_BANDWIDTH_FACTOR: Final = 0.5
"""Consumer cards without peer-to-peer copy through host memory: each byte crosses PCIe twice."""
NVLINK_LINKS = frozenset({"nvlink3", "nvlink4", "nvlink5", "nvlink_c2c", "infinity_fabric"})
"""Scale-up links that join every GPU of a node all-to-all (NVSwitch, Infinity Fabric mesh)."""

PIPELINE_HOP_S: Final = 50e-6
"""One send of a micro-batch's activations to the next pipeline stage across nodes (a few KB to MB):
launch, synchronisation and one InfiniBand/RoCE transfer."""
PIPELINE_HOP_SOURCE = (
    "estimate: NCCL send/recv over InfiniBand ~10-50 us for small messages (nccl-tests sendrecv); no "
    "multi-node serving row in the calibration set"
)

# --- prefill and time to first token ----------------------------------------------------------------
ATTENTION_FLOPS_PER_KEY_PER_WIDTH: Final = 4
"""QK^T and AV: 2 multiply-adds (4 FLOPs) per key per attention-width unit per layer."""

# --- structure chosen by the fit (bench/serving_accuracy.py --fit) ----------------------------------
OVERLAP_EXPONENT: Final = 1.5
"""Step time = (memory^p + compute^p)^(1/p): p -> infinity is the roofline's max, p = 1 no overlap. Near
the ridge point kernels reach neither roof (Williams et al. 2009, Roofline); p fitted."""
MOE_COMPUTE_EFFICIENCY_FACTOR: Final = 0.7
"""MoE steps reach this share of a dense model's compute efficiency: grouped expert GEMMs, routing and
expert imbalance (fitted on the Qwen3 235B-A22B fit rows; MegaBlocks, Gale et al. 2023)."""
PAGED_KV_CAPACITY: Final = True
"""The cache holds sequences at their mean length (prompt + output/2), as paged KV caches (vLLM
PagedAttention, Kwon et al. 2023; TensorRT-LLM paged KV) admit by current use, not the maximum."""
FP8_KV_WITH_FP8_WEIGHTS: Final = True
"""With FP8 weights on TensorRT-LLM the KV cache is FP8 unless stated (ModelOpt FP8 checkpoints quantise
the KV cache: kv_cache_quant_algo FP8)."""
