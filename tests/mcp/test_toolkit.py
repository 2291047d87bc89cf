"""The LangChain toolkit: BaseTool objects over the same functions as the MCP server, offline."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from langchain.agents import create_agent
from langchain_core.messages import AIMessage, ToolMessage
from langchain_core.tools import BaseTool

from advisor.api import size
from advisor.llm.testing import fake_tool_chat_model
from advisor.toolkit import (
    GpuAdvisorToolkit,
    generate_report,
    get_tools,
    in_tool_terms,
    recommend_gpus,
    size_workload,
)
from tools.errors import InputError


@pytest.fixture(autouse=True)
def _private_data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GPU_ADVISOR_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.delenv("GPU_ADVISOR_REPORTS_DIR", raising=False)


def test_tools_are_base_tools_with_the_calculators_docstrings() -> None:
    tools = {t.name: t for t in get_tools()}
    assert all(isinstance(t, BaseTool) for t in tools.values())
    assert {"gpu_advisor_size", "gpu_advisor_recommend", "gpu_advisor_report"} <= set(tools)
    assert {
        "estimate_memory",
        "estimate_training_time",
        "estimate_inference",
        "egress_cost",
        "gpu_spec",
    } <= set(tools)
    assert "recommend_gpus" not in tools  # the chat's what-if adapter needs a conversation's profile
    assert tools["gpu_advisor_size"].description.startswith("Peak GPU memory")
    assert {"model", "method", "gpus", "sharding"} <= set(tools["gpu_advisor_size"].args)
    assert [t.name for t in GpuAdvisorToolkit(calculators=False).get_tools()] == [
        "gpu_advisor_size",
        "gpu_advisor_time",
        "gpu_advisor_recommend",
        "gpu_advisor_report",
    ]


def test_size_tool_returns_the_calculators_numbers() -> None:
    tool = {t.name: t for t in get_tools(calculators=False)}["gpu_advisor_size"]
    got = json.loads(tool.invoke({"model": "llama-3-8b", "method": "lora", "gpus": 2, "sharding": "ddp"}))
    want = size(model="llama-3-8b", method="lora", gpus=2, sharding="ddp")
    assert (
        got["peak_gib_per_gpu"] == want["peak_gib_per_gpu"] and got["breakdown_gib"] == want["breakdown_gib"]
    )


def test_recommend_tool_from_a_description_and_from_a_profile() -> None:
    tool = {t.name: t for t in get_tools(calculators=False)}["gpu_advisor_recommend"]
    text = "LoRA fine-tune Llama 3 8B on 100M tokens, 2 epochs"
    got = json.loads(tool.invoke({"description": text}))
    assert got["recommendation"]["primary"] == recommend_gpus(description=text)["recommendation"]["primary"]
    by_profile = recommend_gpus(
        profile={
            "model_id": "llama-3-8b",
            "method": "lora",
            "workload": "fine_tuning",
            "dataset_tokens": 1e8,
            "epochs": 2,
        }
    )
    assert by_profile["recommendation"]["primary"]["gpu"] == got["recommendation"]["primary"]["gpu"]


def test_user_errors_are_answers_for_the_model_not_exceptions() -> None:
    tools = {t.name: t for t in get_tools(calculators=False)}
    assert tools["gpu_advisor_size"].invoke({"model": "no-such-model"}).startswith("error: unknown model")
    assert (
        tools["gpu_advisor_recommend"].invoke({}).startswith("error: describe the workload: give description")
    )
    with pytest.raises(ValueError, match="not both"):
        recommend_gpus(description="x", profile={"model_id": "llama-3-8b"})
    # the calculators' command-line words come back as the tools' parameter names
    answer = tools["gpu_advisor_size"].invoke({"model": "llama-3-8b", "tp": 3, "gpus": 3})
    assert answer == "error: tp=3 must divide the model's 32 attention heads"


@pytest.mark.parametrize(
    ("cli", "tool"),
    [
        ("adjust --tp, --pp or --gpus", "adjust tp, pp or gpus"),
        ("use --precision bf16, or --method qlora", "use precision=bf16, or method=qlora"),
        (
            "--training-precision pure-bf16 contradicts --precision fp32: pick one",
            "training_precision=pure-bf16 contradicts precision=fp32: pick one",
        ),
        (
            "--params-b must be between 0.1 and 2000; for other models use --model or --config",
            "params_b must be between 0.1 and 2000; for other models use model or config",
        ),
        ("use --gpus-per-node 8 or fewer", "use gpus_per_node=8 or fewer"),
        ("--chunked-loss needs --no-grad-checkpointing", "loss_chunking needs grad_checkpointing=false"),
        (
            "unknown gpu 'x'; closest: a100 (list all with `gpu-advisor catalog gpus`)",
            "unknown gpu 'x'; closest: a100",
        ),
    ],
)
def test_messages_use_parameter_names_not_command_line_flags(cli: str, tool: str) -> None:
    assert in_tool_terms(cli) == tool


def test_report_folder_is_confined_to_the_reports_folder(tmp_path: Path) -> None:
    reports = tmp_path / "data" / "reports"
    reports.mkdir(parents=True)
    (reports / "loop").symlink_to(reports / "loop")
    (reports / "up").symlink_to(tmp_path)
    for output_dir in ("..", "up/x", str(tmp_path / "x"), "loop"):
        with pytest.raises(InputError, match="output_dir") as err:
            generate_report(description="LoRA Llama 3 8B", format="json", output_dir=output_dir)
        assert "\n" not in str(err.value)
    assert not (tmp_path / "x").exists()


def test_report_tool_writes_into_the_reports_folder(tmp_path: Path) -> None:
    out = generate_report(description="QLoRA fine-tune Llama 3 70B on 50M tokens", format="json")
    path = Path(out["path"])
    assert path.parent == (tmp_path / "data" / "reports").resolve()
    assert json.loads(out["content"])["recommendation"]["primary"]["gpu"]
    tool = {t.name: t for t in get_tools(calculators=False)}["gpu_advisor_report"]
    md = json.loads(
        tool.invoke(
            {
                "description": "QLoRA fine-tune Llama 3 70B on 50M tokens",
                "format": "md",
                "output_dir": "mine",
            }
        )
    )
    assert Path(md["path"]).parent == (tmp_path / "data" / "reports" / "mine").resolve()
    assert md["content"].startswith("#")


def test_size_function_matches_the_cli_contract_keys() -> None:
    out = size_workload(params_b=7, method="inference", concurrency=4, context_len=8192)
    assert {"peak_gib_per_gpu", "total_gib", "breakdown_gib", "assumptions", "trace"} <= set(out)
    assert out["breakdown_gib"]["kv_cache"] > 0


def test_a_langchain_agent_calls_the_tools_offline() -> None:
    call = {"name": "gpu_advisor_size", "args": {"model": "llama-3-8b", "method": "qlora"}, "id": "c1"}
    model = fake_tool_chat_model([AIMessage(content="", tool_calls=[call]), AIMessage(content="done")])
    agent = create_agent(model, get_tools())
    out = agent.invoke(
        {"messages": [{"role": "user", "content": "how much memory for QLoRA on Llama 3 8B?"}]}
    )
    (result,) = [m for m in out["messages"] if isinstance(m, ToolMessage)]
    got = json.loads(str(result.content))
    assert got["peak_gib_per_gpu"] == size(model="llama-3-8b", method="qlora")["peak_gib_per_gpu"]
    assert out["messages"][-1].content == "done"
