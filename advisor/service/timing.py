"""The time use case: one TimeRequest (tools.time_request) -> the `gpu-advisor time --format json` dict.

Checks each input (one-line InputError in the command line's terms, which the MCP tool rewrites into
its parameter names), resolves the framework (a name outside tools.vocabulary.FRAMEWORKS is not an
error: the generic efficiency band is used and `framework_note` says so), and hands everything to
tools.compute.training.estimate_training_time, whose figures come back unchanged; serving time
(`method inference`) goes to tools.compute.serving.estimate_serving_time the same way.
"""

from __future__ import annotations

import math
from typing import Any, cast

from tools.catalog.load import load_catalog
from tools.catalog.schema import ModelArch
from tools.compute.serving import estimate_serving_time
from tools.compute.serving_steps import split_engine_release
from tools.compute.training import estimate_training_time
from tools.errors import InputError
from tools.preference import PAIRED_OBJECTIVES, TRAINING_OBJECTIVES, preference_tokens
from tools.present import framework_text
from tools.time_request import INFERENCE_FIELDS, TIME_PRECISIONS, TimeRequest
from tools.vocabulary import (
    FRAMEWORK_DEFAULT,
    FRAMEWORKS,
    PRETRAINING_FRAMEWORK_DEFAULT,
    PRETRAINING_STACK_TEXT,
    SERVING_FRAMEWORKS,
    TRAINING_METHODS,
    TRAINING_PRECISIONS,
    Framework,
)

RATE_TOKENS = 1e9
"""Tokens timed when --tokens is not given: throughput does not depend on it, hours are left out."""


def resolve_framework(name: str | None, method: str = "full") -> tuple[Framework | None, str | None]:
    """The training framework for a name as given, and a note when it was not given or not known:
    None -> the default as the recommender applies it (tools.defaults: hf for fine-tuning, the pooled
    pre-training band for pretraining); a known name (any case, '_' for '-') -> itself; another -> None
    (the generic band)."""
    if name is None or not name.strip():
        if method == "pretraining":
            return (
                PRETRAINING_FRAMEWORK_DEFAULT,
                f"assumed {PRETRAINING_STACK_TEXT} (not given; --framework NAME narrows the range)",
            )
        return (
            FRAMEWORK_DEFAULT,
            f"assumed {FRAMEWORK_DEFAULT} (not given; --framework NAME narrows the range)",
        )
    key = name.strip().lower().replace("_", "-")
    if key in FRAMEWORKS:
        return cast(Framework, key), None
    return None, (
        f"unknown framework {name!r}: the generic efficiency band is used (known: {', '.join(FRAMEWORKS)})"
    )


def _check(request: TimeRequest) -> None:
    """One-line InputErrors for values the calculators would refuse or misread."""
    methods = (*TRAINING_METHODS, "inference")
    if request.method not in methods:
        raise InputError(f"unknown --method {request.method!r}: use {', '.join(methods)}")
    if request.gpu is None or not str(request.gpu).strip():
        raise InputError(
            "say which GPU: give --gpu ID (e.g. h100-sxm; list them with `gpu-advisor catalog gpus`)"
        )
    if isinstance(request.gpus, bool) or not isinstance(request.gpus, int) or request.gpus < 1:
        raise InputError(f"--gpus must be a whole number >= 1 (got {request.gpus!r})")
    if request.precision not in TIME_PRECISIONS:
        raise InputError(f"unknown --precision {request.precision!r}: use {' or '.join(TIME_PRECISIONS)}")
    for name in ("tokens", "epochs"):
        value = getattr(request, name)
        if value is None and name == "tokens":
            continue
        ok = isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)
        if not ok or value <= 0:
            raise InputError(f"--{name} must be a positive number (got {value!r})")
    for name in ("seq_len", "batch_size", "grad_accumulation", *INFERENCE_FIELDS):
        value = getattr(request, name)
        if value is None and name != "seq_len":
            continue
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise InputError(f"--{name.replace('_', '-')} must be a whole number >= 1 (got {value!r})")
    if request.method != "inference":
        given = [f"--{n.replace('_', '-')}" for n in INFERENCE_FIELDS if getattr(request, n) is not None]
        if given:
            raise InputError(f"{', '.join(given)} apply to --method inference only")
    else:
        given = [f for f in ("grad_accumulation", "training_precision") if getattr(request, f) is not None]
        if given:
            flags = ", ".join(f"--{f.replace('_', '-')}" for f in given)
            raise InputError(f"{flags} applies to training only (not --method inference)")
    if request.training_precision is not None and request.training_precision not in TRAINING_PRECISIONS:
        raise InputError(
            f"unknown --training-precision {request.training_precision!r}: "
            f"use {', '.join(TRAINING_PRECISIONS)}"
        )
    _check_preference(request)


def _check_preference(request: TimeRequest) -> None:
    """The objective and the pair flags: --pairs with --chosen-tokens and --rejected-tokens, or --tokens."""
    if request.training_objective not in TRAINING_OBJECTIVES:
        raise InputError(
            f"unknown --training-objective {request.training_objective!r}: "
            f"use {', '.join(TRAINING_OBJECTIVES)}"
        )
    pair_flags = ("pairs", "pair_prompt_tokens", "chosen_tokens", "rejected_tokens")
    given = [n for n in pair_flags if getattr(request, n) is not None]
    if not given:
        return
    if request.training_objective not in PAIRED_OBJECTIVES:
        raise InputError(
            "--pairs, --chosen-tokens, --rejected-tokens need --training-objective dpo, orpo or simpo"
        )
    if request.tokens is not None:
        raise InputError("give --tokens or --pairs (with --chosen-tokens and --rejected-tokens), not both")
    missing = [f"--{n.replace('_', '-')}" for n in pair_flags if n != "pair_prompt_tokens" and n not in given]
    if missing:
        raise InputError(f"--pairs needs {', '.join(missing)}")
    for n in given:
        value = getattr(request, n)
        low = 0 if n == "pair_prompt_tokens" else 1
        if isinstance(value, bool) or not isinstance(value, int | float) or value < low:
            raise InputError(f"--{n.replace('_', '-')} must be a number >= {low} (got {value!r})")


def _tokens_per_epoch(request: TimeRequest) -> float | None:
    """--tokens, or the pairs' tokens: pairs x (2 x prompt + chosen + rejected) (tools.preference)."""
    if request.pairs is None:
        return request.tokens
    return preference_tokens(
        pairs=float(request.pairs),
        prompt_tokens=float(request.pair_prompt_tokens or 0),
        chosen_tokens=float(request.chosen_tokens or 0),
        rejected_tokens=float(request.rejected_tokens or 0),
    )


def serving_engine(name: str) -> tuple[str, str | None]:
    """The serving framework and the release a user stated with it ('vllm-0.5' -> vllm, '0.5'); no
    release: None, a current one (tools.compute.serving_steps.split_engine_release)."""
    return split_engine_release(name)


def serving_time_json(request: TimeRequest, arch: ModelArch) -> dict[str, Any]:
    """`time --method inference`: one replica of `--gpus` tensor-parallel GPUs serving `--concurrency`
    requests of `--prompt-tokens` in and `--output-tokens` out (tools.compute.serving, continuous
    batching). Keys: output_tokens_per_s (the whole replica), per_user_tokens_per_s,
    ms_per_output_token, time_to_first_token_s ({low, high} each), max_concurrency (what the KV cache
    holds), decode_bound, weights_fit, framework, assumptions, trace, model, gpu, inputs."""
    missing = [f"--{n.replace('_', '-')}" for n in INFERENCE_FIELDS if getattr(request, n) is None]
    if missing:
        raise InputError(
            f"--method inference needs {', '.join(missing)} (requests in flight, tokens in and out)"
        )
    spec = load_catalog().gpu(str(request.gpu))
    framework, engine_version = (
        (None, None) if request.framework is None else serving_engine(request.framework)
    )
    t = estimate_serving_time(
        arch=arch,
        gpu=spec,
        n_gpus=request.gpus,
        precision=request.precision,  # type: ignore[arg-type]  # checked by _check
        concurrency=int(request.concurrency or 0),
        prompt_tokens=int(request.prompt_tokens or 0),
        output_tokens=int(request.output_tokens or 0),
        framework=framework,  # type: ignore[arg-type]  # checked by time_json
        engine_version=engine_version,
    )
    return {
        "output_tokens_per_s": t.output_tokens_per_s.model_dump(),
        "per_user_tokens_per_s": t.per_user_tokens_per_s.model_dump(),
        "ms_per_output_token": t.ms_per_output_token.model_dump(),
        "time_to_first_token_s": t.time_to_first_token_s.model_dump(),
        "max_concurrency": t.max_concurrency,
        "live_sequences": t.live_sequences,
        "decode_bound": t.decode_bound,
        "weights_fit": t.weights_fit,
        "framework": t.framework,
        "engine_version": engine_version,
        "assumptions": [a.model_dump() for a in t.assumptions],
        "trace": [s.model_dump() for s in t.trace],
        "model": {
            "id": arch.id,
            "name": arch.name,
            "synthetic": arch.family == "synthetic",
            "params": arch.param_count(),
            "active_params": arch.active_param_count(),
        },
        "gpu": {"id": spec.id, "name": spec.name},
        "inputs": {
            "method": "inference",
            "gpus": request.gpus,
            "precision": request.precision,
            "concurrency": request.concurrency,
            "prompt_tokens": request.prompt_tokens,
            "output_tokens": request.output_tokens,
            "framework": request.framework,
        },
    }


def time_json(request: TimeRequest, arch: ModelArch) -> dict[str, Any]:
    """Training time of `request` on the architecture `arch` as the `time --format json` dict.

    Keys: tokens_per_s_per_gpu, wall_hours, gpu_hours, mfu ({low, high} each; the hours are null
    without --tokens), gpu_hours_at_peak (seed 001's 100%-MFU lower bound), framework (null: the
    generic band), framework_text, framework_band (the framework whose fitted band was used; null: the
    generic band), framework_note, narrowing, assumptions, trace, model, gpu, inputs.
    """
    _check(request)
    if request.method == "inference":
        if request.framework is not None and serving_engine(request.framework)[0] not in SERVING_FRAMEWORKS:
            raise InputError(
                f"unknown serving --framework {request.framework!r}: use {', '.join(SERVING_FRAMEWORKS)}, "
                "optionally with the engine's release (e.g. vllm-0.5)"
            )
        return serving_time_json(request, arch)
    spec = load_catalog().gpu(str(request.gpu))
    framework, note = resolve_framework(request.framework, request.method)
    per_epoch = _tokens_per_epoch(request)
    timed_tokens = per_epoch * request.epochs if per_epoch is not None else RATE_TOKENS
    t = estimate_training_time(
        active_params=float(arch.active_param_count()),
        tokens=timed_tokens,
        method=request.method,  # type: ignore[arg-type]  # checked above
        grad_checkpointing=request.grad_checkpointing,
        gpu=spec,
        n_gpus=request.gpus,
        precision=request.precision,  # type: ignore[arg-type]  # checked above
        arch=arch,
        seq_len=request.seq_len,
        framework=framework,
        batch_size=request.batch_size,
        gradient_accumulation_steps=request.grad_accumulation or 1,
        training_precision=request.training_precision,  # type: ignore[arg-type]  # checked by _check
        packed=request.packed,
        flash_attention=request.flash_attention,
        training_objective=request.training_objective,
        precompute_ref_log_probs=request.precompute_ref_log_probs,
    )
    has_hours = per_epoch is not None
    if framework is not None and t.framework is None:
        note = f"no published throughput of {framework} in the calibration set yet: the generic band is used"
    assumptions = [a.model_dump() for a in t.assumptions]
    if not has_hours:
        assumptions.append(
            {
                "name": "tokens_timed",
                "value": RATE_TOKENS,
                "unit": "tokens",
                "source": "--tokens not given: rates only (tokens/s does not depend on the count); no hours",
            }
        )
    return {
        "tokens_per_s_per_gpu": t.tokens_per_s_per_gpu.model_dump(),
        "tokens_timed": timed_tokens if has_hours else None,
        "wall_hours": t.wall_hours.model_dump() if has_hours else None,
        "gpu_hours": t.gpu_hours.model_dump() if has_hours else None,
        "gpu_hours_at_peak": t.gpu_hours_at_peak if has_hours else None,
        "mfu": t.mfu.model_dump(),
        "framework": framework,
        "framework_text": framework_text(framework),
        "framework_band": t.framework,
        "framework_note": note,
        "narrowing": list(t.narrowing),
        "assumptions": assumptions,
        "trace": [s.model_dump() for s in t.trace],
        "model": {
            "id": arch.id,
            "name": arch.name,
            "synthetic": arch.family == "synthetic",
            "params": arch.param_count(),
            "active_params": t.active_params,
        },
        "gpu": {"id": spec.id, "name": spec.name},
        "inputs": {
            "method": t.method,
            "gpus": t.n_gpus,
            "tokens": request.tokens,
            "epochs": request.epochs,
            "seq_len": request.seq_len,
            "batch_size": request.batch_size,
            "precision": request.precision,
            "grad_checkpointing": request.grad_checkpointing,
            "framework": request.framework,
            # stated only: the inputs of a request without it stay as they were
            **({"grad_accumulation": request.grad_accumulation} if request.grad_accumulation else {}),
            **({"training_precision": request.training_precision} if request.training_precision else {}),
            **_preference_inputs(request),
        },
    }


def _preference_inputs(request: TimeRequest) -> dict[str, Any]:
    """The objective and pair flags for the JSON's inputs; none for plain fine-tuning (the SFT keys stay
    as they were)."""
    if request.training_objective == "sft":
        return {}
    names = ("training_objective", "precompute_ref_log_probs", "pairs", "pair_prompt_tokens", "chosen_tokens",
             "rejected_tokens")  # fmt: skip
    return {n: getattr(request, n) for n in names}
