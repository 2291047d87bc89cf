"""Model states per GPU: weights, gradients, optimizer states and LoRA adapters, with sharding,
tensor/pipeline splits and CPU offload (part of the memory calculator, tools.memory).

Bytes per parameter, mixed precision Adam (ZeRO paper, Rajbhandari et al. 2020, Section 3.1):
16-bit weights 2 + 16-bit gradients 2 + fp32 master 4 + fp32 m 4 + fp32 v 4 = 16 B. Pure bf16
training keeps everything 16-bit: 2 + 2 + 2 + 2 = 8 B (LLaMA-Factory's 8x rule).
"""

from __future__ import annotations

from dataclasses import dataclass

from tools.catalog.schema import ModelArch
from tools.memory_arch import (
    _mlp_width,
    adafactor_state_values,
    largest_layer_params,
    largest_linear_params,
    lora_param_count,
)
from tools.memory_frameworks import framework_defaults
from tools.memory_fsdp import LIMITER_SOURCE, units_in_flight
from tools.memory_megatron import step_grad_copy_bytes
from tools.memory_quant import unquantized_bytes
from tools.memory_types import Plan
from tools.memory_zero import zero_fp32_grad_partition as _zero_grads
from tools.trace import TraceBuilder
from tools.vocabulary import QUANTIZED

NF4_BYTES_PER_PARAM = (4 + 0.127) / 8
"""NF4 with double quantisation: 4 bits + 0.127 bits of constants per weight (Dettmers et al. 2023,
QLoRA, Section 3: blocksize 64, fp8 second-level constants, blocksize 256) = 0.516 B."""
INT4_BYTES_PER_PARAM = (4 + (16 + 4) / 128) / 8
"""GPTQ/AWQ int4 with group size 128: one fp16 scale and one 4-bit zero point per 128 weights = 0.52 B."""
INT8_BYTES_PER_PARAM = 1.0
"""LLM.int8()/per-channel int8: 1 B plus one fp32 scale per output row (negligible)."""
FP8_BYTES_PER_PARAM = 1.0
"""FP8 (E4M3) weights with per-tensor or per-channel scales (negligible)."""
WEIGHT_BYTES: dict[str, float] = {
    "fp32": 4.0,
    "bf16": 2.0,
    "fp16": 2.0,
    "fp8": FP8_BYTES_PER_PARAM,
    "int8": INT8_BYTES_PER_PARAM,
    "int4": INT4_BYTES_PER_PARAM,
    "nf4": NF4_BYTES_PER_PARAM,
}
UNQUANTIZED_BYTES = 2.0
"""Embeddings, lm_head and norms stay 16-bit under 4/8-bit quantisation (bitsandbytes and GPTQ quantise
only the transformer's linear layers)."""
FP32_MASTER_BYTES = 4.0
"""Mixed precision keeps an fp32 master copy of every trained 16-bit weight (ZeRO paper, Section 3.1)."""
ADAM_STATE_COUNT = 2
"""Adam/AdamW keeps two states per parameter, m and v (Loshchilov & Hutter 2019)."""
EIGHT_BIT_STATE_BYTES = 1.0 + 4 / 2048
"""bitsandbytes 8-bit optimizer state: 1 B per value plus one fp32 absmax per 2048-value block
(Dettmers et al. 2022, 8-bit Optimizers via Block-wise Quantization)."""
ADAFACTOR_LORA_STATE_FRACTION = 0.05
"""Adafactor on LoRA matrices (r x d): factored moments hold r + d values, a few % of r x d."""
LORA_ADAPTER_BYTES_MIXED = 4.0
"""PEFT keeps LoRA adapters in fp32 when the base is 16-bit (peft >= 0.12 autocast_adapter_dtype=True);
their gradients are fp32 too."""
GATHERED_UNITS_IN_FLIGHT = 2
"""ZeRO-3/FSDP keep the current layer's gathered weights and prefetch the next one (FSDP forward/backward
prefetch; DeepSpeed stage3_prefetch_bucket_size)."""

FSDP_ROOT_STAYS_UNSHARDED = True
"""The root FSDP unit (what no decoder-layer unit wraps: the input embedding, the final norm and the LM head)
stays gathered from the forward to the end of the backward: FSDP2's fully_shard docs ('the root FSDP state
has its value [reshard_after_forward] specially set to False as a heuristic since its parameters would
typically be immediately all-gathered for backward'), FSDP1's _post_forward_reshard (the root is not freed
after forward under FULL_SHARD). Its unsharded 16-bit copy sits beside the shard until the backward ends."""

FSDP_UNDER_PP_GRAD_BYTES = 4.0
"""FSDP under pipeline parallelism keeps each stage unsharded for the whole step: torchtitan sets
reshard_after_forward=False when PP is enabled ('to avoid per-microbatch all-gathers', apply_fsdp in
torchtitan/parallelisms/parallelize_llama.py), and torch.distributed.pipelining's stage
backward_maybe_with_nosync turns gradient sync off for every micro-batch but the last ('accumulate
gradients on previous steps and reduce them on the last step'), so the stage's gradients accumulate
unsharded in FSDP2's reduce dtype (fp32 in torchtitan's MixedPrecisionPolicy) until the last micro-batch's
reduce-scatter. Bytes per unsharded gradient value."""

AMP_WEIGHT_BYTES = 4.0
"""torch AMP keeps the model in fp32: weights and their gradients 4 B/param (states 8 B: 16 B in all,
the same total as ZeRO's 2 + 2 + 12, held differently over the step)."""
AMP_SOURCE = "HF Trainer bf16=True on an fp32 model: torch.autocast, fp32 weights and gradients"
FOR_LOOP_STEP_TEMP_SETS = 2
"""torch.optim AdamW for-loop path (`_single_tensor_adam`): `denom = (exp_avg_sq.sqrt() /
bias_correction2_sqrt).add_(eps)` holds the sqrt and the quotient of the parameter being stepped at
once: two tensors of its size (measured with the fake-tensor simulator: 2 x the largest matrix)."""
ADAFACTOR_STEP_TEMP_SETS = 2
"""transformers' Adafactor steps one parameter at a time and builds update = grad**2 + eps and the
scaled update: two parameter-sized fp32 temporaries of the parameter being stepped."""


# --- model states per GPU ---------------------------------------------------------------------------
@dataclass(frozen=True)
class StateBytes:
    """Model-state bytes on one GPU, what went to the CPU, and the paged (spillable) part."""

    weights: float
    gradients: float
    optimizer: float
    adapters: float
    cpu: float
    paged: float
    trainable: int
    step_temporaries: float = 0.0
    """The optimizer step's temporaries (foreach AdamW: one parameter-sized set in the state dtype)."""
    root_gathered: float = 0.0
    """FSDP: the root unit's unsharded copy (part of `weights`), resharded after the backward."""
    weight_casts: float = 0.0
    """AMP: bf16 copies of the fp32 weights that autocast caches for the forward (freed after it)."""
    adapter_grads: float = 0.0
    """The part of `adapters` that is their gradients: made in the backward, freed by zero_grad."""


def _stage_fraction(plan: Plan, tb: TraceBuilder) -> float:
    """Share of the parameters on the pipeline stage holding the most: ceil(L/pp) layers + one V x h
    embedding (first stage) or head (last stage) + the final norm."""
    arch = plan.arch
    if plan.pp == 1:
        return 1.0
    stage = plan.layers_per_stage * arch.layer_params() / arch.n_layers + arch.vocab_size * arch.hidden_size
    fraction = min(1.0, (stage + arch.hidden_size) / arch.param_count())
    tb.step(
        "pp_stage_fraction",
        "(ceil(L/pp) x layer_params + V x h) / params",
        fraction,
        "fraction",
        layers_per_stage=plan.layers_per_stage,
        pp=plan.pp,
    )
    return fraction


def stored_weight_bytes(arch: ModelArch, precision: str, other_bytes: float = UNQUANTIZED_BYTES) -> float:
    """Bytes of all weights stored in `precision`: quantised formats (fp8/int8/int4/nf4) apply to the
    layers' linear weights only, embeddings, lm_head and norms stay 16-bit (bitsandbytes / GPTQ / AWQ
    practice). The one place this formula lives: the memory calculator and tools.compute's decode
    bandwidth model both call it."""
    w = WEIGHT_BYTES[precision]
    total = arch.param_count()
    if precision in QUANTIZED:
        linear = arch.linear_params()
        return linear * w + (total - linear) * other_bytes
    return total * w


def _weight_bytes(plan: Plan, tb: TraceBuilder) -> float:
    """All weights in their storage precision; quantisation touches only the layers' linear weights."""
    arch = plan.arch
    total, linear = arch.param_count(), arch.linear_params()
    tb.step(
        "params",
        "embeddings + layers + final norm (ModelArch.param_count)",
        total,
        "params",
        model=arch.id,
        layers=arch.n_layers,
        hidden=arch.hidden_size,
        vocab=arch.vocab_size,
    )
    w = WEIGHT_BYTES[plan.precision]
    if plan.fp8_params:  # tools.memory_megatron: FP8 primary weights of the layers' linears
        return tb.step(
            "weights_bytes",
            "linear_params x 1 B (FP8 primary weights) + other_params x 2 B",
            stored_weight_bytes(arch, "fp8"),
            "B",
            linear_params=linear,
            other_params=total - linear,
        )
    if not plan.quantized:
        return tb.step(
            "weights_bytes", "params x bytes(precision)", total * w, "B", params=total, bytes_per_param=w
        )
    src = "NF4 + double quantisation (QLoRA paper)" if plan.precision == "nf4" else "quantised linear weights"
    tb.assume(f"{plan.precision}_bytes_per_param", round(w, 4), "B/param", src)
    other = unquantized_bytes(plan, UNQUANTIZED_BYTES)
    tb.assume(
        "unquantized_bytes_per_param",
        other,
        "B/param",
        "fp32 non-quantised modules (fp32_unquantized: torch_dtype float32 / peft kbit cast)"
        if plan.fp32_unquantized
        else "embeddings, lm_head and norms stay 16-bit under bitsandbytes/GPTQ",
    )
    value = stored_weight_bytes(arch, plan.precision, other)
    return tb.step(
        "weights_bytes",
        "linear_params x bytes(precision) + other_params x 2 B",
        value,
        "B",
        linear_params=linear,
        bytes_per_linear_param=w,
        other_params=total - linear,
    )


def _optimizer_state_bytes(plan: Plan, params: float, tb: TraceBuilder) -> tuple[float, str]:
    """Optimizer states (without the fp32 master copy) for `params` trained parameters."""
    dtype = 4.0 if (plan.mixed or plan.precision == "fp32") else 2.0
    if plan.optimizer == "adamw":
        return ADAM_STATE_COUNT * dtype * params, f"params x 2 states x {dtype:g} B"
    if plan.optimizer in ("adamw-8bit", "paged-adamw-8bit"):
        tb.assume(
            "eight_bit_state_bytes", round(EIGHT_BIT_STATE_BYTES, 4), "B/value", "bitsandbytes block-wise"
        )
        return ADAM_STATE_COUNT * EIGHT_BIT_STATE_BYTES * params, "params x 2 states x 8-bit (+ block absmax)"
    if plan.optimizer == "sgd":
        return dtype * params, f"params x 1 momentum x {dtype:g} B"
    return dtype * adafactor_state_values(
        plan.arch
    ), "(rows + cols per matrix + 1-D params) x dtype (factored)"


def persistent_grad_buffer(plan: Plan) -> bool:
    """Mixed-precision full training on a stack whose gradients sit in a persistent fp32 buffer (Megatron's
    param_and_grad_buffer): 4 B per parameter, live in every phase of the step."""
    return plan.full_training and plan.mixed and framework_defaults(plan.framework).persistent_fp32_grads


def fsdp_under_pp(plan: Plan) -> bool:
    """Full training with FSDP over several data-parallel ranks under pipeline parallelism
    (FSDP_UNDER_PP_GRAD_BYTES): each stage stays unsharded and its gradients accumulate unsharded."""
    return plan.full_training and plan.sharding == "fsdp" and plan.pp > 1 and plan.dp > 1


def model_states(plan: Plan, tb: TraceBuilder) -> StateBytes:
    """Weights, gradients, optimizer states and adapters on one GPU, after TP/PP splits, ZeRO sharding
    and CPU offload."""
    arch = plan.arch
    total = arch.param_count()
    split = _stage_fraction(plan, tb) / plan.tp  # share of the model on one GPU before ZeRO sharding
    weights = _weight_bytes(plan, tb) * split / plan.shard("weights")
    casts = 0.0
    if plan.amp:
        # torch AMP: the model itself is fp32 (it is the master copy); autocast caches bf16 copies
        tb.assume("amp_weight_bytes_per_param", AMP_WEIGHT_BYTES, "B/param", AMP_SOURCE)
        # an untied input embedding is a lookup, not an autocast op: it is never cast (simulator-checked)
        uncast = 0.0 if arch.tied_embeddings else arch.vocab_size * arch.hidden_size * 2.0 * split
        casts = tb.step(
            "amp_weight_casts",
            "(params - untied input embedding) x 2 B x stage_fraction / tp (bf16 copies autocast caches)",
            max(0.0, weights - uncast),
            "B",
            bf16_weight_bytes=weights,
            uncast_embedding_bytes=uncast,
            source="torch.autocast weight cast cache (cleared when the autocast region exits)",
        )
        weights = tb.step(
            "amp_fp32_weights",
            "params x 4 B x stage_fraction / tp",
            weights * AMP_WEIGHT_BYTES / 2.0,
            "B",
            bf16_weight_bytes=weights,
        )
    cpu = 0.0
    gathered = root_gathered = 0.0
    if fsdp_under_pp(plan):
        gathered = tb.step(
            "fsdp_pp_unsharded_stage",
            "stage weights x stage_fraction / tp, unsharded for the step (FSDP under PP: no reshard)",
            weights * plan.shard("weights"),
            "B",
            source="torchtitan apply_fsdp: reshard_after_forward=False when pipeline parallel is enabled",
        )
    elif plan.sharding in ("zero3", "fsdp") and (plan.dp > 1 or plan.offload == "params"):
        unit = largest_layer_params(arch)
        unit_bytes = (
            WEIGHT_BYTES[plan.precision] if plan.quantized else (4.0 if plan.precision == "fp32" else 2.0)
        )
        in_flight = units_in_flight(plan, GATHERED_UNITS_IN_FLIGHT)
        gathered = in_flight * unit * unit_bytes / plan.tp
        if plan.full_training:  # the layer's unsharded gradient before its reduce-scatter
            gathered += unit * unit_bytes / plan.tp
        if in_flight == GATHERED_UNITS_IN_FLIGHT:
            tb.assume("gathered_units_in_flight", in_flight, "layers", "FSDP/ZeRO-3 prefetch")
        else:
            tb.assume("gathered_units_in_flight", in_flight, "layers", LIMITER_SOURCE)
        root_unit = framework_defaults(plan.framework).fsdp_root_holds_embeddings
        if plan.sharding == "fsdp":
            tb.assume("fsdp_root_holds_embeddings", root_unit, "", "FSDP_ROOT_STAYS_UNSHARDED (preset)")
        if plan.sharding == "fsdp" and plan.training and FSDP_ROOT_STAYS_UNSHARDED and root_unit:
            root_bytes = 4.0 if plan.precision == "fp32" else unquantized_bytes(plan, UNQUANTIZED_BYTES)
            heads = 1 if arch.tied_embeddings else 2
            root_gathered = tb.step(
                "fsdp_root_unsharded",
                "(embedding + untied head + final norm) x 16-bit bytes / tp, gathered forward to backward",
                (heads * arch.vocab_size * arch.hidden_size + arch.hidden_size) * root_bytes / plan.tp,
                "B",
                source="FSDP_ROOT_STAYS_UNSHARDED (fully_shard docs: root reshard_after_forward=False)",
            )
            gathered += root_gathered
        tb.step(
            "zero3_gathered",
            "units_in_flight x largest_layer_params x bytes / tp (+ its gradient if trained)",
            gathered,
            "B",
            units_in_flight=in_flight,
            largest_layer_params=unit,
            tp=plan.tp,
        )
    if plan.offload == "params":
        cpu += weights
        tb.step(
            "params_offloaded", "weight shard moved to CPU (ZeRO-Infinity / FSDP CPUOffload)", weights, "B"
        )
        weights = 0.0
    weights = tb.step(
        "weights_per_gpu",
        "weights x stage_fraction / tp / shard_w + gathered",
        weights + gathered,
        "B",
        tp=plan.tp,
        dp=plan.dp,
        sharding=plan.sharding,
    )

    grads = opt = adapters = paged = adapter_grads = 0.0
    trainable = 0
    if plan.full_training:
        trainable = total
        tb.assume(
            "training_precision",
            plan.training_precision,
            "",
            "mixed: 16-bit weights and grads, fp32 master + states (ZeRO paper 2+2+12 B)"
            if plan.mixed
            else "pure 16-bit: weights, grads and optimizer states all 16-bit",
        )
        g_bytes = AMP_WEIGHT_BYTES if plan.amp else WEIGHT_BYTES[plan.precision]
        if persistent_grad_buffer(plan) and plan.grad_reduce_in_fp32:
            g_bytes = 4.0  # the fp32 main-grad buffer (FrameworkMemoryDefaults.persistent_fp32_grads)
            tb.assume("persistent_fp32_grad_buffer", True, "", framework_defaults(plan.framework).source)
        grads = total * g_bytes * split / plan.shard("gradients")
        if fsdp_under_pp(plan):
            g_bytes = FSDP_UNDER_PP_GRAD_BYTES if plan.mixed else g_bytes
            tb.assume(
                "fsdp_under_pp_grad_bytes",
                g_bytes,
                "B/param",
                "unsharded gradients kept across micro-batches",
            )
            grads = total * g_bytes * split
        if plan.optimizer_in_backward:
            grads = largest_layer_params(arch) * g_bytes / plan.tp
            tb.assume("optimizer_in_backward", True, "", "each gradient is applied and freed during backward")
        tb.step(
            "gradients_per_gpu",
            "params x grad bytes x stage_fraction / tp / shard_g",
            grads,
            "B",
            grad_bytes_per_param=g_bytes,
            shard_g=plan.shard("gradients"),
        )
        master = FP32_MASTER_BYTES if plan.mixed and not plan.amp else 0.0
        if master:
            tb.assume("fp32_master_bytes_per_param", FP32_MASTER_BYTES, "B/param", "ZeRO paper, Section 3.1")
        states, formula = _optimizer_state_bytes(plan, total, tb)
        opt_full = tb.step(
            "optimizer_bytes",
            f"fp32 master ({master:g} B/param) + {formula}",
            master * total + states,
            "B",
            optimizer=plan.optimizer,
        )
        opt = opt_full * split / plan.shard("optimizer")
        if plan.optimizer == "paged-adamw-8bit":
            paged = states * split / plan.shard("optimizer")
        if plan.offload in ("optimizer", "params"):
            cpu += opt
            paged = 0.0
            tb.step("optimizer_offloaded", "optimizer shard moved to CPU (ZeRO-Offload)", opt, "B")
            opt = 0.0
        if plan.offload == "params":
            tb.assume(
                "offload_params_scope",
                "parameters, gradients and optimizer states",
                "",
                "ZeRO-Infinity offload_param with offload_optimizer / FSDP CPUOffload(offload_params=True): "
                "gradient shards go to host memory for the CPU optimizer step",
            )
            tb.step(
                "gradients_offloaded",
                "gradient shard moved to CPU with the parameters; gradients on GPU = 0",
                grads,
                "B",
                gradients_per_gpu_before_offload_bytes=grads,
                offload=plan.offload,
            )
            cpu += grads
            grads = 0.0
        tb.step(
            "optimizer_per_gpu",
            "optimizer x stage_fraction / tp / shard_o (0 when offloaded)",
            opt,
            "B",
            shard_o=plan.shard("optimizer"),
            offload=plan.offload,
        )

    if plan.adapters:
        trainable = lora_param_count(arch, rank=plan.lora_rank, targets=plan.lora_targets)
        tb.step(
            "lora_params",
            "sum over adapted matrices of r x (d_in + d_out) x layers (x experts)",
            trainable,
            "params",
            rank=plan.lora_rank,
            targets=",".join(plan.lora_targets),
        )
        # fp32 base, or peft's autocast_adapter_dtype on a 16-bit base (Plan.lora_fp32_adapters)
        mixed = plan.training_precision == "mixed" or plan.fp32_unquantized or plan.lora_fp32_adapters
        a_bytes = LORA_ADAPTER_BYTES_MIXED if mixed else 2.0
        if plan.optimizer == "adafactor":
            a_opt = (4.0 if mixed else 2.0) * ADAFACTOR_LORA_STATE_FRACTION
        else:
            a_opt = _optimizer_state_bytes(plan, 1.0, tb)[0]  # bytes per adapter parameter
            if plan.lora_fp32_adapters and not plan.mixed and plan.optimizer in ("adamw", "sgd"):
                a_opt *= 2.0  # states take the fp32 adapters' dtype (torch AdamW: zeros_like(param))
        tb.assume(
            "training_precision",
            plan.training_precision,
            "",
            "mixed: fp32 adapters, grads and states" if mixed else "pure 16-bit adapters, grads and states",
        )
        tb.assume(
            "lora_adapter_dtype_bytes",
            a_bytes,
            "B/param",
            "peft autocast_adapter_dtype: fp32 adapters" if mixed else "pure bf16 adapters",
        )
        tb.assume("adapter_optimizer_bytes_per_param", round(a_opt, 4), "B/param", plan.optimizer)
        per_param = 2 * a_bytes + a_opt
        full = tb.step(
            "adapters_bytes",
            "lora_params x (weight + grad + optimizer bytes)",
            trainable * per_param,
            "B",
            lora_params=trainable,
            bytes_per_param=per_param,
        )
        shard = plan.shard("optimizer")
        adapters = full * split / shard
        adapter_grads = trainable * a_bytes * split / shard
        states = trainable * a_opt * split / shard
        if plan.optimizer == "paged-adamw-8bit":
            paged = states
        if plan.offload in ("optimizer", "params"):
            cpu += states
            adapters -= states
            paged = 0.0
        tb.step(
            "adapters_per_gpu",
            "adapters x stage_fraction / tp / shard (- offloaded states)",
            adapters,
            "B",
            adapters_bytes=full,
            share_per_gpu=split,
            shard_optimizer=shard,
            offloaded_states_bytes=states if plan.offload in ("optimizer", "params") else 0.0,
        )
    temps = optimizer_step_temporaries(plan, trainable, split, tb) + _zero_grads(plan, trainable, split, tb)
    temps += step_grad_copy_bytes(plan, trainable, split, persistent_grad_buffer(plan), tb)
    return StateBytes(
        root_gathered=root_gathered,
        adapter_grads=adapter_grads,
        step_temporaries=temps,
        weight_casts=casts,
        weights=weights,
        gradients=grads,
        optimizer=opt,
        adapters=adapters,
        cpu=cpu,
        paged=paged,
        trainable=trainable,
    )


def optimizer_step_temporaries(plan: Plan, trainable: int, split: float, tb: TraceBuilder) -> float:
    """Bytes the optimizer step allocates on top of the states, per GPU (0 on the CPU when offloaded).

    torch.optim AdamW (torch/optim/adamw.py, adam.py `_multi_tensor_adam`): the foreach path computes
    `exp_avg_sq_sqrt = torch._foreach_sqrt(device_exp_avg_sqs)` for every parameter of a dtype group at
    once: one more parameter-sized set in the state dtype. The for-loop path builds the same denominator
    for one parameter at a time (the largest tensor sets the peak). The fused kernel needs none. SGD
    with momentum updates its buffer in place (no temporaries); bitsandbytes' 8-bit optimizers are
    fused kernels; Adafactor steps one parameter at a time with two fp32 temporaries.
    """
    if trainable == 0 or plan.offload in ("optimizer", "params") or plan.optimizer in ("sgd",):
        return 0.0
    if plan.optimizer in ("adamw-8bit", "paged-adamw-8bit"):
        return 0.0
    dtype = 4.0 if (plan.mixed or plan.precision == "fp32") else 2.0
    arch = plan.arch
    largest = float(max(largest_linear_params(arch), arch.vocab_size * arch.hidden_size))
    if plan.adapters:
        largest = float(plan.lora_rank * max(arch.hidden_size, _mlp_width(arch)))
    if plan.optimizer == "adafactor":
        value = ADAFACTOR_STEP_TEMP_SETS * largest * 4.0
        formula = "2 x largest parameter x 4 B (per-parameter step)"
    elif plan.optimizer_impl == "fused":
        value, formula = 0.0, "fused kernel: no temporaries"
    elif plan.optimizer_impl == "foreach" and not plan.optimizer_in_backward:
        value = trainable * dtype * split / plan.shard("optimizer")
        formula = "trainable params x state bytes x stage_fraction / tp / shard_o (foreach sqrt set)"
    else:  # for-loop, or a per-parameter step in backward
        value = FOR_LOOP_STEP_TEMP_SETS * largest * dtype / plan.tp
        formula = "2 x largest parameter x state bytes / tp (sqrt and quotient, one parameter at a time)"
    return tb.step(
        "optimizer_step_temporaries",
        formula,
        value,
        "B",
        optimizer=plan.optimizer,
        optimizer_impl=plan.optimizer_impl,
        state_bytes=dtype,
        source="torch.optim AdamW foreach: _foreach_sqrt(exp_avg_sq) (torch/optim/adam.py)",
    )
