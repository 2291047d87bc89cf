"""Python API: the same results as the command line, as plain dicts (design.md "Python API").

`size(**flags)` returns what `gpu-advisor size --format json` prints; `time(**flags)` what
`gpu-advisor time --format json` prints; `ask(text, brief, backend)` what
`gpu-advisor ask --format json` prints (one conversation turn: profile, recommendation, questions). User
errors raise tools.errors.InputError (a ValueError) with the one-line message the CLI prints.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from advisor.service.timing import time_json
from advisor.simulate.cli import simulate_for_size
from tools.catalog.hf_config import arch_from_hf_config
from tools.catalog.load import load_catalog
from tools.catalog.synthetic import synthetic_arch
from tools.errors import InputError
from tools.memory import estimate_memory, seed_rule_gb
from tools.sizing_request import SHAPE_FIELDS, SizingRequest
from tools.time_request import TimeRequest

if TYPE_CHECKING:
    from advisor.conversation import Turn
    from advisor.service.recommending import Recommender


def _size_arch(
    model: str | None,
    config: str | Path | None,
    params_b: float | None,
    request: SizingRequest | TimeRequest,
) -> Any:
    """The architecture named by exactly one of --model, --config, --params-b (a --params-b shape from
    the request's --kv-heads/--layers/--hidden where it has them: `size` does, `time` not yet)."""
    given = [
        n for n, v in (("--model", model), ("--config", config), ("--params-b", params_b)) if v is not None
    ]
    if len(given) != 1:
        if not given:
            raise InputError("say which model: give --model ID, --config path/to/config.json or --params-b N")
        raise InputError(f"give only one of --model, --config, --params-b (got {', '.join(given)})")
    shape = [n for n in SHAPE_FIELDS if getattr(request, n, None) is not None]
    if shape and params_b is None:
        raise InputError(f"--{shape[0].replace('_', '-')} describes a --params-b model: give --params-b N")
    if model is not None:
        return load_catalog().model(model)
    if config is not None:
        return arch_from_hf_config(config)
    assert params_b is not None
    return synthetic_arch(
        float(params_b),
        kv_heads=getattr(request, "kv_heads", None),
        layers=getattr(request, "layers", None),
        hidden=getattr(request, "hidden", None),
    )


def size(*, simulate: bool = False, **flags: Any) -> dict[str, Any]:
    """Peak GPU memory of one configuration as the `size --format json` dict.

    Keys: peak_gib_per_gpu, total_gib, breakdown_gib {weights, gradients, optimizer, activations,
    kv_cache, adapters, overhead}, assumptions (list of {name, value, unit, source}), trace (list of
    {step, formula, inputs, output, unit, source}), the resolved inputs, and `fit` when `gpu` names a
    catalog GPU (usable GiB, fits, headroom).

    `flags` are tools.sizing_request.SizingRequest's fields (the CLI's flags, underscored); `simulate`
    also runs the fake-tensor simulator (the `simulate` extra).
    """
    request = SizingRequest.from_flags(**flags)
    arch = _size_arch(request.model, request.config, request.params_b, request)
    est = estimate_memory(arch=arch, **request.calculator_kwargs())
    out: dict[str, Any] = {
        "peak_gib_per_gpu": est.peak_gib_per_gpu,
        "peak_phase": est.peak_phase,
        "phase_peaks_gib": est.phase_peaks_gib,
        "memory_basis": est.memory_basis,
        "peak_allocated_gib": est.peak_allocated_gib(),
        "peak_reserved_gib": est.peak_reserved_gib(),
        "total_gib": est.total_gib,
        "breakdown_gib": est.breakdown_gib.model_dump(),
        "assumptions": [a.model_dump() for a in est.assumptions],
        "trace": [s.model_dump() for s in est.trace],
        "model": {
            "id": arch.id,
            "name": arch.name,
            "synthetic": arch.family == "synthetic",
            "params": est.params,
            "layers": arch.n_layers,
            "hidden_size": arch.hidden_size,
            "vocab_size": arch.vocab_size,
        },
        "inputs": {
            "method": est.method,
            "precision": est.precision,
            "training_precision": est.training_precision,
            "optimizer": est.optimizer,
            "lora_rank": est.lora_rank,
            "lora_targets": list(est.lora_targets),
            "seq_len": est.seq_len,
            "batch_size": est.batch_size,
            "grad_checkpointing": est.grad_checkpointing,
            "flash_attention": est.flash_attention,
            "gpus": est.gpus,
            "sharding": est.sharding,
            "tp": est.tp,
            "pp": est.pp,
            "dp": est.dp,
            "offload": est.offload,
            "concurrency": est.concurrency,
            "context_len": est.context_len,
            "loss_chunking": est.loss_chunking,
            "framework": est.framework,
            "optimizer_impl": est.optimizer_impl,
            "lora_dropout": est.lora_dropout,
            "activation_offloading": est.activation_offloading,
            "optimizer_in_backward": est.optimizer_in_backward,
            "variable_length": est.variable_length,
            "memory_basis": est.memory_basis,
        },
        # per memory option: the value used and whether the framework preset or a flag gave it
        "memory_options": est.memory_options,
        "params": est.params,
        "trainable_params": est.trainable_params,
        "cpu_offload_gib_per_gpu": est.cpu_offload_gib_per_gpu,
        "paged_optimizer_gib": est.paged_optimizer_gib,
        "seed_rule_gb": seed_rule_gb(params=est.params, method=est.method),
        "fit": None,
    }
    if request.gpu is not None:
        # lazy: tools.recommend loads the whole recommender (~70 ms of `size` start); only --gpu needs it
        from tools.recommend.models import RecommendSettings

        spec = load_catalog().gpu(request.gpu)
        usable = spec.usable_memory_gib
        # the recommender's fit rule: peak <= (1 - headroom) x usable (issue 3: at least 10% left free)
        headroom = float(RecommendSettings.model_fields["headroom_fraction"].default)
        out["fit"] = {
            "gpu": spec.id,
            "name": spec.name,
            "usable_memory_gib": usable,
            "fits": est.peak_gib_per_gpu <= usable,
            "headroom_gib": usable - est.peak_gib_per_gpu,
            # a paged optimizer lets a run that is short by less than its state page to host memory
            "fits_with_paging": est.peak_gib_per_gpu - est.paged_optimizer_gib <= usable,
            "required_headroom_fraction": headroom,
            "fits_with_headroom": est.peak_gib_per_gpu <= usable * (1 - headroom),
        }
    if simulate:  # needs the `simulate` extra (torch, transformers, peft), which the simulator imports
        out["simulation"] = simulate_for_size(request, out, arch)
    return out


def time(**flags: Any) -> dict[str, Any]:
    """Training time and throughput of one run as the `time --format json` dict: tokens_per_s_per_gpu,
    wall_hours, gpu_hours, mfu ({low, high}; hours null without `tokens`), gpu_hours_at_peak,
    framework, narrowing, assumptions, trace and the inputs. `flags` are tools.time_request.TimeRequest's
    fields; method "inference" is serving time (one replica at a concurrency, continuous batching)."""
    request = TimeRequest.from_flags(**flags)
    return time_json(request, _size_arch(request.model, request.config, request.params_b, request))


def ask_turn(
    text: str | None,
    brief: str | Path | None = None,
    backend: str = "rules",
    *,
    explain: bool = False,
    recommender: Recommender | None = None,
) -> Turn:
    """One conversation turn on `text` (+ a brief file). explain=True adds the model's checked
    explanation with the openai backend (a second model call); the JSON contract does not need it."""
    # lazy: the conversation loads the extractors and the recommender (~0.2 s), which size() does not need
    from advisor.conversation import Conversation
    from advisor.service.profiles import brief_text, check_backend

    check_backend(backend)
    message = (text or "").strip()
    brief_words = brief_text(brief)
    if not message and not brief_words:
        raise InputError('describe the workload: give "TEXT" or --brief FILE')
    conv = Conversation(backend=backend, explain=explain, recommender=recommender)
    return conv.send(message, brief_text=brief_words)


def turn_json(turn: Turn) -> dict[str, Any]:
    """The design.md `ask --format json` object: profile, recommendation, questions (+ a few extras)."""
    return turn.to_dict()


def ask(text: str | None, brief: str | Path | None = None, backend: str = "rules") -> dict[str, Any]:
    """What `gpu-advisor ask "TEXT" [--brief FILE] [--backend B] --format json` prints, as a dict:
    {"profile", "recommendation", "questions", ...}. User errors raise tools.errors.InputError."""
    return turn_json(ask_turn(text, brief, backend))


__all__ = ["ask", "ask_turn", "size", "time", "turn_json"]
