"""The MCP server over stdio, driven by the mcp client: a real subprocess (`python -m advisor.mcp_server`,
and `gpu-advisor mcp`), tools listed and called, numbers equal to the tools' own results."""

from __future__ import annotations

import io
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio
import pypdf
import pytest

ROOT = Path(__file__).resolve().parents[2]
QLORA_70B = "QLoRA fine-tune Llama 3 70B on 50M tokens for 3 epochs, data in AWS"


def _params(tmp_path: Path, args: list[str] | None = None) -> Any:
    from mcp import StdioServerParameters

    return StdioServerParameters(
        command=sys.executable,
        args=args or ["-m", "advisor.mcp_server"],
        cwd=str(ROOT),
        env={
            "GPU_ADVISOR_DATA_DIR": str(tmp_path / "data"),
            "GPU_ADVISOR_REPORTS_DIR": str(tmp_path / "reports"),
        },
    )


def _session(tmp_path: Path, body: Callable[[Any], Awaitable[None]], args: list[str] | None = None) -> None:
    from mcp import Client

    async def main() -> None:
        async with Client(_params(tmp_path, args), read_timeout_seconds=120) as client:
            await body(client)

    anyio.run(main)


def test_lists_tools_and_size_and_recommend_equal_the_tools(tmp_path: Path) -> None:
    from advisor.api import size
    from advisor.service.profiles import profile_from_text_or_brief
    from tools.catalog.load import load_catalog
    from tools.recommend import recommend

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
    assert set(tools) == {"size", "recommend", "generate_report"}
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


def test_user_errors_come_back_as_tool_errors_with_the_message(tmp_path: Path) -> None:
    seen: dict[str, Any] = {}

    async def body(client: Any) -> None:
        seen["model"] = await client.call_tool("size", {"model": "no-such-model"})
        seen["both"] = await client.call_tool("recommend", {})
        seen["ok"] = await client.call_tool("size", {"params_b": 7, "method": "lora"})  # still serving

    _session(tmp_path, body)
    assert seen["model"].is_error and "unknown model 'no-such-model'" in seen["model"].content[0].text
    assert seen["both"].is_error and "description" in seen["both"].content[0].text
    assert not seen["ok"].is_error and seen["ok"].structured_content["peak_gib_per_gpu"] > 0


def test_the_cli_serves_the_same_tools(tmp_path: Path) -> None:
    seen: dict[str, Any] = {}

    async def body(client: Any) -> None:
        seen["names"] = sorted(t.name for t in (await client.list_tools()).tools)

    # `gpu-advisor mcp` (the command module imported explicitly until the CLI lists it)
    cli = "import advisor.cli.integrations, sys; from advisor.cli import main; sys.exit(main(['mcp']))"
    _session(tmp_path, body, ["-c", cli])
    assert seen["names"] == ["generate_report", "recommend", "size"]


@pytest.mark.parametrize(
    ("module", "heavy"),
    [
        ("advisor.toolkit", "langchain_core"),
        ("advisor.mcp_server", "mcp"),
        ("advisor.cli.integrations", "slack_bolt"),
        ("advisor.cli.integrations", "fastapi"),
        ("advisor.slack.app", "slack_bolt"),
    ],
)
def test_heavy_imports_stay_inside_functions(module: str, heavy: str) -> None:
    import subprocess

    code = f"import sys, {module}; print({heavy!r} in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert out.stdout.strip() == "False"
