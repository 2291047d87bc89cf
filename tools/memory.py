"""Calculator 1: peak GPU memory of training (full, LoRA, QLoRA, pre-training) and inference.

Model of the peak, per GPU, in GiB (2**30 bytes), as a sum of named lines:

    peak = weights + gradients + optimizer + activations + kv_cache + adapters + overhead

- weights: the (frozen or trained) model in its storage precision, split by tensor (tp) and pipeline
  (pp) parallelism, sharded over data-parallel ranks by ZeRO-3/FSDP, plus the gathered layers ZeRO-3
  needs in flight.
- gradients / optimizer: full training only (ZeRO paper, Rajbhandari et al. 2020, Section 5: "mixed
  precision Adam = 2 + 2 + 12 bytes per parameter"); ZeRO-1 shards the optimizer, ZeRO-2 also the
  gradients, ZeRO-3/FSDP also the weights.
- adapters: LoRA/QLoRA adapter weights + their gradients + their optimizer states.
- activations: tools.memory_activations (Korthikanti et al. 2022 adapted to SwiGLU/GQA/MLA), the layer
  inputs kept by gradient checkpointing, the logits with their fp32 upcast and gradient, LoRA
  intermediates and QLoRA dequantisation buffers.
- kv_cache: inference, at concurrency x context (ModelArch.kv_cache_bytes: GQA, MLA, sliding windows).
- overhead: CUDA context + framework, NCCL buffers when several GPUs talk, and the caching allocator's
  fragmentation as a named fraction of the dynamic memory.

Modules: tools.vocabulary (option names, defaults), tools.memory_types (plan, results),
tools.memory_states (weights, gradients, optimizer, adapters, sharding, offload),
tools.memory_activations (activations, logits, KV cache), tools.memory_calibration (the measured rows
it is checked against). This module validates the inputs,
adds the overhead and assembles the result.

Why 16 bytes per parameter for mixed precision, not seed 001's 18: the common fine-tuning stacks
(Hugging Face Trainer/accelerate AMP, DeepSpeed ZeRO, PyTorch FSDP MixedPrecision) keep 16-bit weights
and gradients plus an fp32 master copy and fp32 Adam m and v = 2 + 2 + 4 + 4 + 4 = 16 B (ZeRO paper;
AMP keeps fp32 weights and gradients instead: 4 + 4 + 8 = 16 B too). 18 B is Megatron-LM's count,
which accumulates gradients in fp32 (2 + 4 + 12). `seed_rule_gb` keeps seed 001's 18 B rule for
comparisons.

Paged optimizers (paged-adamw-8bit) allocate their state in CUDA unified memory: the driver evicts
pages to host RAM only under memory pressure. The estimate counts the state as resident on the GPU
(what it uses when it fits); a GPU that is short of it by less than that state will page instead of
failing, at a speed cost (the result's `paged_optimizer_gib` says how much could spill).
"""

from __future__ import annotations

import dataclasses

from tools import memory_reserve
from tools.catalog.schema import ModelArch
from tools.errors import InputError
from tools.memory_activations import inference_memory, training_activations
from tools.memory_arch import lora_param_count, resolve_lora_targets
from tools.memory_frameworks import (
    LOSS_IMPL_DEFAULT,
    LOSS_IMPLS,
    MEMORY_BASES,
    MEMORY_BASIS_DEFAULT,
    OPTIMIZER_IMPLS,
    framework_defaults,
)
from tools.memory_megatron import check_fp8
from tools.memory_model_code import model_code_extras
from tools.memory_options import OptionPicker, option_values
from tools.memory_phases import PhaseLines, largest_phase, training_phases, variable_length_reserve
from tools.memory_preference import reference_forward_bytes, reference_weight_bytes, sequences_in_micro_batch
from tools.memory_reserve import ALLOCATOR_FRAGMENTATION_FRACTION as ALLOCATOR_FRAGMENTATION_FRACTION
from tools.memory_states import NF4_BYTES_PER_PARAM, WEIGHT_BYTES, model_states
from tools.memory_types import MemoryBreakdown, MemoryEstimate, Plan
from tools.preference import TRAINING_OBJECTIVE_DEFAULT, check_objective
from tools.trace import TraceBuilder, UntracedBuilder
from tools.units import BYTES_PER_GB, bytes_to_gib
from tools.vocabulary import (
    BATCH_SIZE_DEFAULT,
    FRAMEWORK_DEFAULT,
    LORA_RANK_DEFAULT,
    LORA_TARGETS_DEFAULT,
    METHODS,
    OFFLOADS,
    OPTIMIZER_DEFAULT,
    OPTIMIZERS,
    PRECISIONS,
    QUANTIZED,
    SEQ_LEN_DEFAULT,
    SHARDINGS,
    TRAINING_PRECISION_DEFAULT,
    TRAINING_PRECISIONS,
)

CUDA_CONTEXT_GIB = 0.5
"""CUDA context, kernels and cuBLAS/cuDNN workspaces that the PyTorch allocator does not report: about
0.3-0.6 GiB with CUDA lazy loading on A100/H100 (PyTorch 'Understanding CUDA memory usage' notes;
estimators.md: 0.3-2 GiB)."""
NCCL_BUFFERS_GIB = 0.5
"""NCCL communicator buffers when more than one GPU takes part (NCCL_BUFFSIZE 4 MiB x channels x peers,
plus the DDP/FSDP bucket that is being reduced); ~0.3-1 GiB observed on 8-GPU nodes."""
RESERVE_NEVER_SHRINKS = True
"""torch.cuda.reset_peak_memory_stats sets the reserved peak to what the caching allocator holds at that
moment, and the pool only shrinks on empty_cache (PyTorch 'CUDA semantics: memory management'): a run
whose counters are reset after loading and wrapping the model (AnswerDotAI fsdp_qlora train.py,
`reserved_after_model_wrap`) peaks at least at that reserve."""
SEED_001_BYTES_PER_PARAM: dict[str, float] = {
    "full": 18.0,
    "pretraining": 18.0,
    "lora": 2.0,
    "qlora": 0.5,
    "inference": 2.0,
}
"""Seed 001's table: 18 B/param full fine-tuning, 2 B LoRA base, 0.5 B QLoRA base, 2 B bf16 inference."""
SEED_001_ADAPTER_OVERHEAD_GB: dict[str, float] = {"lora": 9.0, "qlora": 12.0}
"""Seed 001's adapter overhead: LoRA '~6-12 GB' (midpoint 9), QLoRA '~5-15 GB' with 12 GB in its worked
example."""


def default_precision(method: str) -> str:
    """Weight precision when none is given: NF4 for QLoRA, bf16 otherwise."""
    return "nf4" if method == "qlora" else "bf16"


def _choose(name: str, value: str, allowed: tuple[str, ...]) -> str:
    if value not in allowed:
        raise InputError(f"unknown {name} {value!r}: use one of {', '.join(allowed)}")
    return value


def _positive(name: str, value: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise InputError(f"{name} must be a whole number >= 1 (got {value!r})")
    return value


def _plan(
    arch: ModelArch,
    method: str,
    precision: str | None,
    training_precision: str,
    optimizer: str,
    lora_rank: int,
    lora_targets: str | list[str] | tuple[str, ...],
    seq_len: int,
    batch_size: int,
    grad_checkpointing: bool,
    flash_attention: bool,
    gpus: int,
    sharding: str,
    tp: int,
    pp: int,
    offload: str,
    concurrency: int,
    context_len: int | None,
    loss_chunking: bool | None,
    optimizer_in_backward: bool | None,
    tb: TraceBuilder,
    framework: str | None = None,
    optimizer_impl: str | None = None,
    lora_dropout: float | None = None,
    activation_offloading: bool | None = None,
    memory_basis: str = MEMORY_BASIS_DEFAULT,
    compiled_loss: bool = False,
    loss_upcast: bool | None = None,
    loss_impl: str | None = None,
    logits_held: bool = False,
    returns_kv_cache: bool | None = None,
    model_code: str | None = None,
    grad_accumulation_steps: int = 1,
    variable_length: bool = False,
    lora_fused_qkv: bool = False,
    fp32_unquantized: bool | None = None,
    quant_saves_input: bool | None = None,
    lora_fp32_adapters: bool | None = None,
    fsdp_limit_all_gathers: bool | None = None,
    fp8_linears: bool | None = None,
    fp8_params: bool | None = None,
    grad_reduce_in_fp32: bool | None = None,
    picker: OptionPicker | None = None,
) -> Plan:
    """Validate every input (one-line InputError that says what to do) and resolve the defaults."""
    method = _choose("method", method, METHODS)
    prec = _choose("precision", precision or default_precision(method), PRECISIONS)
    _choose("training precision", training_precision, TRAINING_PRECISIONS)
    _choose("optimizer", optimizer, OPTIMIZERS)
    _choose("sharding", sharding, SHARDINGS)
    _choose("offload", offload, OFFLOADS)
    preset = framework_defaults(framework)
    pick = picker or OptionPicker()
    pick.bind(framework or FRAMEWORK_DEFAULT, preset)
    _choose("memory basis", memory_basis, MEMORY_BASES)
    given_loss = loss_impl is not None
    loss_impl = _choose("loss implementation", pick.pick("loss_impl", loss_impl), LOSS_IMPLS)
    if optimizer_impl is not None:
        _choose("optimizer implementation", optimizer_impl, OPTIMIZER_IMPLS)
    if lora_dropout is not None and not (isinstance(lora_dropout, int | float) and 0 <= lora_dropout < 1):
        raise InputError(f"lora-dropout must be a probability in [0, 1) (got {lora_dropout!r})")
    for name, val in (
        ("seq-len", seq_len),
        ("batch-size", batch_size),
        ("gpus", gpus),
        ("tp", tp),
        ("pp", pp),
        ("concurrency", concurrency),
        ("lora-rank", lora_rank),
    ):
        _positive(name, val)
    if context_len is not None:
        _positive("context-len", context_len)
    training, adapters, quant = method != "inference", method in ("lora", "qlora"), prec in QUANTIZED
    checks = (
        (
            gpus % (tp * pp) != 0,
            f"tp x pp = {tp * pp} must divide the number of GPUs ({gpus}): adjust --tp, --pp or --gpus",
        ),
        # Megatron/vLLM split whole heads: tp must divide them. A synthetic (--params-b) shape's head count
        # is invented, so there only tp <= heads is required.
        (
            tp > arch.n_heads or (arch.n_heads % tp != 0 and arch.family != "synthetic"),
            f"--tp {tp} must divide the model's {arch.n_heads} attention heads",
        ),
        (pp > arch.n_layers, f"--pp {pp} is more pipeline stages than the model's {arch.n_layers} layers"),
        (
            method == "qlora" and prec not in QUANTIZED,
            f"QLoRA needs a quantised base (nf4, int4, int8 or fp8), not {prec}: use --method lora",
        ),
        (
            method in ("full", "pretraining") and prec in QUANTIZED,
            f"{method} training cannot update {prec} weights: use --precision bf16, or --method qlora",
        ),
        (method == "lora" and prec in QUANTIZED, f"LoRA on a {prec} base is QLoRA: use --method qlora"),
        (
            training and training_precision != "mixed" and prec == "fp32",
            f"--training-precision {training_precision} contradicts --precision fp32: pick one",
        ),
        (
            adapters and lora_rank > arch.hidden_size,
            f"LoRA rank {lora_rank} exceeds the model's hidden size {arch.hidden_size}: use a smaller rank",
        ),
        (
            offload == "params" and sharding not in ("zero3", "fsdp"),
            "--offload params needs --sharding zero3 or fsdp (parameters are offloaded by shard)",
        ),
        (
            not training and sharding not in ("none", "ddp"),
            "ZeRO/FSDP sharding applies to training: for inference split the model with --tp/--pp",
        ),
        (
            not training and offload != "none",
            "--offload applies to training: for inference use --tp/--pp or a quantised --precision",
        ),
    )
    for failed, message in checks:
        if failed:
            raise InputError(message)
    dp = gpus // (tp * pp)
    if sharding == "none" and dp > 1:
        sharding = "ddp"
        tb.assume(
            "sharding_with_several_gpus", "ddp", source="--sharding none over data-parallel ranks = DDP"
        )
    if not training and context_len is None:
        tb.assume("context_len", seq_len, "tokens", "no --context-len given: the sequence length is used")
    tokens = seq_len if training else (context_len if context_len is not None else seq_len)
    if arch.max_context and tokens > arch.max_context:
        # Not an error (RoPE scaling and long-context fine-tunes exist), but the figure is for a length
        # the model was not trained for: say so where the report lists assumptions.
        tb.assume(
            "tokens_beyond_model_max_context",
            tokens,
            "tokens",
            f"above {arch.id}'s max context of {arch.max_context:,} tokens: needs RoPE scaling or a "
            "long-context variant",
        )
    plan = Plan(
        arch=arch,
        method=method,
        precision=prec,
        training_precision=training_precision,
        optimizer=optimizer,
        lora_rank=lora_rank,
        lora_targets=resolve_lora_targets(arch, lora_targets) if adapters else (),
        seq_len=seq_len,
        batch_size=batch_size,
        grad_checkpointing=grad_checkpointing,
        flash_attention=flash_attention,
        gpus=gpus,
        sharding=sharding,
        tp=tp,
        pp=pp,
        offload=offload,
        concurrency=concurrency,
        context_len=context_len if context_len is not None else seq_len,
        loss_chunking=pick.pick("loss_chunking", loss_chunking),
        # adapter gradients are tiny: a fused optimizer step in backward changes nothing that matters
        optimizer_in_backward=pick.pick("optimizer_in_backward", optimizer_in_backward) and not adapters,
        framework=framework or FRAMEWORK_DEFAULT,
        optimizer_impl=pick.pick("optimizer_impl", optimizer_impl),
        lora_dropout=float(pick.pick("lora_dropout", lora_dropout)) if adapters else 0.0,
        activation_offloading=pick.pick("activation_offloading", activation_offloading) and training,
        amp_framework=preset.amp,
        hf_layer_extras=model_code_extras(
            pick.pick("model_code", model_code, "hf" if preset.hf_layer_extras else "plain"),
            preset.hf_layer_extras,
        ),
        memory_basis=memory_basis,
        compiled_loss=compiled_loss,
        loss_upcast=pick.pick("loss_upcast", loss_upcast),
        loss_impl=loss_impl,
        logits_held=logits_held and training,
        returns_kv_cache=pick.pick("returns_kv_cache", returns_kv_cache) and training,
        grad_accumulation_steps=_positive("grad_accumulation_steps", grad_accumulation_steps),
        variable_length=variable_length and training,
        lora_fused_qkv=lora_fused_qkv and adapters,
        fp32_unquantized=pick.pick("fp32_unquantized", fp32_unquantized) and quant,
        quant_saves_input=pick.pick("quant_saves_input", quant_saves_input) and quant and training,
        lora_fp32_adapters=pick.pick("lora_fp32_adapters", lora_fp32_adapters) and adapters and not quant,
        fsdp_limit_all_gathers=pick.pick("fsdp_limit_all_gathers", fsdp_limit_all_gathers),
        fused_swiglu=preset.fused_swiglu,
        fp8_linears=pick.pick("fp8_linears", fp8_linears),
        fp8_params=pick.pick("fp8_params", fp8_params),
        grad_reduce_in_fp32=pick.pick(
            "grad_reduce_in_fp32", grad_reduce_in_fp32, preset.persistent_fp32_grads
        ),
    )
    check_fp8(plan)
    if plan.loss_chunking and given_loss and loss_impl != LOSS_IMPL_DEFAULT:
        raise InputError(f"loss implementation {loss_impl!r} is an unchunked loss: set loss_chunking False")
    pick.assume(tb, preset.source)
    return plan


def estimate_memory(
    *,
    arch: ModelArch,
    method: str,
    precision: str | None = None,
    training_precision: str = TRAINING_PRECISION_DEFAULT,
    optimizer: str = OPTIMIZER_DEFAULT,
    lora_rank: int = LORA_RANK_DEFAULT,
    lora_targets: str | list[str] | tuple[str, ...] = LORA_TARGETS_DEFAULT,
    seq_len: int = SEQ_LEN_DEFAULT,
    batch_size: int = BATCH_SIZE_DEFAULT,
    grad_checkpointing: bool = True,
    flash_attention: bool = True,
    gpus: int = 1,
    sharding: str = "none",
    tp: int = 1,
    pp: int = 1,
    offload: str = "none",
    concurrency: int = 1,
    context_len: int | None = None,
    loss_chunking: bool | None = None,
    optimizer_in_backward: bool | None = None,
    framework: str = FRAMEWORK_DEFAULT,
    optimizer_impl: str | None = None,
    lora_dropout: float | None = None,
    activation_offloading: bool | None = None,
    memory_basis: str = MEMORY_BASIS_DEFAULT,
    compiled_loss: bool = False,
    loss_upcast: bool | None = None,
    loss_impl: str | None = None,
    logits_held: bool = False,
    returns_kv_cache: bool | None = None,
    model_code: str | None = None,
    grad_accumulation_steps: int = 1,
    variable_length: bool = False,
    lora_fused_qkv: bool = False,
    fp32_unquantized: bool | None = None,
    quant_saves_input: bool | None = None,
    lora_fp32_adapters: bool | None = None,
    fsdp_limit_all_gathers: bool | None = None,
    fp8_linears: bool | None = None,
    fp8_params: bool | None = None,
    grad_reduce_in_fp32: bool | None = None,
    training_objective: str = TRAINING_OBJECTIVE_DEFAULT,
    precompute_ref_log_probs: bool = False,
    reserved_at_reset_gib: float = 0.0,
    kv_cache_precision: str | None = None,
    traced: bool = True,
) -> MemoryEstimate:
    """Peak GPU memory per GPU and in total for one training or inference configuration.

    Inputs: `arch` (a catalog or config.json architecture); `method` full | lora | qlora | pretraining |
    inference; weight `precision` (default nf4 for QLoRA, bf16 otherwise); `training_precision` mixed
    (fp32 master + fp32 states) or pure-bf16 / pure-fp16 (all 16-bit); `optimizer`; LoRA `lora_rank` and
    `lora_targets`; micro-batch `batch_size` x `seq_len` tokens per data-parallel rank; `grad_checkpointing`;
    `flash_attention` (memory-efficient attention); `gpus`, `sharding`, `tp`, `pp`; `offload` to CPU;
    inference `concurrency` x `context_len` (default: seq_len); `loss_chunking` (chunked cross-entropy)
    and `optimizer_in_backward` (fused step in backward frees each gradient at once) for stacks that use
    them (torchtune). Options of a measured run's code, each documented where it is modelled: the loss
    (`compiled_loss`, `loss_upcast`, `loss_impl`: tools.memory_frameworks), the loop (`logits_held`,
    `returns_kv_cache`: tools.memory_use_cache, `model_code`: tools.memory_model_code,
    `grad_accumulation_steps`), the data (`variable_length`), the adapters (`lora_fused_qkv`,
    `lora_fp32_adapters`: tools.memory_lora), the quantised base (`fp32_unquantized`, `quant_saves_input`:
    tools.memory_quant), FSDP1's `fsdp_limit_all_gathers` (tools.memory_fsdp), Megatron's `fp8_linears`,
    `fp8_params` and `grad_reduce_in_fp32` (tools.memory_megatron) and preference training
    (`training_objective`, `precompute_ref_log_probs`:
    tools.memory_preference). InputError on impossible inputs. GiB.
    `reserved_at_reset_gib`: what the caching allocator already held (reserved) when the run reset its peak
    counters, after loading and wrapping the model: a floor on the reserved peak (RESERVE_NEVER_SHRINKS).
    `traced=False`: the same numbers with an empty trace (tools.trace.UntracedBuilder), for callers that
    only compare peaks (the recommender's sweep). `kv_cache_precision` (inference): the KV cache's values,
    bf16 | fp16 | fp8 | fp32 (None: 16-bit).
    """
    tb = TraceBuilder() if traced else UntracedBuilder()
    picker = OptionPicker()
    try:
        objective = check_objective(training_objective)
    except ValueError as e:
        raise InputError(str(e)) from None
    if method not in ("inference",) and objective != TRAINING_OBJECTIVE_DEFAULT:
        batch_size = sequences_in_micro_batch(objective, _positive("batch-size", batch_size), tb)
    plan = _plan(
        arch,
        method,
        precision,
        training_precision,
        optimizer,
        lora_rank,
        lora_targets,
        seq_len,
        batch_size,
        grad_checkpointing,
        flash_attention,
        gpus,
        sharding,
        tp,
        pp,
        offload,
        concurrency,
        context_len,
        loss_chunking,
        optimizer_in_backward,
        tb,
        framework=framework,
        optimizer_impl=optimizer_impl,
        lora_dropout=lora_dropout,
        activation_offloading=activation_offloading,
        memory_basis=memory_basis,
        compiled_loss=compiled_loss,
        loss_upcast=loss_upcast,
        loss_impl=loss_impl,
        logits_held=logits_held,
        returns_kv_cache=returns_kv_cache,
        model_code=model_code,
        grad_accumulation_steps=grad_accumulation_steps,
        variable_length=variable_length,
        lora_fused_qkv=lora_fused_qkv,
        fp32_unquantized=fp32_unquantized,
        quant_saves_input=quant_saves_input,
        lora_fp32_adapters=lora_fp32_adapters,
        fsdp_limit_all_gathers=fsdp_limit_all_gathers,
        fp8_linears=fp8_linears,
        fp8_params=fp8_params,
        grad_reduce_in_fp32=grad_reduce_in_fp32,
        picker=picker,
    )
    if kv_cache_precision is not None:  # "an fp8 KV cache" (expert review 19, P03)
        kv_value = _choose("KV cache precision", kv_cache_precision, ("bf16", "fp16", "fp8", "fp32"))
        plan = dataclasses.replace(plan, kv_cache_bytes_per_value=WEIGHT_BYTES[kv_value])
    states = model_states(plan, tb)
    if plan.training:
        ref = reference_weight_bytes(plan, objective, precompute_ref_log_probs, tb)
        states = dataclasses.replace(states, weights=states.weights + ref) if ref else states
    kv = 0.0
    offloaded_act = stale = 0.0
    if plan.training:
        parts = training_activations(plan, tb)
        ref_fwd = reference_forward_bytes(plan, objective, precompute_ref_log_probs, tb)
        if ref_fwd:  # the reference's logits, beside the policy's forward (tools.memory_preference)
            parts = dataclasses.replace(parts, logits_forward=parts.logits_forward + ref_fwd)
        offloaded_act = parts.offloaded
        stale = variable_length_reserve(plan, parts.logits_backward, tb)
        frac = memory_reserve.residual_fraction(plan) if plan.memory_basis == "reserved" else 0.0
        phase, live = largest_phase(training_phases(plan, states, parts), tb, frac)
        phase_totals = {k: bytes_to_gib(v.total()) for k, v in training_phases(plan, states, parts).items()}
    else:
        act, kv = inference_memory(plan, tb)
        phase = "serving"
        live = PhaseLines(states.weights, 0.0, 0.0, act, 0.0)
        phase_totals = {phase: bytes_to_gib(live.total() + kv)}

    tb.assume("cuda_context_gib", CUDA_CONTEXT_GIB, "GiB", "PyTorch CUDA context + workspaces")
    context_gib = CUDA_CONTEXT_GIB
    if gpus > 1:
        tb.assume("nccl_buffers_gib", NCCL_BUFFERS_GIB, "GiB", "NCCL communicator buffers")
        context_gib += NCCL_BUFFERS_GIB
    dynamic = live.dynamic()  # a KV cache is one preallocated block: no reserve around it
    # each records the constants of the formula it applies as assumptions (tools.memory_reserve)
    if plan.training:  # the segments a step's transients leave cached
        frag = memory_reserve.training_reserve(
            plan, dynamic, parts.logits_backward, states.step_temporaries, tb, stale
        )
        releasable = memory_reserve.releasable_reserve(
            plan, parts.logits_backward, states.step_temporaries, tb
        )
    else:
        frag = memory_reserve.serving_reserve(dynamic, tb)
        releasable = 0.0  # serving's reserve is not modelled as segments (tools.memory_card: the cap only)
    reserved_basis = plan.memory_basis == "reserved"
    if reserved_basis and reserved_at_reset_gib > 0 and RESERVE_NEVER_SHRINKS:
        floor = reserved_at_reset_gib * 2**30 - live.total() - kv
        frag = max(frag, tb.step("load_reserve_floor", "reserved at reset - tensors at the peak", floor, "B"))
    overhead = tb.step(
        "overhead_gib",
        "reserved basis: CUDA context (+ NCCL) + allocator reserve; allocated basis: 0",
        context_gib + bytes_to_gib(frag) if reserved_basis else 0.0,
        "GiB",
        context_gib=context_gib,
        memory_basis=plan.memory_basis,
    )
    breakdown = MemoryBreakdown(
        weights=bytes_to_gib(live.weights),
        gradients=bytes_to_gib(live.gradients),
        optimizer=bytes_to_gib(live.optimizer),
        activations=bytes_to_gib(live.activations),
        kv_cache=bytes_to_gib(kv),
        adapters=bytes_to_gib(live.adapters),
        overhead=overhead,
    )
    peak = tb.step(
        "peak_gib_per_gpu",
        f"live at the {phase} phase: weights + gradients + optimizer + activations + kv_cache + adapters"
        " + overhead",
        breakdown.total(),
        "GiB",
        peak_phase=phase,
        memory_basis=plan.memory_basis,
        **{f"{k}_gib": v for k, v in breakdown.model_dump().items()},
    )
    total = tb.step("total_gib", "peak_gib_per_gpu x gpus", peak * gpus, "GiB", gpus=gpus)
    return MemoryEstimate(
        peak_gib_per_gpu=peak,
        total_gib=total,
        breakdown_gib=breakdown,
        cuda_context_gib=context_gib,
        fragmentation_gib=bytes_to_gib(frag),
        releasable_reserve_gib=bytes_to_gib(releasable),
        cpu_offload_gib_per_gpu=bytes_to_gib(states.cpu + offloaded_act),
        paged_optimizer_gib=bytes_to_gib(states.paged),
        gpus=gpus,
        tp=tp,
        pp=pp,
        dp=plan.dp,
        params=arch.param_count(),
        trainable_params=states.trainable,
        method=plan.method,
        model_id=arch.id,
        precision=plan.precision,
        training_precision=plan.training_precision,
        optimizer=plan.optimizer,
        lora_rank=plan.lora_rank if plan.adapters else None,
        lora_targets=plan.lora_targets,
        seq_len=seq_len,
        batch_size=batch_size,
        grad_checkpointing=grad_checkpointing,
        flash_attention=flash_attention,
        sharding=plan.sharding,
        offload=offload,
        concurrency=concurrency,
        context_len=plan.context_len,
        loss_chunking=plan.loss_chunking,
        optimizer_in_backward=plan.optimizer_in_backward,
        framework=plan.framework,
        optimizer_impl=plan.optimizer_impl,
        lora_dropout=plan.lora_dropout,
        activation_offloading=plan.activation_offloading,
        memory_basis=plan.memory_basis,
        variable_length=plan.variable_length,
        peak_phase=phase,
        phase_peaks_gib=phase_totals,
        memory_options=picker.report(option_values(plan)),
        **tb.fields(),
    )


def fits_gpu(estimate: MemoryEstimate, usable_memory_gib: float) -> bool:
    """True when the per-GPU peak fits a GPU's usable memory (GiB)."""
    return estimate.peak_gib_per_gpu <= usable_memory_gib


def seed_rule_gb(*, params: float, method: str, adapter_overhead_gb: float | None = None) -> float:
    """Seed 001's bytes-per-parameter rule, in GB (1e9): 18 B/param full fine-tuning (and pre-training),
    2 B/param + adapter overhead for LoRA, 0.5 B/param + adapter overhead for QLoRA, 2 B/param for
    inference. Adapter overhead defaults to 9 GB (LoRA, middle of '6-12 GB') and 12 GB (QLoRA, the
    worked example). `params` is a count of parameters (e.g. 70e9)."""
    method = _choose("method", method, METHODS)
    if not params > 0:
        raise InputError(f"params must be positive (got {params})")
    gb = params * SEED_001_BYTES_PER_PARAM[method] / BYTES_PER_GB
    if method in SEED_001_ADAPTER_OVERHEAD_GB:
        gb += SEED_001_ADAPTER_OVERHEAD_GB[method] if adapter_overhead_gb is None else adapter_overhead_gb
    return gb


__all__ = [
    "NF4_BYTES_PER_PARAM",
    "WEIGHT_BYTES",
    "MemoryBreakdown",
    "MemoryEstimate",
    "default_precision",
    "estimate_memory",
    "fits_gpu",
    "lora_param_count",
    "resolve_lora_targets",
    "seed_rule_gb",
]
