"""One time request (tools.time_request.TimeRequest): the CLI's options and the MCP tool's parameters
come from it, so a flag added, renamed or re-defaulted in one place shows up here as a difference."""

from __future__ import annotations

import inspect
from typing import Any

import typer

from advisor.cli.app import app
from tools.time_request import TimeRequest, cli_flag
from tools.vocabulary import FRAMEWORKS


def _time_command() -> Any:
    import advisor.cli.timing  # noqa: F401  (registers the command)

    return typer.main.get_command(app).commands["time"]  # type: ignore[attr-defined]


def test_cli_options_are_the_request_fields() -> None:
    options = {p.name: p for p in _time_command().params if p.param_type_name == "option"}
    fields = TimeRequest.model_fields
    assert set(options) - {"fmt"} == set(fields)
    for name, field in fields.items():
        opt = options[name]
        assert cli_flag(name).split("/") == [*opt.opts, *opt.secondary_opts], name
        assert opt.default == field.default and opt.help == field.description, name
    assert options["grad_checkpointing"].secondary_opts == ["--no-grad-checkpointing"]


def test_mcp_tool_parameters_are_the_request_fields_with_the_same_defaults() -> None:
    from advisor.toolkit import estimate_time

    params = inspect.signature(estimate_time).parameters
    fields = TimeRequest.model_fields
    assert set(params) == set(fields)
    for name, p in params.items():
        assert p.default == fields[name].default, name


def test_mcp_schema_lists_every_request_field() -> None:
    from advisor.mcp_server import build_server

    server = build_server()
    tool = server._tool_manager.get_tool("estimate_time")  # noqa: SLF001
    assert tool is not None
    assert set(tool.parameters["properties"]) == set(TimeRequest.model_fields)


def test_the_framework_help_names_every_framework() -> None:
    help_text = TimeRequest.model_fields["framework"].description or ""
    assert all(name in help_text for name in FRAMEWORKS)
