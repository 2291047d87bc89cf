"""One sizing request (tools.sizing_request.SizingRequest): the CLI, the API, the MCP tool and the
LangChain tool take their flags from it, so a flag added, renamed or re-defaulted in one place shows
up here as a difference."""

from __future__ import annotations

import inspect
from typing import Any

import pytest
import typer

from advisor.api import size
from advisor.cli.app import app
from tools.errors import InputError
from tools.memory import estimate_memory
from tools.sizing_request import SizingRequest, cli_flag


def _size_command() -> Any:
    import advisor.cli.size  # noqa: F401  (registers the command)

    return typer.main.get_command(app).commands["size"]  # type: ignore[attr-defined]


def test_cli_options_are_the_request_fields() -> None:
    options = {p.name: p for p in _size_command().params if p.param_type_name == "option"}
    fields = SizingRequest.model_fields
    assert set(options) - {"fmt", "simulate"} == set(fields)
    for name, field in fields.items():
        opt = options[name]
        flags = [*opt.opts, *opt.secondary_opts]
        assert cli_flag(name).split("/") == flags, name
        assert opt.default == field.default and opt.help == field.description, name
    assert options["loss_chunking"].opts == ["--chunked-loss"]


def test_mcp_tool_parameters_are_request_fields_with_the_same_defaults() -> None:
    from advisor.toolkit import size_workload

    params = inspect.signature(size_workload).parameters
    fields = SizingRequest.model_fields
    assert set(params) <= set(fields)
    for name, p in params.items():
        assert p.default == fields[name].default, name


def test_llm_memory_schema_is_request_fields_with_the_same_defaults() -> None:
    from advisor.llm.tools import _Memory

    fields = SizingRequest.model_fields
    for name, f in _Memory.model_fields.items():
        assert name in fields, name
        if not f.is_required():
            assert f.default == fields[name].default, name


def test_calculator_kwargs_are_estimate_memory_parameters() -> None:
    kwargs = SizingRequest.from_flags(model="llama-3-8b").calculator_kwargs()
    params = inspect.signature(estimate_memory).parameters
    assert set(kwargs) <= set(params)
    for name, value in kwargs.items():
        if name != "method":  # the calculator needs one; the CLI defaults to full
            assert value == params[name].default, name  # unset flags take the calculator's defaults


def test_values_reach_the_calculator_unvalidated_so_its_messages_stay() -> None:
    assert SizingRequest.from_flags(lora_rank=0).lora_rank == 0
    with pytest.raises(InputError, match=r"^lora-rank must be a whole number >= 1 \(got 0\)$"):
        size(model="llama-3-8b", method="lora", lora_rank=0)
    with pytest.raises(InputError, match="^unknown method 'bogus'"):
        size(model="llama-3-8b", method="bogus")
    with pytest.raises(TypeError, match="unexpected keyword argument 'seq_length'"):
        size(model="llama-3-8b", seq_length=4096)


def test_tool_schemas_take_the_memory_options_help_from_the_request() -> None:
    """The memory options of both tool schemas are derived: a changed help text or a new option in
    SizingRequest reaches them without a hand edit."""
    import typing

    from advisor.llm.tools import _Memory
    from advisor.toolkit import size_workload

    fields = SizingRequest.model_fields
    memory_options = ("framework", "optimizer_impl", "loss_chunking", "lora_dropout", "variable_length",
                      "activation_offloading", "optimizer_in_backward", "memory_basis", "loss_impl",
                      "loss_upcast", "model_code", "lora_fp32_adapters", "fp32_unquantized",
                      "quant_saves_input", "returns_kv_cache")  # fmt: skip
    hints = typing.get_type_hints(size_workload, include_extras=True)
    for name in memory_options:
        meta = [m for m in hints[name].__metadata__ if hasattr(m, "description")]
        assert meta and meta[0].description == fields[name].description, name
        assert _Memory.model_fields[name].description == fields[name].description, name
    skip = {"model", "config", "params_b", "kv_heads", "layers", "hidden", "gpu"}
    assert set(_Memory.model_fields) == (set(fields) - skip) | {"model"}
