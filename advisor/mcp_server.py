"""GPU Advisor as an MCP server over stdio (`gpu-advisor mcp` or `python -m advisor.mcp_server`).

Tools (the functions of advisor/toolkit.py, so MCP clients, LangChain agents and our own CLI get the same
numbers):
- `size`: peak GPU memory of one configuration with its breakdown, assumptions and trace;
- `recommend`: a plain-language description (or a profile) -> primary option, alternatives, rejections,
  cost and time ranges, open questions;
- `generate_report`: the PDF (or HTML/Markdown/JSON) report written to the reports folder; its path.
Each returns structured JSON. A user error (unknown model, bad combination) comes back as a tool error
with the one-line message the CLI prints. stdout carries only the protocol; logs go to stderr.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from tools.errors import InputError

if TYPE_CHECKING:
    from mcp.server.mcpserver import MCPServer

SERVER_NAME = "gpu-advisor"
INSTRUCTIONS = (
    "GPU Advisor sizes GPU memory and recommends GPU configurations (with wall-time and cost ranges) for "
    "LLM fine-tuning, pre-training and serving. Every number comes from deterministic calculators: quote "
    "them as returned, do not recompute. Use `recommend` with the user's own description first; `size` "
    "for one specific configuration; `generate_report` when the user wants a document."
)


def build_server() -> MCPServer:
    """The MCP server with the size, recommend and generate_report tools."""
    from mcp.server.mcpserver import MCPServer
    from mcp.types import ToolAnnotations

    from advisor import toolkit

    server: MCPServer = MCPServer(name=SERVER_NAME, instructions=INSTRUCTIONS, version=_version())
    read_only = ToolAnnotations(readOnlyHint=True, openWorldHint=False)
    server.add_tool(
        _user_errors(toolkit.size_workload), name="size", title="Size GPU memory", annotations=read_only
    )
    server.add_tool(
        _user_errors(toolkit.recommend_gpus), name="recommend", title="Recommend GPUs", annotations=read_only
    )
    server.add_tool(
        _user_errors(toolkit.generate_report),
        name="generate_report",
        title="Write the recommendation report",
        annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False, openWorldHint=False),
    )
    return server


def _user_errors(fn: Callable[..., Any]) -> Callable[..., Any]:
    """`fn` with user errors turned into MCP tool errors carrying their one-line message (anything else
    stays a crash, whose text the SDK keeps on the server)."""
    from mcp.server.mcpserver.exceptions import ToolError

    @functools.wraps(fn)
    def call(**kwargs: Any) -> Any:
        try:
            return fn(**kwargs)
        except (InputError, ValueError) as exc:
            raise ToolError(str(exc)) from exc

    return call


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("gpu-advisor")
    except PackageNotFoundError:
        return "0"


def main() -> None:
    """Serve over stdio until the client closes the pipe."""
    import logging
    import os
    import sys

    logging.basicConfig(stream=sys.stderr, level=os.environ.get("GPU_ADVISOR_LOG_LEVEL", "WARNING").upper())
    build_server().run("stdio")


if __name__ == "__main__":
    main()
