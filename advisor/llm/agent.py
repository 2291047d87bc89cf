"""The explaining agent: a LangChain `create_agent` graph over the tool adapters, behind the number check.

`explain(...)` asks the model to explain an already computed recommendation (one model call when no
what-if tool is needed). Its reply must pass the number check (numbers.py): every number in it comes
from a tool result, the recommendation, the profile or the user's words. A failing reply is regenerated
once with the offending numbers named; a second failure, or any model/transport/tool-loop failure, gives
the templated answer the caller supplies. With a `stream` callback the reply is streamed sentence by
sentence, each sentence only after it passed the check; a failure mid-stream ends the model's text and
streams the templated answer instead (no regeneration: what was shown stays shown and correct).
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

import prompts
from advisor.llm.chat import llm_error_reason
from advisor.llm.guard import wrap_user_text
from advisor.llm.numbers import AllowedNumbers, NumberCheck

log = logging.getLogger(__name__)

# graph steps per attempt (model -> tools -> model ...); a tool loop beyond it ends in the template
RECURSION_LIMIT = 8
Source = Literal["model", "regenerated", "template"]
_SENTENCE_END = re.compile(r"(?<=[.!?:])\s+|\n")


@dataclass
class AgentReply:
    """What the agent said and how it got there. `source`: model (first reply passed), regenerated (the
    second did), template (the fallback). `rejected` holds the unsupported numbers of failed replies."""

    text: str
    source: Source
    llm_calls: int = 0
    tool_calls: list[str] = field(default_factory=list)
    rejected: list[str] = field(default_factory=list)
    error: str | None = None


def build_agent(model: Any, tools: list[Any]) -> Any:
    """A LangChain 1.x agent graph with the advisor's system prompt (prompts/system.md)."""
    # lazy: langchain.agents costs ~0.7 s; the rules backend (every `ask` start) imports this module
    from langchain.agents import create_agent

    return create_agent(model, tools, system_prompt=prompts.load("system"))


def _final_text(messages: list[Any]) -> str:
    from langchain_core.messages import AIMessage  # lazy: LangChain, see build_agent

    for m in reversed(messages):
        if isinstance(m, AIMessage) and not m.tool_calls:
            return m.text if isinstance(m.text, str) else str(m.content)
    return ""


def _invalid_calls(messages: list[Any]) -> str:
    """' (a tool call with unreadable arguments: NAME)' when the model sent one, else ''."""
    names = [c.get("name") or "?" for m in messages for c in getattr(m, "invalid_tool_calls", None) or []]
    return f" (a tool call with unreadable arguments: {', '.join(names)})" if names else ""


def _absorb(messages: list[Any], allowed: AllowedNumbers) -> tuple[int, list[str]]:
    """Add tool results to the allowed numbers; count model messages and tool names."""
    from langchain_core.messages import AIMessage, ToolMessage  # lazy: LangChain, see build_agent

    calls, tools = 0, []
    for m in messages:
        if isinstance(m, ToolMessage):
            if m.status != "error" and not str(m.content).startswith("error:"):
                allowed.add_tool_result(m.content)
            tools.append(m.name or "?")
        elif isinstance(m, AIMessage):
            calls += 1
    return calls, tools


def explain(
    model: Any,
    *,
    tools: list[Any],
    allowed: AllowedNumbers,
    user_text: str,
    recommendation: dict[str, Any] | None,
    assumptions: list[str],
    questions: list[str],
    fallback: Callable[[str | None], str],
    stream: Callable[[str], None] | None = None,
) -> AgentReply:
    """The model's explanation of `recommendation`, checked; `fallback(note)` gives the templated answer
    (note: why the template is used, or None)."""
    from langchain_core.messages import HumanMessage  # lazy: ~85 ms of LangChain, see build_agent

    task = prompts.render(
        "explanation",
        recommendation_json=json.dumps(recommendation, default=str, indent=1),
        assumptions="\n".join(f"- {a}" for a in assumptions) or "(none)",
        questions="\n".join(f"- {q}" for q in questions) or "(none)",
        user_block=wrap_user_text(user_text, "user_message"),
    )
    messages: list[Any] = [HumanMessage(task)]
    reply = AgentReply(text="", source="model")
    try:
        agent = build_agent(model, tools)
        for attempt in range(2):
            if stream is not None:
                return _streamed(agent, messages, allowed, fallback, stream, reply)
            out = agent.invoke({"messages": messages}, config={"recursion_limit": RECURSION_LIMIT})
            new = out["messages"][len(messages) :]
            calls, tool_names = _absorb(new, allowed)
            reply.llm_calls += calls
            reply.tool_calls += tool_names
            text = _final_text(new).strip()
            check = allowed.check(text)
            if text and check.ok:
                reply.text, reply.source = text, "model" if attempt == 0 else "regenerated"
                return reply
            reply.rejected += list(check.unsupported) or ["(empty reply)"]
            if text:
                retry = prompts.render("number_check_retry", numbers=check.describe())
            else:
                retry = prompts.render("empty_reply_retry", detail=_invalid_calls(new))
            messages = [*out["messages"], HumanMessage(retry)]
        note = prompts.sections("summary")["number_check_fallback"]
    except Exception as exc:  # timeouts, HTTP 429/500, malformed bodies, tool loops: answer anyway
        reply.error = llm_error_reason(exc)
        log.warning("agent failed: %s", reply.error)
        note = prompts.fill(prompts.sections("summary")["llm_unavailable"], reason=reply.error)
    reply.text, reply.source = fallback(note), "template"
    return reply


def _streamed(
    agent: Any,
    messages: list[Any],
    allowed: AllowedNumbers,
    fallback: Callable[[str | None], str],
    stream: Callable[[str], None],
    reply: AgentReply,
) -> AgentReply:
    """Stream the model's final text sentence by sentence, each after it passed the number check."""
    shown: list[str] = []
    buf = ""
    failed: NumberCheck | None = None

    def emit(sentence: str) -> bool:
        nonlocal failed
        check = allowed.check(sentence)
        if not check.ok:
            failed = check
            return False
        shown.append(sentence)
        stream(sentence)
        return True

    seen_ids: set[str] = set()
    note: str | None = None
    try:
        buf = _consume(agent, messages, allowed, reply, emit, lambda: failed is not None, seen_ids)
    except Exception as exc:  # transport failure or tool loop mid-stream: the template finishes the answer
        reply.error = llm_error_reason(exc)
        note = prompts.fill(prompts.sections("summary")["llm_unavailable"], reason=reply.error)
        buf = ""
    if failed is None and note is None and buf.strip():
        emit(buf)
    if failed is None and note is None and shown:
        reply.text = "".join(shown).strip()
        return reply
    if failed is not None:
        reply.rejected += list(failed.unsupported)
        note = prompts.sections("summary")["number_check_fallback"]
    tail = fallback(note)
    stream(("\n\n" if shown else "") + tail)
    reply.text = ("".join(shown).strip() + "\n\n" + tail).strip()
    reply.source = "template"
    return reply


def _consume(
    agent: Any,
    messages: list[Any],
    allowed: AllowedNumbers,
    reply: AgentReply,
    emit: Callable[[str], bool],
    stopped: Callable[[], bool],
    seen_ids: set[str],
) -> str:
    """Run the agent in messages-stream mode, emitting finished sentences; returns the unfinished rest."""
    from langchain_core.messages import AIMessageChunk, ToolMessage  # lazy: LangChain, see build_agent

    buf = ""
    for chunk, _meta in agent.stream(
        {"messages": messages}, config={"recursion_limit": RECURSION_LIMIT}, stream_mode="messages"
    ):
        if stopped():
            continue  # drain the stream; nothing more is shown
        if isinstance(chunk, ToolMessage):
            _absorb([chunk], allowed)
            reply.tool_calls.append(chunk.name or "?")
            buf = ""  # text before a tool call is thinking aloud, not the answer
            continue
        if isinstance(chunk, AIMessageChunk):
            if chunk.id and chunk.id not in seen_ids:
                seen_ids.add(chunk.id)
                reply.llm_calls += 1
            if chunk.tool_call_chunks:
                buf = ""
                continue
            buf += chunk.text if isinstance(chunk.text, str) else ""
            while True:
                m = _SENTENCE_END.search(buf)
                if not m:
                    break
                sentence, buf = buf[: m.end()], buf[m.end() :]
                if sentence.strip() and not emit(sentence):
                    break
    return buf
