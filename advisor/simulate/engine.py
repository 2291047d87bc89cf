"""Simulate a training run's memory on the CPU with fake tensors: the exact tensor peak, no GPU.

The program simulated (what real trainers do; the README and `SimulationResult.program` state it):

- The model is transformers' own modelling code for the architecture (AutoModelForCausalLM from a
  config built from the catalog entry), constructed on the meta device, then materialised with
  `to_empty()` under FakeTensorMode on the CPU: tensors have shapes, dtypes and storages but no data.
  Faking device "cuda" needs a GPU driver, so the fake tensors are CPU tensors; kernels whose memory
  differs between CPU and CUDA are listed in the README (attention kernels save the same
  output + logsumexp on both; kernel-internal workspaces are not tensors on either).
- full + mixed: fp32 weights, forward under torch.autocast(bfloat16) (HF Trainer `bf16=True` with an
  fp32 model; autocast caches a bf16 copy of every weight for the forward), fp32 gradients, AdamW
  with fp32 states (16 B/param of model states).
- full + pure-bf16: bf16 weights, gradients and AdamW states, no autocast (torchtune's default,
  LLaMA-Factory's "pure_bf16"): 8 B/param.
- lora + mixed: bf16 frozen base, fp32 adapters (peft's autocast_adapter_dtype default), autocast
  bf16, AdamW fp32 states on the adapters. lora + pure-bf16: bf16 adapters, no autocast.
- Inputs are a packed batch without padding (input_ids and labels, no attention mask: on real data
  transformers drops an all-ones mask and runs causal SDPA, but a fake tensor cannot show that the
  mask is all ones, so passing one would simulate a materialised s x s mask that real runs never
  build). The loss is transformers' ForCausalLMLoss, which upcasts the logits to fp32.
- `use_cache=False`; dropout 0; gradient checkpointing is transformers' non-reentrant
  `torch.utils.checkpoint` per decoder layer; attention is "sdpa" (fused, no s x s matrix) or "eager".
- The optimizer is torch AdamW (fused by default, as HF Trainer's default `adamw_torch_fused`);
  `optimizer.zero_grad(set_to_none=True)` after each step. Two steps by default: AdamW creates its
  state during the first, so the second step shows the steady-state peak.
"""

from __future__ import annotations

import contextlib
import time
import warnings
from collections.abc import Iterator, Sequence
from typing import Any, Literal, get_args

from advisor.simulate.hf_config import hf_config_kwargs
from advisor.simulate.result import (
    ALLOCATOR_FRAGMENTATION_FRACTION,
    ALLOCATOR_FRAGMENTATION_SOURCE,
    CUBLAS_WORKSPACE_GIB,
    CUBLAS_WORKSPACE_SOURCE,
    CUDA_CONTEXT_GIB,
    CUDA_CONTEXT_SOURCE,
    CudaLine,
    PhasePeak,
    SimulationResult,
)
from tools.catalog.schema import ModelArch
from tools.errors import InputError
from tools.trace import TraceBuilder
from tools.units import bytes_to_gib
from tools.vocabulary import (
    BATCH_SIZE_DEFAULT,
    LORA_RANK_DEFAULT,
    LORA_TARGETS_DEFAULT,
    OPTIMIZER_DEFAULT,
    SEQ_LEN_DEFAULT,
    TRAINING_PRECISION_DEFAULT,
    SimulatedMethod,
    SimulatedOptimizer,
    TrainingPrecision,
)

OptimizerImpl = Literal["fused", "foreach", "for-loop"]
Attention = Literal["sdpa", "eager"]

ATTENTION_TARGETS = ("q_proj", "k_proj", "v_proj", "o_proj", "qkv_proj")
PHASES = ("weights", "forward", "backward", "optimizer")
SGD_MOMENTUM = 0.9  # the common fine-tuning setting; one state tensor per parameter


def _missing_extra(exc: ImportError) -> InputError:
    return InputError(
        f"--simulate needs torch, transformers and peft ({exc.name} is missing): "
        "pip install 'gpu-advisor[simulate]'"
    )


def _resolve_targets(targets: str | Sequence[str]) -> str | list[str]:
    if isinstance(targets, str):
        if targets == "all-linear":
            return "all-linear"
        if targets == "attention":
            return list(ATTENTION_TARGETS)
        names = [t.strip() for t in targets.split(",") if t.strip()]
    else:
        names = [t.strip() for t in targets if t.strip()]
    if not names:
        raise InputError("--lora-targets is empty: use all-linear, attention or a list like q_proj,v_proj")
    return names


@contextlib.contextmanager
def _quiet_transformers() -> Iterator[None]:
    """Silence transformers' advisory warnings (use_cache, deprecations) for the run only."""
    # lazy: transformers is the optional `simulate` extra (~0.7 s); advisor.api imports this package
    from transformers.utils import logging as hf_logging

    level = hf_logging.get_verbosity()
    hf_logging.set_verbosity_error()  # type: ignore[no-untyped-call]
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            yield
    finally:
        hf_logging.set_verbosity(level)


def simulate_training_memory(
    *,
    arch: ModelArch,
    method: SimulatedMethod = "full",
    training_precision: TrainingPrecision = TRAINING_PRECISION_DEFAULT,
    optimizer: SimulatedOptimizer = OPTIMIZER_DEFAULT,
    optimizer_impl: OptimizerImpl = "fused",
    lora_rank: int = LORA_RANK_DEFAULT,
    lora_targets: str | Sequence[str] = LORA_TARGETS_DEFAULT,
    seq_len: int = SEQ_LEN_DEFAULT,
    batch_size: int = BATCH_SIZE_DEFAULT,
    grad_checkpointing: bool = True,
    attention: Attention = "sdpa",
    steps: int = 2,
    lora_dropout: float = 0.0,
    lora_fp32_adapters: bool = False,
) -> SimulationResult:
    """Run `steps` training steps of `arch` under FakeTensorMode and return the tensor-memory peak.

    No GPU and no real allocation: a 7-8B model at seq 2048 takes seconds on a laptop CPU.
    `lora_fp32_adapters`: pure-bf16 LoRA with peft's default fp32 adapters (get_peft_model's
    autocast_adapter_dtype=True), as a script that does not pass autocast_adapter_dtype=False runs it.
    Raises InputError for settings the simulator cannot run (QLoRA, 8-bit optimizers, inference).
    """
    if method not in get_args(SimulatedMethod):
        raise InputError(
            f"the simulator runs method full or lora, not {method!r} "
            "(QLoRA needs bitsandbytes CUDA kernels): use the analytic estimate"
        )
    if training_precision not in get_args(TrainingPrecision):
        raise InputError(f"--training-precision must be mixed or pure-bf16, not {training_precision!r}")
    if training_precision == "pure-fp16":  # the program below is bf16; pure fp16 has the same bytes
        raise InputError(
            "the simulator runs mixed or pure-bf16, not pure-fp16: simulate pure-bf16 (the same bytes per "
            "tensor) or use the analytic estimate"
        )
    if optimizer not in get_args(SimulatedOptimizer):
        raise InputError(
            f"the simulator supports optimizer adamw or sgd, not {optimizer!r} "
            "(8-bit and Adafactor need other libraries): use the analytic estimate"
        )
    if optimizer_impl not in ("fused", "foreach", "for-loop"):
        raise InputError(f"optimizer_impl must be fused, foreach or for-loop, not {optimizer_impl!r}")
    if attention not in ("sdpa", "eager"):
        raise InputError(f"attention must be sdpa or eager, not {attention!r}")
    if seq_len < 2 or batch_size < 1 or steps < 1 or lora_rank < 1:
        raise InputError("seq_len must be >= 2, batch_size, steps and lora_rank >= 1")
    if arch.is_moe and method == "full" and training_precision == "mixed":
        raise InputError(
            "the simulator cannot run MoE full fine-tuning with fp32 master weights (grouped expert "
            "GEMMs take bf16 only): use --training-precision pure-bf16 or the analytic estimate"
        )
    targets = _resolve_targets(lora_targets) if method == "lora" else None

    try:
        # lazy: torch + transformers are the optional `simulate` extra (~1.7 s of import); `size` and
        # advisor.api import this package without them. The tracker imports torch at module level.
        import torch
        import transformers
        from torch._subclasses.fake_tensor import FakeTensorMode
        from transformers import AutoConfig, AutoModelForCausalLM

        from advisor.simulate.tracker import StorageTracker
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise _missing_extra(exc) from exc

    tb = TraceBuilder()
    started = time.perf_counter()
    model_type, cfg_kwargs = hf_config_kwargs(arch, max_positions=seq_len)
    mixed = training_precision == "mixed"
    # full + mixed keeps fp32 master weights; everything else holds the (base) weights in bf16.
    weight_dtype = torch.float32 if (method == "full" and mixed) else torch.bfloat16

    with _quiet_transformers():
        config = AutoConfig.for_model(model_type, **cfg_kwargs)
        config._attn_implementation = attention
        build_kwargs: dict[str, Any] = {"dtype": weight_dtype}
        if arch.is_moe:
            # Sorted-token grouped GEMMs: data-independent shapes (the per-expert loop needs nonzero(),
            # which fake tensors cannot size), and what efficient MoE training kernels allocate.
            build_kwargs["experts_implementation"] = "grouped_mm"
        attention_used = attention
        try:
            with torch.device("meta"):
                model = AutoModelForCausalLM.from_config(config, **build_kwargs)  # type: ignore[no-untyped-call]
        except ValueError as exc:
            # Some architectures (Gemma 2: logit soft-capping) have no SDPA path in transformers;
            # training them without flash-attn runs eager attention, so that is what is simulated.
            if attention != "sdpa" or "attention implementation" not in str(exc):
                raise
            attention_used = "eager"
            config._attn_implementation = "eager"
            with torch.device("meta"):
                model = AutoModelForCausalLM.from_config(config, **build_kwargs)  # type: ignore[no-untyped-call]
        if grad_checkpointing:
            ckpt_kwargs = {"use_reentrant": False}
            if hasattr(model, "activation_checkpointing_enable"):  # transformers >= 5.x name
                model.activation_checkpointing_enable(activation_checkpointing_kwargs=ckpt_kwargs)
            else:
                model.gradient_checkpointing_enable(gradient_checkpointing_kwargs=ckpt_kwargs)
        peft_version = ""
        if method == "lora":
            try:
                # lazy: peft (the `simulate` extra, ~1.3 s of import) is needed for LoRA runs only
                import peft
                from peft import LoraConfig, get_peft_model
            except ImportError as exc:  # pragma: no cover
                raise _missing_extra(exc) from exc
            peft_version = peft.__version__
            for p in model.parameters():
                p.requires_grad_(False)
            lora_config = LoraConfig(
                r=lora_rank,
                lora_alpha=2 * lora_rank,
                lora_dropout=lora_dropout,
                target_modules=targets,
                bias="none",
                task_type="CAUSAL_LM",
            )
            try:
                model = get_peft_model(model, lora_config, autocast_adapter_dtype=mixed or lora_fp32_adapters)
            except ValueError as exc:
                msg = f"LoRA targets {lora_targets!r} match no module of {arch.id}: {exc}"
                raise InputError(msg) from exc

        tracker = StorageTracker()
        fake_mode = FakeTensorMode(allow_non_fake_inputs=True)
        with fake_mode, tracker:
            _materialize_fake(model, torch)
            model.train()
            params = list(model.parameters())
            trainable = [p for p in params if p.requires_grad]
            for t in list(params) + list(model.buffers()):
                tracker.param_storages.add(id(t.untyped_storage()))
            if method == "lora":
                for p in trainable:
                    tracker.relabel(p, "adapters")

            def _grad_to_category(p: Any) -> None:
                if p.grad is not None:
                    tracker.relabel(p.grad, "gradients")

            for p in trainable:
                p.register_post_accumulate_grad_hook(_grad_to_category)

            opt: Any
            impl: dict[str, Any] = {
                "fused": {"fused": True},
                "foreach": {"foreach": True},
                "for-loop": {"foreach": False},
            }[optimizer_impl]
            if optimizer == "adamw":
                opt = torch.optim.AdamW(trainable, lr=1e-5, **impl)
            else:
                opt = torch.optim.SGD(trainable, lr=1e-5, momentum=SGD_MOMENTUM, **impl)

            ids = torch.zeros(batch_size, seq_len, dtype=torch.long)
            autocast = torch.autocast("cpu", dtype=torch.bfloat16) if mixed else contextlib.nullcontext()
            for step in range(1, steps + 1):
                tracker.mark_phase(step, "forward", "activations")
                with autocast:
                    out = model(input_ids=ids, labels=ids)
                loss = out.loss
                del out  # the returned logits are dropped before backward, as trainers do
                tracker.mark_phase(step, "backward", "activations")
                loss.backward()
                del loss
                tracker.mark_phase(step, "optimizer", "optimizer")
                opt.step()
                opt.zero_grad(set_to_none=True)
            tracker.mark_phase(steps, "done", "activations")
        n_params = sum(p.numel() for p in params)
        n_trainable = sum(p.numel() for p in trainable)
        del opt, params, trainable, model
    wall_seconds = time.perf_counter() - started

    # --- assemble the result ------------------------------------------------------------------
    phase_peaks: dict[str, float] = {}
    step_peaks: list[PhasePeak] = []
    for (step, phase), n_bytes in sorted(tracker.phase_peaks.items()):
        if phase not in PHASES:
            continue
        gib = bytes_to_gib(n_bytes)
        start = bytes_to_gib(tracker.phase_starts.get((step, phase), 0))
        step_peaks.append(PhasePeak(step=step, phase=phase, start_gib=start, peak_gib=gib))
        phase_peaks[phase] = max(phase_peaks.get(phase, 0.0), gib)
    peak_tensor_gib = bytes_to_gib(tracker.peak_bytes)
    peak_allocated_gib = bytes_to_gib(tracker.peak_rounded_bytes)
    tb.step(
        "simulated tensor peak",
        "max over ops of sum(live storage bytes) / 2^30",
        peak_tensor_gib,
        "GiB",
        source="FakeTensorMode + storage-counting dispatch mode",
        ops=tracker.ops,
    )
    tb.step(
        "allocator block rounding",
        "max over ops of sum(ceil(bytes / 512) * 512) / 2^30",
        peak_allocated_gib,
        "GiB",
        source="c10 CUDACachingAllocator kMinBlockSize = 512 B",
    )
    fragmentation_gib = peak_allocated_gib * ALLOCATOR_FRAGMENTATION_FRACTION
    lines = (
        CudaLine(name="CUDA context", memory_gib=CUDA_CONTEXT_GIB, source=CUDA_CONTEXT_SOURCE),
        CudaLine(
            name="cuBLAS/cuBLASLt workspaces", memory_gib=CUBLAS_WORKSPACE_GIB, source=CUBLAS_WORKSPACE_SOURCE
        ),
        CudaLine(
            name="allocator rounding (512 B blocks, computed)",
            memory_gib=peak_allocated_gib - peak_tensor_gib,
            source="c10 CUDACachingAllocator kMinBlockSize",
        ),
        CudaLine(
            name="allocator fragmentation (reserved - allocated)",
            memory_gib=fragmentation_gib,
            source=ALLOCATOR_FRAGMENTATION_SOURCE,
        ),
    )
    tb.assume("cuda_context_gib", round(CUDA_CONTEXT_GIB, 3), "GiB", CUDA_CONTEXT_SOURCE)
    tb.assume("cublas_workspace_gib", round(CUBLAS_WORKSPACE_GIB, 4), "GiB", CUBLAS_WORKSPACE_SOURCE)
    tb.assume(
        "allocator_fragmentation_fraction",
        ALLOCATOR_FRAGMENTATION_FRACTION,
        "",
        ALLOCATOR_FRAGMENTATION_SOURCE,
    )
    total_gib = tb.step(
        "simulated total with CUDA lines",
        "peak_allocated + cuda_context + cublas_workspace + fragmentation_fraction * peak_allocated",
        peak_tensor_gib + sum(line.memory_gib for line in lines),
        "GiB",
        peak_allocated_gib=peak_allocated_gib,
        cuda_context_gib=CUDA_CONTEXT_GIB,
        cublas_workspace_gib=CUBLAS_WORKSPACE_GIB,
        fragmentation_gib=fragmentation_gib,
    )
    program = _describe_program(
        method, training_precision, optimizer, optimizer_impl, attention_used, grad_checkpointing
    )
    if attention_used != attention:
        program += (f"{model_type} has no {attention} attention in transformers: eager attention simulated",)
    if method == "lora" and lora_fp32_adapters and not mixed:
        program += ("fp32 LoRA adapters and states (peft's autocast_adapter_dtype default), no autocast",)
    return SimulationResult(
        model_id=arch.id,
        model_type=model_type,
        method=method,
        training_precision=training_precision,
        optimizer=optimizer,
        optimizer_impl=optimizer_impl,
        lora_rank=lora_rank if method == "lora" else None,
        lora_targets=(targets if isinstance(targets, str) or targets is None else tuple(targets)),
        seq_len=seq_len,
        batch_size=batch_size,
        grad_checkpointing=grad_checkpointing,
        attention=attention_used,
        steps=steps,
        params=n_params,
        trainable_params=n_trainable,
        params_catalog=arch.param_count(),
        peak_tensor_gib=peak_tensor_gib,
        peak_allocated_gib=peak_allocated_gib,
        peak_phase=tracker.peak_phase,
        peak_step=tracker.peak_step,
        phase_peaks_gib=phase_peaks,
        step_phase_peaks=tuple(step_peaks),
        breakdown_at_peak_gib={k: bytes_to_gib(v) for k, v in tracker.breakdown_at_peak.items()},
        cuda_lines=lines,
        total_gib=total_gib,
        wall_seconds=wall_seconds,
        ops=tracker.ops,
        versions={"torch": torch.__version__, "transformers": transformers.__version__, "peft": peft_version},
        program=program,
        **tb.fields(),
    )


def _materialize_fake(model: Any, torch: Any) -> None:
    """Give every meta parameter and buffer a fake CPU storage, keeping shared (tied) tensors shared.

    Module.to_empty() would replace a tied parameter once per module that holds it, silently untying
    the input embedding and the output head (one extra vocab x hidden matrix, its gradient and its
    optimizer state); this keeps one new tensor per original tensor instead.
    """
    memo: dict[int, Any] = {}
    for module in model.modules():
        for name, p in list(module._parameters.items()):
            if p is None:
                continue
            if id(p) not in memo:
                empty = torch.empty(p.shape, dtype=p.dtype, device="cpu")
                memo[id(p)] = torch.nn.Parameter(empty, requires_grad=p.requires_grad)
            module._parameters[name] = memo[id(p)]
        for name, b in list(module._buffers.items()):
            if b is None:
                continue
            if id(b) not in memo:
                memo[id(b)] = torch.empty(b.shape, dtype=b.dtype, device="cpu")
            module._buffers[name] = memo[id(b)]


def _describe_program(
    method: str, precision: str, optimizer: str, impl: str, attention: str, checkpointing: bool
) -> tuple[str, ...]:
    lines = []
    if method == "full" and precision == "mixed":
        lines.append("fp32 weights, bf16 autocast forward (cached bf16 weight copies), fp32 grads and states")
    elif method == "full":
        lines.append("bf16 weights, grads and optimizer states, no autocast")
    elif precision == "mixed":
        lines.append("bf16 frozen base, fp32 LoRA adapters and states (peft default), bf16 autocast")
    else:
        lines.append("bf16 frozen base, bf16 LoRA adapters and states, no autocast")
    lines.append(f"optimizer {optimizer} ({impl}), zero_grad(set_to_none=True)")
    ckpt = "on (non-reentrant, per decoder layer)" if checkpointing else "off"
    lines.append(f"attention {attention}; gradient checkpointing {ckpt}")
    lines.append("loss: transformers ForCausalLMLoss (logits upcast to fp32); packed batch, no padding mask")
    lines.append("fake CPU tensors (FakeTensorMode); CUDA-only costs added as named lines")
    return tuple(lines)
