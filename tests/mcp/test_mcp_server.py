"""The MCP server over stdio, driven by the mcp client: a real subprocess (`python -m advisor.mcp_server`,
and `gpu-advisor mcp`), tools listed and called, numbers equal to the tools' own results."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio
import pypdf
import pytest
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client

from advisor.api import size, time
from advisor.service.profiles import profile_from_text_or_brief
from tools.catalog.load import load_catalog
from tools.recommend import recommend

ROOT = Path(__file__).resolve().parents[2]
QLORA_70B = "QLoRA fine-tune Llama 3 70B on 50M tokens for 3 epochs, data in AWS"


def _params(tmp_path: Path, args: list[str] | None = None, reports: Path | None = None) -> Any:
    return StdioServerParameters(
        command=sys.executable,
        args=args or ["-m", "advisor.mcp_server"],
        cwd=str(ROOT),
        env={
            "GPU_ADVISOR_DATA_DIR": str(tmp_path / "data"),
            "GPU_ADVISOR_REPORTS_DIR": str(reports or tmp_path / "reports"),
            "HOME": str(tmp_path / "home"),  # so `~` in an argument never reaches the real home
        },
    )


def _session(
    tmp_path: Path,
    body: Callable[[Any], Awaitable[None]],
    args: list[str] | None = None,
    *,
    reports: Path | None = None,
) -> str:
    """Run `body` against a fresh server over stdio; returns what the server wrote to stderr."""
    errlog = tmp_path / "server-stderr.txt"

    async def main() -> None:
        with errlog.open("w", encoding="utf-8") as err:
            transport = stdio_client(_params(tmp_path, args, reports), errlog=err)
            async with Client(transport, read_timeout_seconds=120) as client:
                await body(client)

    anyio.run(main)
    return errlog.read_text(encoding="utf-8")


def _error_line(result: Any, tool: str) -> str:
    """The text of a tool error, checked to be one line `<tool>: ...` in the tool's own terms."""
    assert result.is_error, result.structured_content
    (content,) = result.content
    text: str = content.text
    assert "\n" not in text and text.startswith(f"{tool}: "), text
    assert "pydantic" not in text and "http" not in text and "Traceback" not in text, text
    assert "Error executing tool" not in text and "validation error" not in text, text
    assert not re.search(r"--[a-z]", text) and "gpu-advisor " not in text, text  # no CLI flag or command
    return text


def test_lists_tools_and_size_and_recommend_equal_the_tools(tmp_path: Path) -> None:
    seen: dict[str, Any] = {}

    async def body(client: Any) -> None:
        listed = await client.list_tools()
        seen["tools"] = {t.name: t for t in listed.tools}
        r = await client.call_tool("size", {"model": "llama-3-70b", "method": "qlora", "seq_len": 4096})
        seen["size"] = r
        seen["recommend"] = await client.call_tool("recommend", {"description": QLORA_70B})
        seen["profile"] = await client.call_tool(
            "recommend",
            {
                "profile": {
                    "model_id": "llama-3-8b",
                    "workload": "fine_tuning",
                    "method": "lora",
                    "dataset_tokens": 2e8,
                    "epochs": 2,
                }
            },
        )

    _session(tmp_path, body)
    tools = seen["tools"]
    assert set(tools) == {"size", "estimate_time", "recommend", "generate_report"}
    assert "model" in tools["size"].input_schema["properties"]
    assert tools["size"].annotations.read_only_hint is True
    assert tools["generate_report"].annotations.read_only_hint is False

    got = seen["size"]
    assert not got.is_error
    want = size(model="llama-3-70b", method="qlora", seq_len=4096)
    assert got.structured_content["peak_gib_per_gpu"] == want["peak_gib_per_gpu"]
    assert got.structured_content["breakdown_gib"] == want["breakdown_gib"]
    assert got.structured_content["trace"] == want["trace"]

    rec = recommend(profile=profile_from_text_or_brief(QLORA_70B), catalog=load_catalog())
    assert rec.primary is not None
    primary = seen["recommend"].structured_content["recommendation"]["primary"]
    assert (primary["gpu"], primary["total_gpus"], primary["provider"]) == (
        rec.primary.gpu,
        rec.primary.total_gpus,
        rec.primary.provider,
    )
    assert primary["cost_usd"] == {"low": rec.primary.cost_usd.low, "high": rec.primary.cost_usd.high}
    assert primary["wall_hours"] == {"low": rec.primary.wall_hours.low, "high": rec.primary.wall_hours.high}

    by_profile = seen["profile"].structured_content
    assert by_profile["recommendation"]["primary"]["gpu"]
    assert by_profile["profile"]["model_id"] == "llama-3-8b"


def test_generate_report_writes_a_pdf_with_the_pick(tmp_path: Path) -> None:
    seen: dict[str, Any] = {}

    async def body(client: Any) -> None:
        seen["pdf"] = await client.call_tool("generate_report", {"description": QLORA_70B})
        seen["md"] = await client.call_tool("generate_report", {"description": QLORA_70B, "format": "md"})
        seen["pick"] = await client.call_tool("recommend", {"description": QLORA_70B})

    _session(tmp_path, body)
    pdf = seen["pdf"].structured_content
    path = Path(pdf["path"])
    assert path.parent == (tmp_path / "reports").resolve() and path.suffix == ".pdf"
    data = path.read_bytes()
    assert data.startswith(b"%PDF") and pdf["bytes"] == len(data)
    text = " ".join(" ".join(p.extract_text() or "" for p in pypdf.PdfReader(io.BytesIO(data)).pages).split())
    gpu_name = seen["pick"].structured_content["recommendation"]["primary"]["gpu_name"]
    assert gpu_name in text
    md = seen["md"].structured_content
    assert gpu_name in md["content"] and Path(md["path"]).read_text(encoding="utf-8") == md["content"]


def test_estimate_time_equals_the_api_and_names_the_framework(tmp_path: Path) -> None:
    seen: dict[str, Any] = {}
    args = {"model": "llama-3-8b", "method": "lora", "gpu": "h100-sxm", "gpus": 8, "tokens": 5e8, "epochs": 2}

    async def body(client: Any) -> None:
        seen["known"] = await client.call_tool("estimate_time", args)
        seen["unknown"] = await client.call_tool("estimate_time", {**args, "framework": "my-own-trainer"})

    _session(tmp_path, body)
    got = seen["known"].structured_content
    assert got == json.loads(json.dumps(time(**args), default=str))
    assert got["framework"] == "hf" and got["wall_hours"]["low"] < got["wall_hours"]["high"]
    other = seen["unknown"].structured_content
    assert not seen["unknown"].is_error and other["framework"] is None
    assert "generic efficiency band" in other["framework_note"]


def test_user_errors_come_back_as_tool_errors_with_the_message(tmp_path: Path) -> None:
    seen: dict[str, Any] = {}

    async def body(client: Any) -> None:
        seen["model"] = await client.call_tool("size", {"model": "no-such-model"})
        seen["both"] = await client.call_tool("recommend", {})
        seen["ok"] = await client.call_tool("size", {"params_b": 7, "method": "lora"})  # still serving

    _session(tmp_path, body)
    assert "unknown model 'no-such-model'" in _error_line(seen["model"], "size")
    assert "description" in _error_line(seen["both"], "recommend")
    assert not seen["ok"].is_error and seen["ok"].structured_content["peak_gib_per_gpu"] > 0


# issue 17: one-line tool errors in each tool's own parameter names
BAD_ARGUMENTS = [
    ("size", {"model": "llama-3-8b", "seq_len": 0}, "seq_len must be at least 1 (got 0)"),
    (
        "size",
        {"model": "llama-3-8b", "method": "foo"},
        "method must be one of full, lora, qlora, pretraining",
    ),
    ("size", {"params_b": "abc"}, "params_b must be a number (got 'abc')"),
    ("size", {"params_b": -1}, "params_b must be greater than 0"),
    ("size", {"model": "llama-3-8b", "seqlen": 8192}, "unknown parameter 'seqlen'"),  # was silently ignored
    ("size", {}, "give model (a catalog id"),  # was "give --model ID, --config ... or --params-b N"
    ("size", {"model": "llama-3-8b", "params_b": 7}, "give only one of model, params_b, config"),
    ("size", {"model": "llama-3-8b", "tp": 3}, "adjust tp, pp or gpus"),  # was "adjust --tp, --pp or --gpus"
    ("size", {"model": "llama-3-8b", "tp": 3, "gpus": 3}, "tp=3 must divide the model's 32 attention heads"),
    ("size", {"model": "llama-3-8b", "method": "qlora", "precision": "bf16"}, "use method=lora"),
    ("size", {"model": "no-such-model"}, "unknown model 'no-such-model'; closest:"),
    ("size", {"model": "llama-3-8b", "gpu": "no-such-gpu"}, "unknown gpu 'no-such-gpu'"),
    ("estimate_time", {"model": "llama-3-8b"}, "say which GPU: give gpu"),
    (
        "estimate_time",
        {"model": "llama-3-8b", "gpu": "h100-sxm", "tokens": -5},
        "tokens must be greater than 0",
    ),
    (
        "estimate_time",
        {"params_b": 7, "gpu": "h100-sxm", "precision": "fp16"},
        "precision must be one of bf16",
    ),
    ("estimate_time", {"model": "llama-3-8b", "gpu": "h100-sxm", "method": "inference"}, "needs"),
    ("estimate_time", {"model": "llama-3-8b", "gpu": "h100-sxm", "concurrency": 8}, "concurrency apply to"),
    ("recommend", {"profile": "x"}, "profile must be a mapping of named fields (got 'x')"),
    (
        "recommend",
        {"description": "LoRA Llama 3 8B", "backend": "foo"},
        "backend must be one of rules or openai",
    ),
    ("recommend", {"profile": {"model_id": "llama-3-8b", "epochz": 2}}, "unknown field 'epochz'"),
    (
        "generate_report",
        {"description": "LoRA Llama 3 8B", "format": "docx"},
        "format must be one of pdf, html",
    ),
]


def test_bad_arguments_are_one_line_tool_errors_naming_the_parameter(tmp_path: Path) -> None:
    seen: list[Any] = []

    async def body(client: Any) -> None:
        for tool, args, _want in BAD_ARGUMENTS:
            seen.append(await client.call_tool(tool, args))

    stderr = _session(tmp_path, body)
    for (tool, args, want), result in zip(BAD_ARGUMENTS, seen, strict=True):
        assert want in _error_line(result, tool), (tool, args)
    assert "Traceback" not in stderr


def test_recommend_says_what_to_give_when_nothing_or_both_are_given(tmp_path: Path) -> None:
    seen: dict[str, Any] = {}

    async def body(client: Any) -> None:
        seen["none"] = await client.call_tool("recommend", {})
        seen["both"] = await client.call_tool("recommend", {"description": "x", "profile": {"epochs": 1}})
        seen["empty"] = await client.call_tool("generate_report", {"description": "  "})

    _session(tmp_path, body)
    none = _error_line(seen["none"], "recommend")
    assert "not both" not in none and "give description" in none and "or profile" in none
    both = _error_line(seen["both"], "recommend")
    assert both == (
        "recommend: give either description (plain words) or profile (a WorkloadProfile mapping), not both"
    )
    assert "description is empty" in _error_line(seen["empty"], "generate_report")


def test_generate_report_writes_only_under_the_reports_folder(tmp_path: Path) -> None:
    reports = tmp_path / "reports"
    outside = tmp_path / "outside"
    outside.mkdir()
    reports.mkdir()
    (reports / "link-out").symlink_to(outside, target_is_directory=True)
    refused = {
        "dotdot": "../anywhere/new/dir",
        "absolute": str(tmp_path / "elsewhere" / "new"),
        "symlink": "link-out/new",
        "home": "~/gpu-advisor-reports",
    }
    seen: dict[str, Any] = {}

    async def body(client: Any) -> None:
        for key, output_dir in refused.items():
            args = {"description": QLORA_70B, "format": "json", "output_dir": output_dir}
            seen[key] = await client.call_tool("generate_report", args)
        args = {"description": QLORA_70B, "format": "json", "output_dir": "team-a/q3"}
        seen["sub"] = await client.call_tool("generate_report", args)
        inside = str(reports / "team-b")
        seen["inside"] = await client.call_tool(
            "generate_report", {"description": QLORA_70B, "format": "json", "output_dir": inside}
        )

    stderr = _session(tmp_path, body)
    for key, output_dir in refused.items():
        text = _error_line(seen[key], "generate_report")
        assert f"output_dir {output_dir!r} is outside the reports folder" in text, key
    assert not (tmp_path / "anywhere").exists() and not (tmp_path / "elsewhere").exists()
    assert list(outside.iterdir()) == []
    sub = Path(seen["sub"].structured_content["path"])
    assert sub.parent == (reports / "team-a" / "q3").resolve() and sub.is_file()
    inside = Path(seen["inside"].structured_content["path"])
    assert inside.parent == (reports / "team-b").resolve() and inside.is_file()
    assert "Traceback" not in stderr


def test_an_unusable_reports_folder_is_a_one_line_error_without_a_traceback(tmp_path: Path) -> None:
    a_file = tmp_path / "a-file"
    a_file.write_text("not a folder\n", encoding="utf-8")
    seen: dict[str, Any] = {}

    async def body(client: Any) -> None:
        seen["report"] = await client.call_tool("generate_report", {"description": QLORA_70B, "format": "md"})

    stderr = _session(tmp_path, body, reports=a_file / "reports")
    text = _error_line(seen["report"], "generate_report")
    assert "cannot be created" in text and "GPU_ADVISOR_REPORTS_DIR" in text
    assert "Traceback" not in stderr and "Error" not in stderr

    reports = tmp_path / "reports"
    reports.mkdir()
    (reports / "taken").write_text("a file where the subfolder would go\n", encoding="utf-8")

    async def taken(client: Any) -> None:
        args = {"description": QLORA_70B, "format": "md", "output_dir": "taken"}
        seen["taken"] = await client.call_tool("generate_report", args)

    stderr = _session(tmp_path, taken)
    assert "cannot create output_dir 'taken'" in _error_line(seen["taken"], "generate_report")
    assert "Traceback" not in stderr


def test_a_read_only_reports_folder_is_a_one_line_error_without_a_traceback(tmp_path: Path) -> None:
    # A folder this process cannot write into: a 0500 folder, or for root (which writes into those)
    # sysfs, where even root gets EACCES for a new file.
    as_root = os.geteuid() == 0
    reports = Path("/sys") if as_root else tmp_path / "reports"
    if not as_root:
        reports.mkdir()
        reports.chmod(0o500)
    seen: dict[str, Any] = {}

    async def body(client: Any) -> None:
        seen["report"] = await client.call_tool("generate_report", {"description": QLORA_70B, "format": "md"})

    try:
        stderr = _session(tmp_path, body, reports=reports)
    finally:
        if not as_root:
            reports.chmod(0o700)
    text = _error_line(seen["report"], "generate_report")
    assert "cannot write the report into" in text and "Permission denied" in text
    assert "Traceback" not in stderr


def test_the_cli_serves_the_same_tools(tmp_path: Path) -> None:
    seen: dict[str, Any] = {}

    async def body(client: Any) -> None:
        seen["names"] = sorted(t.name for t in (await client.list_tools()).tools)

    # `gpu-advisor mcp` (the command module imported explicitly until the CLI lists it)
    cli = "import advisor.cli.integrations, sys; from advisor.cli import main; sys.exit(main(['mcp']))"
    _session(tmp_path, body, ["-c", cli])
    assert seen["names"] == ["estimate_time", "generate_report", "recommend", "size"]


@pytest.mark.parametrize(
    ("module", "heavy"),
    [
        ("advisor.toolkit", "langchain_core"),
        ("advisor.toolkit", "mcp"),
        ("advisor.cli.integrations", "mcp"),  # the MCP server module loads only inside `gpu-advisor mcp`
        ("advisor.cli.integrations", "slack_bolt"),
        ("advisor.cli.integrations", "fastapi"),
        ("advisor.slack.app", "slack_bolt"),
    ],
)
def test_heavy_imports_stay_inside_functions(module: str, heavy: str) -> None:
    code = f"import sys, {module}; print({heavy!r} in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert out.stdout.strip() == "False"
