"""GPU Advisor as an MCP server over stdio (`gpu-advisor mcp` or `python -m advisor.mcp_server`).

Tools (the functions of advisor/toolkit.py, so MCP clients, LangChain agents and our own CLI get the same
numbers):
- `size`: peak GPU memory of one configuration with its breakdown, assumptions and trace;
- `estimate_time`: training time and throughput of one run (tokens/s per GPU, hours, MFU, the framework
  assumed and what would narrow the range), with assumptions and trace;
- `recommend`: a plain-language description (or a profile) -> primary option, alternatives, rejections,
  cost and time ranges, open questions;
- `generate_report`: the PDF (or HTML/Markdown/JSON) report written under the reports folder; its path.
Each returns structured JSON. A bad argument or a user error (unknown model, bad combination, a folder
outside the reports folder) comes back as a tool error of one line, `<tool>: <what to fix>`, in the tool's
own parameter names. stdout carries only the protocol; logs go to stderr (a traceback only for a crash).

This module is its own command: the CLI imports it only inside `gpu-advisor mcp`, so the MCP SDK is
imported here at module top.
"""

from __future__ import annotations

import functools
import inspect
import logging
import os
import sys
from collections.abc import Callable
from importlib.metadata import PackageNotFoundError, version
from typing import Any

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError
from mcp.types import CallToolResult, InputRequiredResult, ToolAnnotations
from pydantic import ValidationError
from pydantic_core import ErrorDetails

from advisor import toolkit
from tools.errors import InputError

SERVER_NAME = "gpu-advisor"
INSTRUCTIONS = (
    "GPU Advisor sizes GPU memory and recommends GPU configurations (with wall-time and cost ranges) for "
    "LLM fine-tuning, pre-training and serving. Every number comes from deterministic calculators: quote "
    "them as returned, do not recompute. Use `recommend` with the user's own description first; `size` "
    "for one specific configuration's memory; `estimate_time` for its training time and throughput; "
    "`generate_report` when the user wants a document."
)
TOOLS: dict[str, Callable[..., Any]] = {
    "size": toolkit.size_workload,
    "estimate_time": toolkit.estimate_time,
    "recommend": toolkit.recommend_gpus,
    "generate_report": toolkit.generate_report,
}
SHOWN_VALUE_CHARS = 40  # a rejected value is quoted up to this length in an error


class AdvisorMCPServer(MCPServer[Any]):
    """MCPServer whose tool errors are one line in the tool's own terms (`size: seq_len must be at least
    1 (got 0)`), instead of the SDK's "Error executing tool" prefix and pydantic's validation report;
    an unknown parameter is refused rather than ignored."""

    async def call_tool(
        self, name: str, arguments: dict[str, Any], context: Context[Any, Any] | None = None
    ) -> CallToolResult | InputRequiredResult:
        fn = TOOLS.get(name)
        if fn is not None:
            known = list(inspect.signature(fn).parameters)
            unknown = [arg for arg in arguments if arg not in known]
            if unknown:
                raise ToolError(
                    f"{name}: unknown parameter {', '.join(map(repr, unknown))}; "
                    f"the parameters are {', '.join(known)}"
                )
        try:
            return await super().call_tool(name, arguments, context)
        except UnexpectedToolError:
            raise  # a crash: the SDK answers "Error executing tool <name>" and logs the traceback
        except ToolError as exc:
            cause = exc.__cause__
            if isinstance(cause, ValidationError):
                raise ToolError(f"{name}: {validation_message(cause)}") from cause
            if isinstance(cause, ToolError):  # ours, already `<tool>: ...`
                raise ToolError(str(cause)) from cause
            raise


def validation_message(exc: ValidationError) -> str:
    """Pydantic's report on a tool's arguments as one line naming each parameter, no links."""
    return "; ".join(_argument_error(err) for err in exc.errors(include_url=False))


def _argument_error(err: ErrorDetails) -> str:
    param = ".".join(str(part) for part in err["loc"]) or "arguments"
    kind, ctx, got = err["type"], err.get("ctx", {}), _shown(err.get("input"))
    if kind == "missing":
        return f"{param} is required"
    if kind == "literal_error":
        return f"{param} must be one of {str(ctx.get('expected', '')).replace(chr(39), '')} (got {got})"
    if kind == "greater_than":
        return f"{param} must be greater than {ctx.get('gt')} (got {got})"
    if kind == "greater_than_equal":
        return f"{param} must be at least {ctx.get('ge')} (got {got})"
    if kind.startswith("int_"):
        return f"{param} must be a whole number (got {got})"
    if kind.startswith("float_"):
        return f"{param} must be a number (got {got})"
    if kind.startswith("bool_"):
        return f"{param} must be true or false (got {got})"
    if kind == "string_type":
        return f"{param} must be text (got {got})"
    if kind == "dict_type":
        return f"{param} must be a mapping of named fields (got {got})"
    msg = err["msg"]
    return f"{param}: {msg[:1].lower()}{msg[1:]} (got {got})"


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= SHOWN_VALUE_CHARS else text[: SHOWN_VALUE_CHARS - 3] + "..."


def build_server() -> MCPServer[Any]:
    """The MCP server with the size, estimate_time, recommend and generate_report tools."""
    server = AdvisorMCPServer(name=SERVER_NAME, instructions=INSTRUCTIONS, version=_version())
    read_only = ToolAnnotations(readOnlyHint=True, openWorldHint=False)
    server.add_tool(
        _user_errors("size", TOOLS["size"]), name="size", title="Size GPU memory", annotations=read_only
    )
    server.add_tool(
        _user_errors("estimate_time", TOOLS["estimate_time"]),
        name="estimate_time",
        title="Estimate training time",
        annotations=read_only,
    )
    server.add_tool(
        _user_errors("recommend", TOOLS["recommend"]),
        name="recommend",
        title="Recommend GPUs",
        annotations=read_only,
    )
    server.add_tool(
        _user_errors("generate_report", TOOLS["generate_report"]),
        name="generate_report",
        title="Write the recommendation report",
        annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False, openWorldHint=False),
    )
    return server


def _user_errors(name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    """`fn` with user errors turned into MCP tool errors carrying `<name>: <one-line message>` (anything
    else stays a crash, whose text the SDK keeps on the server)."""

    @functools.wraps(fn)
    def call(**kwargs: Any) -> Any:
        try:
            return fn(**kwargs)
        except (InputError, ValueError) as exc:
            raise ToolError(f"{name}: {toolkit.in_tool_terms(str(exc))}") from exc

    return call


def _version() -> str:
    try:
        return version("gpu-advisor")
    except PackageNotFoundError:
        return "0"


def main() -> None:
    """Serve over stdio until the client closes the pipe."""
    logging.basicConfig(stream=sys.stderr, level=os.environ.get("GPU_ADVISOR_LOG_LEVEL", "WARNING").upper())
    build_server().run("stdio")


if __name__ == "__main__":
    main()
