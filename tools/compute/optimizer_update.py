"""The optimizer update, paid once per optimizer step: AdamW reads and writes every trained parameter's
states once per step, a memory-bound pass the FLOPs count does not see. It weighs on small steps (few tokens
per GPU per step) and not on pretraining-size steps.

    seconds_per_step  = bytes_per_param x params_updated_per_gpu / memory_bandwidth
    seconds_per_token = seconds_per_step / (micro_batch x seq_len x micro_batches_per_step)
    throughput_eff'   = 1 / (1 / throughput_eff + peak_flops x seconds_per_token / flops_per_token)

Full fine-tuning and pretraining only (LoRA's adapters are ~1% of the weights). Charged only where the step
is stated (micro-batch given): with no batch the estimate does not know the step's tokens, and a guessed
small step would move every unstated full fine-tune (bench/data/README.md, tim16). Micro-batches per step:
the time request's --grad-accumulation (default 1; tim17), a row's global batch / (micro-batch x dp).
"""

from __future__ import annotations

from tools.catalog.schema import GpuSpec
from tools.compute.parallel import PIPELINE_MICRO_BATCHES_PER_STAGE
from tools.ranges import Range
from tools.trace import TraceBuilder
from tools.units import tflops_to_flops

# AdamW with FP32 master weights (mixed precision; Micikevicius et al. 2018, arXiv 1710.03740, sec. 3.1;
# torch.optim.AdamW's foreach/fused step): read the 16-bit gradient (2 B), read and write the FP32 master
# weight, first and second moments (3 x 4 B x 2 = 24 B), write the 16-bit working weight (2 B): 28 B per
# parameter (bench/data/README.md, tim15's screen). Pure 16-bit states (no master copy: weight, moments and
# gradient in BF16) move half of that: 14 B.
OPTIMIZER_BYTES_PER_PARAM_MIXED = 28.0
OPTIMIZER_BYTES_PER_PARAM_PURE_16BIT = 14.0
OPTIMIZER_UPDATE_SOURCE = (
    "AdamW step, bandwidth-bound: FP32 master + 2 moments read and written, 16-bit gradient read and weight "
    "written, 28 B/param (14 B pure 16-bit); Micikevicius et al. 2018 mixed precision"
)
PURE_16BIT_PRECISIONS = frozenset({"pure-bf16", "pure-fp16"})
"""tools.vocabulary.TrainingPrecision values without an FP32 master: the optimizer moves 14 B/param."""
OPTIMIZER_SHARDED = frozenset({"zero1", "zero2", "zero3", "fsdp"})
"""Shardings that split the optimizer states over the data-parallel ranks (ZeRO stages 1-3, FSDP): each
GPU updates its 1/dp share (Rajbhandari et al. 2020, ZeRO, sec. 5)."""


def params_updated_per_gpu(
    *, total_params: float, n_gpus: int, sharding: str | None, tensor_parallel: int, pipeline_stages: int
) -> float:
    """The parameters whose optimizer states one GPU updates: the model split by TP x PP, and by the
    data-parallel degree where the states are sharded."""
    model_parallel = max(1, tensor_parallel * pipeline_stages)
    dp = max(1, n_gpus // model_parallel)
    per_gpu = total_params / model_parallel
    return per_gpu / dp if sharding in OPTIMIZER_SHARDED else per_gpu


def optimizer_seconds_per_token(
    *,
    params_per_gpu: float,
    step_tokens_per_gpu: float,
    gpu: GpuSpec,
    bytes_per_param: float = OPTIMIZER_BYTES_PER_PARAM_MIXED,
) -> float:
    """Seconds of optimizer update per trained token on one GPU."""
    seconds_per_step = bytes_per_param * params_per_gpu / (gpu.memory_bandwidth_tb_per_s * 1e12)
    return seconds_per_step / step_tokens_per_gpu


def optimizer_bytes_per_param(training_precision: str | None) -> float:
    """AdamW's bytes per parameter a step for a precision regime (tools.vocabulary.TrainingPrecision): pure
    16-bit 14 B; mixed, or not stated (the FP32 master most stacks keep; the memory side's default), 28 B."""
    if training_precision in PURE_16BIT_PRECISIONS:
        return OPTIMIZER_BYTES_PER_PARAM_PURE_16BIT
    return OPTIMIZER_BYTES_PER_PARAM_MIXED


def step_seconds_per_token(
    *,
    total_params: float,
    n_gpus: int,
    sharding: str | None,
    tensor_parallel: int,
    pipeline_stages: int,
    pipeline_micro_batches: int | None,
    tokens_per_micro_batch: float,
    gradient_accumulation_steps: int,
    training_precision: str | None,
    gpu: GpuSpec,
) -> tuple[float, float, float, float]:
    """(seconds per token, bytes per param, params per GPU, tokens per GPU per step) of a request's layout. A
    GPU's tokens per step: micro-batch tokens x accumulation x pipeline micro-batches / (TP x PP)."""
    model_parallel = max(1, tensor_parallel * pipeline_stages)
    # a pipeline's step runs its m micro-batches: unstated, 4-8 per stage (their geometric middle)
    per_stage = PIPELINE_MICRO_BATCHES_PER_STAGE
    unstated = pipeline_stages * (per_stage.low * per_stage.high) ** 0.5
    m = (pipeline_micro_batches or unstated) if pipeline_stages > 1 else 1
    step_tokens = tokens_per_micro_batch * gradient_accumulation_steps * m / model_parallel
    params = params_updated_per_gpu(
        total_params=total_params,
        n_gpus=n_gpus,
        sharding=sharding,
        tensor_parallel=tensor_parallel,
        pipeline_stages=pipeline_stages,
    )
    bytes_per_param = optimizer_bytes_per_param(training_precision)
    seconds = optimizer_seconds_per_token(
        params_per_gpu=params, step_tokens_per_gpu=step_tokens, gpu=gpu, bytes_per_param=bytes_per_param
    )
    return seconds, bytes_per_param, params, step_tokens


def with_optimizer_update(
    tb: TraceBuilder,
    thr: Range,
    *,
    total_params: float,
    n_gpus: int,
    sharding: str | None,
    tensor_parallel: int,
    pipeline_stages: int,
    pipeline_micro_batches: int | None,
    tokens_per_micro_batch: float,
    gradient_accumulation_steps: int,
    training_precision: str | None,
    gpu: GpuSpec,
    peak_tflops: float,
    flops_per_token: float,
) -> Range:
    """The throughput efficiency with the optimizer update's time added to each token's time."""
    seconds, bytes_per_param, params, step_tokens = step_seconds_per_token(
        total_params=total_params,
        n_gpus=n_gpus,
        sharding=sharding,
        tensor_parallel=tensor_parallel,
        pipeline_stages=pipeline_stages,
        pipeline_micro_batches=pipeline_micro_batches,
        tokens_per_micro_batch=tokens_per_micro_batch,
        gradient_accumulation_steps=gradient_accumulation_steps,
        training_precision=training_precision,
        gpu=gpu,
    )
    extra = tflops_to_flops(peak_tflops) * seconds / flops_per_token
    out = Range(low=1.0 / (1.0 / thr.low + extra), high=1.0 / (1.0 / thr.high + extra))
    tb.assume("optimizer_update", f"AdamW, {bytes_per_param:.0f} B/param a step", "", OPTIMIZER_UPDATE_SOURCE)
    tb.assume(
        "training_precision",
        training_precision or "mixed (not given: FP32 master weights and moments assumed)",
        "",
        "--training-precision: mixed keeps FP32 master weights and moments (28 B/param a step), pure-bf16 / "
        "pure-fp16 keep them in 16 bits (14 B)",
    )
    tb.step(
        "throughput_efficiency_optimizer_update",
        "1 / (1 / throughput_efficiency + peak_flops x bytes_per_param x params_per_gpu "
        "/ (memory_bandwidth x step_tokens_per_gpu x flops_per_token))",
        out.mid,
        "fraction",
        OPTIMIZER_UPDATE_SOURCE,
        bytes_per_param=bytes_per_param,
        params_per_gpu=params,
        step_tokens_per_gpu=step_tokens,
        gradient_accumulation_steps=gradient_accumulation_steps,
        training_precision=training_precision,
        memory_bandwidth_tb_per_s=gpu.memory_bandwidth_tb_per_s,
        optimizer_seconds_per_token=seconds,
        low=out.low,
        high=out.high,
    )
    return out
