"""The explaining agent: number check, one regeneration, templated fallback, tool calls, streaming and
fault injection, with fake chat models and through the local OpenAI-compatible server."""

from __future__ import annotations

import json
from typing import Any

import pytest
from langchain_core.messages import AIMessage

from advisor.llm.agent import AgentReply, explain
from advisor.llm.chat import make_chat_model
from advisor.llm.numbers import AllowedNumbers, extract_numbers
from advisor.llm.settings import LLMSettings
from advisor.llm.testing import (
    FakeOpenAIServer,
    delayed,
    fake_tool_chat_model,
    http_error,
    malformed,
    sample_recommendation,
    text,
    tool_call,
)
from advisor.llm.tools import ToolBox, recommendation_brief
from tools.profile import WorkloadProfile

USER = "QLoRA on a 70B model, 2 epochs over 1B tokens"
PROFILE = WorkloadProfile(params_b=70, method="qlora", epochs=2, dataset_tokens=1e9)
TEMPLATE = "Recommended: the templated summary."


def setup() -> tuple[AllowedNumbers, ToolBox, dict[str, Any], Any]:
    rec = sample_recommendation(PROFILE)
    allowed = AllowedNumbers()
    allowed.add_user_text(USER)
    allowed.add_tool_result(rec)
    box = ToolBox(PROFILE, allowed, recommender=sample_recommendation, catalog=lambda: None)
    return allowed, box, recommendation_brief(rec), rec


def run(model: Any, **kw: Any) -> tuple[AgentReply, Any]:
    allowed, box, brief, rec = setup()
    reply = explain(
        model,
        tools=box.langchain_tools(),
        allowed=allowed,
        user_text=USER,
        recommendation=brief,
        assumptions=["seq_len 2048 (default)"],
        questions=[],
        fallback=lambda note: f"{TEMPLATE} {note or ''}",
        **kw,
    )
    return reply, rec


def good_text(rec: Any) -> str:
    p = rec.primary
    return (
        f"Go with {p.total_gpus}x H100 SXM at lambda: about {p.wall_hours.low:,.0f}-{p.wall_hours.high:,.0f} "
        f"hours and ${p.cost_usd.low:,.0f}-{p.cost_usd.high:,.0f}, at ${p.usd_per_gpu_hour} per GPU-hour."
    )


def assert_only_tool_numbers(reply_text: str, allowed: AllowedNumbers) -> None:
    check = allowed.check(reply_text)
    assert check.ok, check.unsupported


def test_reply_with_tool_numbers_passes() -> None:
    rec = sample_recommendation(PROFILE)
    model = fake_tool_chat_model([AIMessage(good_text(rec))])
    reply, _ = run(model)
    assert reply.source == "model" and reply.llm_calls == 1
    assert "H100" in reply.text


def test_invented_number_is_regenerated_once() -> None:
    rec = sample_recommendation(PROFILE)
    model = fake_tool_chat_model([AIMessage("It costs about $3,333 in total."), AIMessage(good_text(rec))])
    reply, _ = run(model)
    assert reply.source == "regenerated" and reply.rejected == ["$3,333"]
    retry = model.received[1][-1].content
    assert "$3,333" in retry


def test_two_bad_replies_give_the_template() -> None:
    model = fake_tool_chat_model(
        [AIMessage("Roughly 17 GPUs, $123,456."), AIMessage("Say 9 days and 42 GB.")]
    )
    reply, _ = run(model)
    assert reply.source == "template" and reply.text.startswith(TEMPLATE)
    assert "17" not in reply.text and "123,456" not in reply.text


def test_what_if_tool_numbers_are_allowed() -> None:
    what_if = sample_recommendation(PROFILE.with_values("stated", epochs=8))
    cost = what_if.primary.cost_usd.high
    model = fake_tool_chat_model(
        [
            AIMessage(
                "", tool_calls=[{"name": "recommend_gpus", "args": {"changes": {"epochs": 8}}, "id": "c1"}]
            ),
            AIMessage(f"With 8 epochs the run costs up to ${cost:,.0f}."),
        ]
    )
    reply, _ = run(model)
    assert reply.source == "model", reply.rejected
    assert reply.tool_calls == ["recommend_gpus"] and f"{cost:,.0f}" in reply.text


def test_unknown_tool_does_not_crash() -> None:
    rec = sample_recommendation(PROFILE)
    model = fake_tool_chat_model(
        [
            AIMessage("", tool_calls=[{"name": "compute_roi", "args": {}, "id": "c1"}]),
            AIMessage(good_text(rec)),
        ]
    )
    reply, _ = run(model)
    assert reply.source == "model"


def test_tool_input_error_goes_back_to_model() -> None:
    rec = sample_recommendation(PROFILE)
    model = fake_tool_chat_model(
        [
            AIMessage(
                "",
                tool_calls=[{"name": "recommend_gpus", "args": {"changes": {"colour": "red"}}, "id": "c1"}],
            ),
            AIMessage(good_text(rec)),
        ]
    )
    reply, _ = run(model)
    assert reply.source == "model"
    tool_msgs = [m for m in model.received[1] if m.type == "tool"]
    assert "cannot change colour" in tool_msgs[0].content


def test_endless_tool_loop_ends_in_template() -> None:
    loop = [
        AIMessage("", tool_calls=[{"name": "recommend_gpus", "args": {}, "id": f"c{i}"}]) for i in range(30)
    ]
    reply, _ = run(fake_tool_chat_model(loop))
    assert reply.source == "template" and reply.error


def test_streaming_fake_model_emits_checked_sentences() -> None:
    rec = sample_recommendation(PROFILE)
    chunks: list[str] = []
    model = fake_tool_chat_model([AIMessage(good_text(rec) + " It fits one GPU.")])
    reply, _ = run(model, stream=chunks.append)
    assert reply.source == "model"
    assert len(chunks) >= 2 and "".join(chunks).strip() == reply.text


def test_streaming_stops_at_an_invented_number() -> None:
    rec = sample_recommendation(PROFILE)
    chunks: list[str] = []
    model = fake_tool_chat_model([AIMessage(good_text(rec) + " Buying would save $77,777 a year. Done.")])
    reply, _ = run(model, stream=chunks.append)
    shown = "".join(chunks)
    assert "77,777" not in shown and TEMPLATE in shown
    assert reply.source == "template" and reply.text.startswith("Go with")


# --- through the local OpenAI-compatible server: the real openai client and langchain-openai -------------


@pytest.fixture
def chat(settings: LLMSettings) -> Any:
    return make_chat_model(settings)


def test_server_tool_call_round_trip(server: FakeOpenAIServer, chat: Any) -> None:
    what_if = sample_recommendation(PROFILE.with_values("stated", epochs=8))
    server.enqueue(
        tool_call("recommend_gpus", {"changes": {"epochs": 8}}),
        text(f"With 8 epochs: ${what_if.primary.cost_usd.low:,.0f} or more."),
    )
    reply, _ = run(chat)
    assert reply.source == "model" and reply.llm_calls == 2
    first, second = server.requests
    tools = {t["function"]["name"]: t["function"] for t in first["tools"]}
    assert "recommend_gpus" in tools
    from tools.recommend.models import option_json  # noqa: F401 - the types module exists

    tool_msg = [m for m in second["messages"] if m["role"] == "tool"]
    assert tool_msg and json.loads(tool_msg[0]["content"])["primary"]["gpu"] == "h100-sxm"
    assert first["messages"][0]["role"] == "system"


def test_server_descriptions_come_from_docstrings(server: FakeOpenAIServer, chat: Any) -> None:
    import inspect

    from tools.compute.training import estimate_training_time

    server.enqueue(text("Fine."))
    run(chat)
    tools = {t["function"]["name"]: t["function"] for t in server.requests[0]["tools"]}
    doc = inspect.getdoc(estimate_training_time) or ""
    assert doc.splitlines()[0] in tools["estimate_training_time"]["description"]


@pytest.mark.parametrize(
    "fault",
    [http_error(500), http_error(429), malformed(), delayed(3.0)],
    ids=["http500", "http429", "malformed", "timeout"],
)
def test_server_faults_end_in_template(
    server: FakeOpenAIServer, settings: LLMSettings, fault_settings: LLMSettings, fault: Any
) -> None:
    server.enqueue(fault)
    reply, _ = run(make_chat_model(fault_settings if fault.delay_s else settings))
    assert reply.source == "template" and reply.error
    assert "not available" in reply.text


def test_server_unknown_tool_and_bad_arguments(server: FakeOpenAIServer, chat: Any) -> None:
    rec = sample_recommendation(PROFILE)
    server.enqueue(
        tool_call("launch_cluster", {"nodes": 64}),
        tool_call("recommend_gpus", '{"changes": {"epochs": "eight"'),  # broken JSON arguments
        tool_call("estimate_training_time", {"model": "llama-3-70b"}),  # required arguments missing
        text(good_text(rec)),
    )
    reply, _ = run(chat)
    # the broken JSON ends the first attempt without an answer; the model is told and answers
    assert reply.source == "regenerated" and reply.text == good_text(rec)
    assert "unreadable arguments: recommend_gpus" in server.requests[2]["messages"][-1]["content"]
    tool_msgs = [m for m in server.requests[-1]["messages"] if m["role"] == "tool"]
    assert any("launch_cluster" in m["content"] for m in tool_msgs)  # unknown tool: told, not crashed
    assert len(tool_msgs) >= 2


def test_server_model_doing_its_own_arithmetic(server: FakeOpenAIServer, chat: Any) -> None:
    allowed, *_ = setup()
    server.enqueue(
        text("70B x 6 x 2B tokens = 840 PFLOP, so about 236 hours and $588."),
        text("That is 1,234 GPU-hours."),
    )
    reply, _ = run(chat)
    assert reply.source == "template" and len(server.requests) == 2
    assert_only_tool_numbers(reply.text.replace(TEMPLATE, ""), allowed)
    for bad in ("840", "236", "588", "1,234"):
        assert bad not in reply.text


def test_server_streaming_sse(server: FakeOpenAIServer, settings: LLMSettings) -> None:
    rec = sample_recommendation(PROFILE)
    server.enqueue(text(good_text(rec) + " It fits on one GPU."))
    chunks: list[str] = []
    reply, _ = run(make_chat_model(settings), stream=chunks.append)
    assert server.requests[0]["stream"] is True
    assert reply.source == "model" and len(chunks) >= 2
    assert "".join(chunks).strip() == reply.text


def test_server_streaming_fault_mid_answer(server: FakeOpenAIServer, settings: LLMSettings) -> None:
    server.enqueue(http_error(500))
    chunks: list[str] = []
    reply, _ = run(make_chat_model(settings), stream=chunks.append)
    assert reply.source == "template" and TEMPLATE in "".join(chunks)


def test_template_text_passes_its_own_check() -> None:
    allowed, *_ = setup()
    assert extract_numbers("Recommended: 1x H100")[0].value == 1
    assert allowed.check("no numbers at all").ok
