"""GPU Advisor as tools for other assistants.

Four plain functions return JSON-ready dicts: `size_workload` (peak GPU memory of one configuration,
what `gpu-advisor size --format json` prints), `estimate_time` (training time and throughput of one run,
what `gpu-advisor time --format json` prints), `recommend_gpus` (a description or a profile -> the
design.md profile/recommendation/questions object) and `generate_report` (the PDF/HTML/Markdown/JSON
report written to a folder). The MCP server (advisor/mcp_server.py) serves these same functions; `get_tools()`
wraps them as LangChain tools, beside the conversation agent's calculator adapters (advisor/llm/tools.py),
so another agent gets the same numbers as our own chat.

Nothing here computes: each function hands its arguments to the deterministic tools/ calculators and
returns their results unchanged. User errors raise tools.errors.InputError with one line in the tools'
own terms (their parameter names, never a command-line flag); LangChain tools hand it back to the calling
model instead of raising, the MCP server as a tool error.
"""

from __future__ import annotations

import inspect
import json
import re
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import Field

from advisor.api import ask, size, time
from advisor.extract.accounting import account_for
from advisor.llm.numbers import AllowedNumbers
from advisor.llm.tools import ToolBox
from advisor.service.profiles import profile_from_mapping, profile_from_text_or_brief
from advisor.service.recommending import recommend_for
from advisor.service.reports import REPORTS_DIR_ENV, reports_folder, write_report
from tools.errors import InputError
from tools.profile import WorkloadProfile
from tools.recommend.models import recommendation_json
from tools.sizing_request import CLI_FLAGS, MODEL_FIELDS, SizingRequest
from tools.time_request import TIME_PRECISIONS
from tools.vocabulary import (
    BATCH_SIZE_DEFAULT,
    FRAMEWORK_DEFAULT,
    FRAMEWORKS,
    LORA_RANK_DEFAULT,
    METHODS,
    OFFLOADS,
    OPTIMIZER_DEFAULT,
    OPTIMIZERS,
    PRECISIONS,
    SEQ_LEN_DEFAULT,
    SHARDINGS,
    TRAINING_PRECISIONS,
    Method,
)

if TYPE_CHECKING:
    from langchain_core.tools import BaseTool

ReportFormat = Literal["pdf", "html", "md", "json"]
Backend = Literal["rules", "openai"]
INLINE_REPORT_CHARS = 200_000  # md/json reports up to this size are also returned inline

# The calculators word their messages for the command line (`--tp 3`, `--params-b`); a tool caller knows
# the parameters instead (`tp=3`, `params_b`).
_CLI_FLAG = re.compile(r"--([a-z][a-z0-9-]*)(?: ([\w.-]+))?")
_FIELD_OF_FLAG = {flag.removeprefix("--").replace("-", "_"): field for field, flag in CLI_FLAGS.items()}
_OPTION_VALUES = frozenset(
    (*METHODS, *PRECISIONS, *TRAINING_PRECISIONS, *OPTIMIZERS, *SHARDINGS, *OFFLOADS, *TIME_PRECISIONS)
)
# "(list all with `gpu-advisor catalog models`)": a command a tool caller cannot run
_CLI_COMMAND_HINT = re.compile(r"\s*\([^()]*`gpu-advisor [^`]*`[^()]*\)")
_NUMBER = re.compile(r"-?\d+(\.\d+)?")


def in_tool_terms(message: str) -> str:
    """A user error's one-line message with the command line's words replaced by the tools' parameter
    names: `--tp 3` -> `tp=3`, `--method qlora` -> `method=qlora`, `--params-b` -> `params_b`; a hint
    naming a `gpu-advisor` command is dropped."""

    def parameter(match: re.Match[str]) -> str:
        name = match.group(1).replace("-", "_")
        name = _FIELD_OF_FLAG.get(name, name)
        value = match.group(2)
        if name.startswith("no_") and name[3:] in SizingRequest.model_fields:  # --no-grad-checkpointing
            return f"{name[3:]}=false" + (f" {value}" if value else "")
        if value is None:
            return name
        bare = value.rstrip(".")
        if _NUMBER.fullmatch(bare) or bare in _OPTION_VALUES:
            return f"{name}={value}"
        return f"{name} {value}"

    text = _CLI_COMMAND_HINT.sub("", _CLI_FLAG.sub(parameter, message))
    return " ".join(text.split())


@contextmanager
def _in_tool_terms() -> Iterator[None]:
    """Re-raise a user error from the calculators with its message in the tools' terms."""
    try:
        yield
    except InputError as exc:
        raise InputError(in_tool_terms(str(exc))) from exc


def _req(name: str, **constraints: Any) -> Any:
    """A tool parameter's pydantic Field with SizingRequest's help text for `name` (plus constraints)."""
    return Field(description=SizingRequest.model_fields[name].description, **constraints)


def _default(name: str) -> Any:
    """SizingRequest's default for `name` (the CLI's default too)."""
    return SizingRequest.model_fields[name].default


def _one_model(flags: dict[str, Any]) -> None:
    """size_workload and estimate_time take exactly one of model, params_b, config."""
    given = [name for name in MODEL_FIELDS if flags[name] is not None]
    if not given:
        raise InputError(
            "say which model: give model (a catalog id, e.g. llama-3-70b), params_b (billions of "
            "parameters) or config (the path of a Hugging Face config.json)"
        )
    if len(given) > 1:
        raise InputError(f"give only one of model, params_b, config (got {', '.join(given)})")


def size_workload(
    model: Annotated[str | None, Field(description="catalog model id or alias, e.g. llama-3-70b")] = None,
    params_b: Annotated[
        float | None,
        Field(
            description="model size in billions of parameters (when the model is not in the catalog)", gt=0
        ),
    ] = None,
    config: Annotated[str | None, Field(description="path to a Hugging Face config.json")] = None,
    method: Annotated[Method, Field(description="training method, or inference")] = "full",
    precision: Annotated[
        str | None, Field(description="bf16 | fp16 | fp32 | fp8 | int8 | int4 | nf4")
    ] = None,
    optimizer: Annotated[
        str, Field(description="adamw | adamw-8bit | paged-adamw-8bit | sgd | adafactor")
    ] = OPTIMIZER_DEFAULT,
    lora_rank: Annotated[int, Field(ge=1)] = LORA_RANK_DEFAULT,
    seq_len: Annotated[int, Field(ge=1, description="tokens per training sequence")] = SEQ_LEN_DEFAULT,
    batch_size: Annotated[int, Field(ge=1, description="micro-batch per GPU")] = BATCH_SIZE_DEFAULT,
    grad_checkpointing: bool = True,
    gpus: Annotated[int, Field(ge=1)] = 1,
    sharding: Annotated[str, Field(description="none | ddp | zero1 | zero2 | zero3 | fsdp")] = "none",
    tp: Annotated[int, Field(ge=1, description="tensor-parallel degree")] = 1,
    pp: Annotated[int, Field(ge=1, description="pipeline-parallel degree")] = 1,
    offload: Annotated[str, Field(description="none | optimizer | params")] = "none",
    concurrency: Annotated[int, Field(ge=1, description="concurrent sequences (inference)")] = 1,
    context_len: Annotated[int | None, Field(ge=1, description="tokens per sequence (inference)")] = None,
    kv_heads: Annotated[int | None, Field(ge=1, description="with params_b: KV heads (default 8)")] = None,
    layers: Annotated[int | None, Field(ge=1, description="with params_b: decoder layers")] = None,
    hidden: Annotated[int | None, Field(ge=1, description="with params_b: hidden size")] = None,
    # the memory options: type, default and help are SizingRequest's, as the CLI's flags are
    framework: Annotated[str, _req("framework")] = _default("framework"),
    optimizer_impl: Annotated[str | None, _req("optimizer_impl")] = _default("optimizer_impl"),
    loss_chunking: Annotated[bool | None, _req("loss_chunking")] = _default("loss_chunking"),
    lora_dropout: Annotated[float | None, _req("lora_dropout", ge=0, lt=1)] = _default("lora_dropout"),
    activation_offloading: Annotated[bool | None, _req("activation_offloading")] = _default(
        "activation_offloading"
    ),
    optimizer_in_backward: Annotated[bool | None, _req("optimizer_in_backward")] = _default(
        "optimizer_in_backward"
    ),
    variable_length: Annotated[bool, _req("variable_length")] = _default("variable_length"),
    loss_impl: Annotated[str | None, _req("loss_impl")] = _default("loss_impl"),
    loss_upcast: Annotated[bool | None, _req("loss_upcast")] = _default("loss_upcast"),
    model_code: Annotated[str | None, _req("model_code")] = _default("model_code"),
    lora_fp32_adapters: Annotated[bool | None, _req("lora_fp32_adapters")] = _default("lora_fp32_adapters"),
    fp32_unquantized: Annotated[bool | None, _req("fp32_unquantized")] = _default("fp32_unquantized"),
    quant_saves_input: Annotated[bool | None, _req("quant_saves_input")] = _default("quant_saves_input"),
    returns_kv_cache: Annotated[bool | None, _req("returns_kv_cache")] = _default("returns_kv_cache"),
    fsdp_limit_all_gathers: Annotated[bool | None, _req("fsdp_limit_all_gathers")] = _default(
        "fsdp_limit_all_gathers"
    ),
    fp8_linears: Annotated[bool | None, _req("fp8_linears")] = _default("fp8_linears"),
    fp8_params: Annotated[bool | None, _req("fp8_params")] = _default("fp8_params"),
    grad_reduce_in_fp32: Annotated[bool | None, _req("grad_reduce_in_fp32")] = _default(
        "grad_reduce_in_fp32"
    ),
    training_objective: Annotated[str, _req("training_objective")] = _default("training_objective"),
    precompute_ref_log_probs: Annotated[bool, _req("precompute_ref_log_probs")] = _default(
        "precompute_ref_log_probs"
    ),
    memory_basis: Annotated[str, _req("memory_basis")] = _default("memory_basis"),
    gpu: Annotated[str | None, Field(description="catalog GPU id: also say whether it fits")] = None,
) -> dict[str, Any]:
    """Peak GPU memory per GPU for one model/method/parallelism configuration, with the breakdown
    (weights, gradients, optimizer, activations, kv_cache, adapters, overhead; GiB), the assumptions and
    the calculation trace, the training phase of the peak (`peak_phase`) and the memory basis. Give
    exactly one of model, params_b, config."""
    flags = dict(locals())  # the parameters are SizingRequest fields (tests/mcp checks it)
    _one_model(flags)
    with _in_tool_terms():
        return size(**flags)


def estimate_time(
    model: Annotated[str | None, Field(description="catalog model id or alias, e.g. llama-3-70b")] = None,
    config: Annotated[str | None, Field(description="path to a Hugging Face config.json")] = None,
    params_b: Annotated[
        float | None, Field(description="billions of parameters (when the model is not in the catalog)", gt=0)
    ] = None,
    method: Annotated[Method, Field(description="training method (inference: serving time)")] = "full",
    gpu: Annotated[str | None, Field(description="catalog GPU id, e.g. h100-sxm (required)")] = None,
    gpus: Annotated[int, Field(ge=1, description="number of GPUs")] = 1,
    tokens: Annotated[
        float | None, Field(gt=0, description="training tokens per epoch; without it, throughput only")
    ] = None,
    epochs: Annotated[float, Field(gt=0)] = 1.0,
    seq_len: Annotated[int, Field(ge=1, description="tokens per training sequence")] = SEQ_LEN_DEFAULT,
    batch_size: Annotated[int | None, Field(ge=1, description="micro-batch per GPU, if known")] = None,
    grad_accumulation: Annotated[
        int | None, Field(ge=1, description="micro-batches per optimizer step (accumulation; default 1)")
    ] = None,
    precision: Annotated[Literal["bf16", "fp8"], Field(description="compute precision")] = "bf16",
    training_precision: Annotated[
        Literal["mixed", "pure-bf16", "pure-fp16"] | None,
        Field(description="mixed (default): FP32 master weights, 28 B/param a step; pure-bf16/-fp16: 14 B"),
    ] = None,
    grad_checkpointing: bool = True,
    flash_attention: Annotated[
        bool, Field(description="memory-efficient attention kernel; false: eager attention (s x s scores)")
    ] = True,
    packed: Annotated[
        bool, Field(description="samples packed into full sequences; false: batches padded to the longest")
    ] = True,
    framework: Annotated[
        str | None,
        Field(
            description=f"training stack: {', '.join(FRAMEWORKS)} (default {FRAMEWORK_DEFAULT}); another "
            "name is timed with the generic band, and the result says so; inference: vllm, sglang, "
            "tensorrt-llm or tgi, optionally with the engine's release (vllm-0.5; default a current one)"
        ),
    ] = None,
    training_objective: Annotated[
        Literal["sft", "dpo", "orpo", "simpo", "kto"],
        Field(description="sft, or preference tuning: 2 sequences a pair; dpo/kto add a reference forward"),
    ] = "sft",
    precompute_ref_log_probs: Annotated[
        bool, Field(description="dpo/kto: reference log-probs computed before training")
    ] = False,
    pairs: Annotated[
        float | None,
        Field(gt=0, description="preference pairs per epoch, not tokens: x (2 prompt + chosen + rejected)"),
    ] = None,
    pair_prompt_tokens: Annotated[int | None, Field(ge=0, description="with pairs: prompt tokens")] = None,
    chosen_tokens: Annotated[int | None, Field(ge=1, description="with pairs: chosen answer tokens")] = None,
    rejected_tokens: Annotated[int | None, Field(ge=1, description="with pairs: rejected tokens")] = None,
    concurrency: Annotated[int | None, Field(ge=1, description="inference: requests in flight")] = None,
    prompt_tokens: Annotated[
        int | None, Field(ge=1, description="inference: input tokens per request")
    ] = None,
    output_tokens: Annotated[
        int | None, Field(ge=1, description="inference: output tokens per request")
    ] = None,
) -> dict[str, Any]:
    """Training time and throughput of one run: tokens_per_s_per_gpu, wall_hours and gpu_hours (low-high;
    null without tokens), the MFU band, the 100%-MFU lower bound, the framework assumed, what would
    narrow the range, the assumptions and the calculation trace. Give exactly one of model, params_b,
    config, and the gpu."""
    flags = dict(locals())  # the parameters are TimeRequest fields (tests/compute checks it)
    _one_model(flags)
    with _in_tool_terms():
        return time(**flags)


def _profile_and_settings(description: str | None, profile: dict[str, Any] | None, backend: str) -> Any:
    if description is None and profile is None:
        raise InputError(
            "describe the workload: give description (the workload in plain words) or profile "
            '(a WorkloadProfile mapping, e.g. {"model_id": "llama-3-8b", "method": "lora"})'
        )
    if description is not None and profile is not None:
        raise InputError(
            "give either description (plain words) or profile (a WorkloadProfile mapping), not both"
        )
    with _in_tool_terms():
        if profile is not None:
            return profile_from_mapping(profile, where="profile")
        if not description or not description.strip():
            raise InputError("description is empty: describe the workload in plain words")
        return profile_from_text_or_brief(description, backend=backend), None


def recommend_gpus(
    description: Annotated[
        str | None,
        Field(
            description="the workload in plain language, e.g. 'QLoRA "
            "fine-tune Llama 3 70B on 50M tokens, 3 epochs, budget $2,000'"
        ),
    ] = None,
    profile: Annotated[
        dict[str, Any] | None,
        Field(
            description="or a workload profile: design.md profile "
            "keys (workload, model_id, params_b, method, dataset_tokens, "
            "epochs, budget_usd, deadline_hours, ...)"
        ),
    ] = None,
    backend: Annotated[
        Backend, Field(description="how a description is read: rules (offline) or openai")
    ] = "rules",
) -> dict[str, Any]:
    """Recommend GPU configurations for an LLM workload: the primary option, alternatives (cheapest,
    fastest, lowest operational risk, owned hardware), rejected GPUs with reasons, wall-time and cost
    ranges (USD), and the questions whose answers could change the pick. Every number comes from the
    deterministic calculators (memory, compute, cost) on the bundled catalog."""
    if description is not None and profile is None and description.strip():
        with _in_tool_terms():
            return ask(description, backend=backend)
    prof, settings = _profile_and_settings(description, profile, backend)
    with _in_tool_terms():
        rec, _catalog = recommend_for(prof, settings=settings)
    return {
        "profile": prof.model_dump(mode="json"),
        "recommendation": recommendation_json(rec),
        "questions": [],
    }


def generate_report(
    description: Annotated[str | None, Field(description="the workload in plain language")] = None,
    profile: Annotated[
        dict[str, Any] | None, Field(description="or a workload profile (design.md keys)")
    ] = None,
    format: Annotated[ReportFormat, Field(description="pdf (for a buyer), html, md or json")] = "pdf",
    output_dir: Annotated[
        str | None,
        Field(
            description="a subfolder of the reports folder to write into (relative to it, or an absolute "
            "path inside it; created if missing); default: the reports folder itself"
        ),
    ] = None,
    backend: Annotated[Backend, Field(description="how a description is read: rules or openai")] = "rules",
) -> dict[str, Any]:
    """Write the GPU recommendation report (primary configuration, alternatives, cost and time ranges,
    assumptions and the full calculation trace with sources) and return its path. Markdown and JSON
    reports are also returned inline as `content`. Reports go only under the configured reports folder
    (GPU_ADVISOR_REPORTS_DIR, else the data directory's reports/)."""
    prof, settings = _profile_and_settings(description, profile, backend)
    folder = _report_folder(output_dir)
    out = folder / f"gpu-advisor-report-{secrets.token_hex(4)}.{format}"
    try:
        with _in_tool_terms():
            account = account_for(description, prof) if description else None
            path = write_report(
                prof, out, fmt=format, settings=settings, description=description, input_account=account
            )
    except OSError as exc:
        raise InputError(
            f"cannot write the report into {folder} ({_reason(exc)}): make that folder writable for this "
            f"server, or set {REPORTS_DIR_ENV} to a folder it can write"
        ) from exc
    result: dict[str, Any] = {"path": str(path.resolve()), "format": format, "bytes": path.stat().st_size}
    if format in ("md", "json") and result["bytes"] <= INLINE_REPORT_CHARS:
        result["content"] = path.read_text(encoding="utf-8")
    return result


def _report_folder(output_dir: str | None) -> Path:
    """The reports folder, or `output_dir` when it resolves inside it (relative paths are taken from it,
    symlinks followed), created there if missing; anything outside is refused."""
    try:
        base = reports_folder().resolve()
    except OSError as exc:
        raise InputError(
            f"cannot create the reports folder ({_reason(exc)}): set {REPORTS_DIR_ENV} to a folder this "
            "server can write"
        ) from exc
    if not output_dir:
        return base
    try:
        folder = (base / Path(output_dir).expanduser()).resolve()
    except (OSError, RuntimeError) as exc:  # RuntimeError: a symlink loop
        raise InputError(
            f"output_dir {output_dir!r} cannot be resolved ({exc}): give a plain subfolder name"
        ) from exc
    if not folder.is_relative_to(base):
        raise InputError(
            f"output_dir {output_dir!r} is outside the reports folder {base}: give a subfolder of it "
            "(e.g. 'team-a') or leave output_dir out"
        )
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InputError(
            f"cannot create output_dir {output_dir!r} in the reports folder ({_reason(exc)}): give another "
            "subfolder name or leave output_dir out"
        ) from exc
    return folder


def _reason(exc: OSError) -> str:
    """An OSError's reason without its path, e.g. 'Permission denied'."""
    return exc.strerror or type(exc).__name__


PLUGIN_FUNCTIONS = (
    ("gpu_advisor_size", size_workload),
    ("gpu_advisor_time", estimate_time),
    ("gpu_advisor_recommend", recommend_gpus),
    ("gpu_advisor_report", generate_report),
)
# the conversation agent's adapters reused as-is (recommend_gpus there is a what-if on a chat's profile,
# which gpu_advisor_recommend covers for a caller without one)
CALCULATOR_ADAPTERS = (
    "estimate_memory",
    "estimate_training_time",
    "estimate_inference",
    "egress_cost",
    "gpu_spec",
)


def get_tools(*, calculators: bool = True) -> list[BaseTool]:
    """The LangChain tools: gpu_advisor_size, gpu_advisor_recommend, gpu_advisor_report, plus (calculators=
    True) the calculator adapters estimate_memory, estimate_training_time, estimate_inference, egress_cost
    and gpu_spec. Descriptions are the functions' and calculators' docstrings; a user error comes back to
    the model as the tool's answer ("error: ..."), not as an exception."""
    # lazy: LangChain loads only for a caller that asks for LangChain tools (not for the MCP server)
    from langchain_core.tools import StructuredTool

    def wrap(fn: Any) -> Any:
        def run(**kwargs: Any) -> str:
            try:
                return json.dumps(fn(**kwargs), default=str)
            except (InputError, ValueError) as exc:
                return f"error: {exc}"

        run.__name__ = fn.__name__
        run.__doc__ = fn.__doc__
        run.__annotations__ = {**fn.__annotations__, "return": str}
        run.__signature__ = _signature(fn)  # type: ignore[attr-defined]
        return run

    tools: list[BaseTool] = [
        StructuredTool.from_function(func=wrap(fn), name=name, description=(fn.__doc__ or name).strip())
        for name, fn in PLUGIN_FUNCTIONS
    ]
    if calculators:
        box = ToolBox(WorkloadProfile(), AllowedNumbers())
        tools.extend(t for t in box.langchain_tools() if t.name in CALCULATOR_ADAPTERS)
    return tools


def _signature(fn: Any) -> Any:
    sig = inspect.signature(fn)
    return sig.replace(return_annotation=str)


class GpuAdvisorToolkit:
    """A LangChain-style toolkit object (`.get_tools()`), for frameworks that take toolkits."""

    def __init__(self, *, calculators: bool = True) -> None:
        self.calculators = calculators

    def get_tools(self) -> list[BaseTool]:
        return get_tools(calculators=self.calculators)
