"""Test doubles for the LLM seam, shipped with the package so tests, benches and front ends share them.

- `FakeOpenAIServer`: a threaded OpenAI-compatible HTTP server on 127.0.0.1 answering
  POST /v1/chat/completions with scripted replies (text, tool calls, JSON content, HTTP errors, delays,
  malformed bodies), streaming them as server-sent events when the request asks for it, and recording
  every request body. Point `LLMSettings(base_url=server.url)` at it and the real openai client and
  langchain-openai run end to end without the network.
- `FakeToolChatModel`: LangChain's GenericFakeChatModel with `bind_tools` returning itself, so agents
  can run on canned AIMessages (tool calls included), recording the messages it was sent.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import re
import select
import socket
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from langchain_core.language_models.fake_chat_models import GenericFakeChatModel

from advisor.extract.base import Finding, merge_findings
from tools.errors import InputError
from tools.profile import Provenance
from tools.ranges import Range
from tools.recommend.models import Option, Recommendation, Rejection, SensitivityItem
from tools.trace import TraceBuilder

# ---------------------------------------------------------------------------------------------------
# Scripted replies


@dataclass(frozen=True)
class Scripted:
    """One scripted answer of the fake server. Build with the helpers below."""

    content: str | None = None
    tool_calls: tuple[tuple[str, str], ...] = ()  # (name, arguments JSON text)
    status: int = 200
    raw_body: bytes | None = None  # sent as-is (malformed JSON etc.)
    delay_s: float = 0.0
    error_message: str = ""


def text(content: str) -> Scripted:
    """An assistant message with `content`."""
    return Scripted(content=content)


def json_reply(obj: Any) -> Scripted:
    """An assistant message whose content is `obj` as JSON (structured output, json_schema method)."""
    return Scripted(content=json.dumps(obj))


def tool_call(name: str, args: dict[str, Any] | str, *more: tuple[str, dict[str, Any] | str]) -> Scripted:
    """An assistant message calling one or more tools; `args` may be a raw (even broken) JSON string."""
    calls = [(name, args), *more]
    return Scripted(tool_calls=tuple((n, a if isinstance(a, str) else json.dumps(a)) for n, a in calls))


def http_error(status: int, message: str = "scripted failure") -> Scripted:
    """An HTTP error answer in OpenAI's error shape (500, 429, ...)."""
    return Scripted(status=status, error_message=message)


def malformed(body: bytes = b'{"id": "x", "choices": [ {"message": ') -> Scripted:
    """A 200 answer whose body is not valid JSON."""
    return Scripted(raw_body=body)


def delayed(seconds: float, then: Scripted | None = None) -> Scripted:
    """Wait `seconds` before answering (longer than the client's timeout: a timeout)."""
    base = then or text("late")
    return Scripted(
        content=base.content,
        tool_calls=base.tool_calls,
        status=base.status,
        raw_body=base.raw_body,
        delay_s=seconds,
        error_message=base.error_message,
    )


Handler = Callable[[dict[str, Any]], Scripted]


# ---------------------------------------------------------------------------------------------------
# The server


@dataclass
class _State:
    queue: list[Scripted] = field(default_factory=list)
    requests: list[dict[str, Any]] = field(default_factory=list)
    default: Handler | None = None
    lock: threading.Lock = field(default_factory=threading.Lock)
    ids: Iterator[int] = field(default_factory=lambda: itertools.count(1))
    abandoned: int = 0  # delayed requests whose client closed the connection before the answer


def _completion(reply: Scripted, model: str, ident: int) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": reply.content}
    finish = "stop"
    if reply.tool_calls:
        message["tool_calls"] = [
            {"id": f"call_{ident}_{i}", "type": "function", "function": {"name": n, "arguments": a}}
            for i, (n, a) in enumerate(reply.tool_calls)
        ]
        finish = "tool_calls"
    return {
        "id": f"chatcmpl-{ident}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model,
        "choices": [{"index": 0, "message": message, "finish_reason": finish, "logprobs": None}],
        "usage": {"prompt_tokens": 10, "completion_tokens": 10, "total_tokens": 20},
    }


def _chunks(reply: Scripted, model: str, ident: int) -> Iterator[dict[str, Any]]:
    def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        return {
            "id": f"chatcmpl-{ident}",
            "object": "chat.completion.chunk",
            "created": int(time.time()),
            "model": model,
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish, "logprobs": None}],
        }

    yield chunk({"role": "assistant", "content": ""})
    if reply.content:
        words = reply.content.split(" ")
        for i, w in enumerate(words):
            yield chunk({"content": w + (" " if i < len(words) - 1 else "")})
    for i, (n, a) in enumerate(reply.tool_calls):
        yield chunk(
            {
                "tool_calls": [
                    {
                        "index": i,
                        "id": f"call_{ident}_{i}",
                        "type": "function",
                        "function": {"name": n, "arguments": ""},
                    }
                ]
            }
        )
        yield chunk({"tool_calls": [{"index": i, "function": {"arguments": a}}]})
    yield chunk({}, "tool_calls" if reply.tool_calls else "stop")


class FakeOpenAIServer:
    """An OpenAI-compatible chat-completions endpoint on 127.0.0.1 with a queue of scripted replies.

    Use as a context manager. `enqueue(...)` appends replies; when the queue is empty, `default(body)`
    decides (or a plain "OK" text). `requests` holds every request body received, in order.
    """

    def __init__(self, *replies: Scripted, default: Handler | None = None, model: str = "fake-model") -> None:
        self._state = _State(queue=list(replies), default=default)
        self.model = model
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # -- scripting ------------------------------------------------------------------------------
    def enqueue(self, *replies: Scripted) -> None:
        with self._state.lock:
            self._state.queue.extend(replies)

    def set_default(self, handler: Handler | None) -> None:
        self._state.default = handler

    @property
    def requests(self) -> list[dict[str, Any]]:
        with self._state.lock:
            return list(self._state.requests)

    @property
    def abandoned(self) -> int:
        """How many delayed requests the client gave up on by closing the connection."""
        with self._state.lock:
            return self._state.abandoned

    @property
    def url(self) -> str:
        assert self._httpd is not None, "server not started"
        host, port = self._httpd.server_address[:2]
        return f"http://{host!s}:{port}/v1"

    # -- lifecycle ------------------------------------------------------------------------------
    def start(self) -> FakeOpenAIServer:
        state = self._state
        model = self.model

        class _Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - silence the log
                return

            def _send(self, status: int, body: bytes, ctype: str = "application/json") -> None:
                self.send_response(status)
                self.send_header("Content-Type", ctype)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def do_POST(self) -> None:  # noqa: N802 - http.server naming
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length)
                try:
                    body = json.loads(raw or b"{}")
                except ValueError:
                    body = {"_unparsed": raw.decode("utf-8", "replace")}
                if not self.path.rstrip("/").endswith("/chat/completions"):
                    self._send(404, json.dumps({"error": {"message": f"no route {self.path}"}}).encode())
                    return
                with state.lock:
                    state.requests.append(body)
                    reply = state.queue.pop(0) if state.queue else None
                    ident = next(state.ids)
                if reply is None:
                    reply = state.default(body) if state.default else text("OK")
                with contextlib.suppress(BrokenPipeError, ConnectionResetError):  # client gave up (timeouts)
                    self._answer(reply, body, ident)

            def _client_left(self, seconds: float) -> bool:
                """Wait up to `seconds`; True as soon as the client closes its connection (a real
                server would stop generating then)."""
                end = time.monotonic() + seconds
                while (left := end - time.monotonic()) > 0:
                    ready, _, _ = select.select([self.connection], [], [], min(0.05, left))
                    if ready and not self.connection.recv(1, socket.MSG_PEEK):
                        with state.lock:
                            state.abandoned += 1
                        return True
                return False

            def _answer(self, reply: Scripted, body: dict[str, Any], ident: int) -> None:
                if reply.delay_s and self._client_left(reply.delay_s):
                    return
                if reply.status != 200:
                    err = {
                        "error": {"message": reply.error_message, "type": "scripted", "code": reply.status}
                    }
                    self._send(reply.status, json.dumps(err).encode())
                    return
                if reply.raw_body is not None:
                    self._send(200, reply.raw_body)
                    return
                if body.get("stream"):
                    payload = (
                        b"".join(
                            b"data: " + json.dumps(c).encode() + b"\n\n" for c in _chunks(reply, model, ident)
                        )
                        + b"data: [DONE]\n\n"
                    )
                    self._send(200, payload, "text/event-stream")
                    return
                self._send(200, json.dumps(_completion(reply, model, ident)).encode())

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, name="fake-openai", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._httpd = None

    def __enter__(self) -> FakeOpenAIServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def kind_of(body: dict[str, Any]) -> str:
    """What a request asks for: 'structured' (json_schema / forced tool), 'tools' or 'chat'."""
    if body.get("response_format") or body.get("tool_choice") not in (None, "auto", "none"):
        return "structured"
    if body.get("tools"):
        return "tools"
    return "chat"


# ---------------------------------------------------------------------------------------------------
# Fake chat model for agent logic


def fake_tool_chat_model(messages: list[Any]) -> Any:
    """A GenericFakeChatModel that accepts `bind_tools` and records what it was sent (`.received`).

    `messages` are AIMessages (tool calls allowed) or strings, answered in order.
    """

    class FakeToolChatModel(GenericFakeChatModel):
        received: list[list[Any]] = []

        def bind_tools(self, tools: Any, **kwargs: Any) -> Any:
            return self

        def _generate(
            self, messages: list[Any], stop: Any = None, run_manager: Any = None, **kwargs: Any
        ) -> Any:
            self.received.append(list(messages))
            return super()._generate(messages, stop=stop, run_manager=run_manager, **kwargs)

    model = FakeToolChatModel(messages=iter(messages))
    model.received = []
    return model


# ---------------------------------------------------------------------------------------------------
# A tiny rules extractor: a stand-in with known behaviour for tests of the LLM merge logic


class TinyRulesExtractor:
    """Reads a handful of fields with regular expressions (model size, method, epochs, budget in $).
    Deliberately small: tests of the openai extractor and the conversation need a rules result with
    known gaps for the model to fill."""

    name = "tiny-rules"

    def extract(self, text: str, prior: Any = None) -> Any:
        found: list[Finding] = []
        for m in re.finditer(r"(\d+(?:\.\d+)?)\s?B\b", text):
            found.append(Finding("params_b", float(m.group(1)), "stated", m.group(0), m.start()))
        for m in re.finditer(r"\b(qlora|lora|full fine-?tun\w*)\b", text, re.IGNORECASE):
            word = m.group(1).lower()
            method = "qlora" if word == "qlora" else "lora" if word == "lora" else "full"
            found.append(Finding("method", method, "stated", m.group(0), m.start()))
            found.append(Finding("workload", "fine_tuning", "inferred", m.group(0), m.start()))
        for m in re.finditer(r"(\d+(?:\.\d+)?)\s+epochs?\b", text, re.IGNORECASE):
            corr = "actually" in text[max(0, m.start() - 20) : m.start()].lower()
            found.append(Finding("epochs", float(m.group(1)), "stated", m.group(0), m.start(), corr))
        for m in re.finditer(r"\$\s?(\d+(?:\.\d+)?)\s?(k)?\b", text, re.IGNORECASE):
            value = float(m.group(1)) * (1000 if m.group(2) else 1)
            found.append(Finding("budget_usd", value, "stated", m.group(0), m.start()))
        return merge_findings(prior, found)


# ---------------------------------------------------------------------------------------------------
# A stand-in recommender with the real result types, for tests that must not depend on the engine


def sample_recommendation(profile: Any) -> Any:
    """A `tools.recommend.models.Recommendation` shaped like the engine's, with numbers that follow
    the profile (hours scale with epochs x dataset tokens), sensitivity items for epochs and dataset
    size (they change the pick) and seq_len (it does not). Raises InputError without a model, as the
    engine does."""
    if profile.model_id is None and profile.params_b is None:
        raise InputError(
            "no model given: name a model (e.g. llama-3-8b) or its size in billions of parameters"
        )
    tb = TraceBuilder()
    params_b = profile.params_b or 8.0
    epochs = profile.epochs or 3.0
    tokens = profile.dataset_tokens or 1e9
    if profile.epochs is None:
        tb.assume("epochs", epochs, "", "default: 3 epochs")
    if profile.dataset_tokens is None:
        tb.assume("dataset_tokens", tokens, "tokens", "default corpus")
    gpu_hours = tb.step(
        "gpu_hours",
        "6 x N x D / (peak x mfu)",
        6 * params_b * 1e9 * tokens * epochs / 989e12 / 3600 / 0.4,
        "h",
        "seed 001",
        params=params_b * 1e9,
        tokens=tokens * epochs,
        peak_tflops=989.0,
        mfu=0.4,
    )
    rate = 2.49
    wall = Range(low=gpu_hours * 0.8, high=gpu_hours * 1.4)
    cost = Range(low=wall.low * rate, high=wall.high * rate)
    tb.step(
        "cost_usd_low",
        "wall_hours_low x usd_per_gpu_hour",
        cost.low,
        "USD",
        wall_hours=wall.low,
        usd_per_gpu_hour=rate,
    )
    tb.step(
        "cost_usd_high",
        "wall_hours_high x usd_per_gpu_hour",
        cost.high,
        "USD",
        wall_hours=wall.high,
        usd_per_gpu_hour=rate,
    )
    peak = tb.step(
        "peak_gib_per_gpu",
        "weights + adapters + activations",
        0.5 * params_b / 1.0737 + 12,
        "GiB",
        params_b=params_b,
    )
    primary = Option(
        gpu="h100-sxm",
        gpus_per_node=1,
        nodes=1,
        total_gpus=1,
        vram_gib_per_gpu=79.1,
        peak_gib_per_gpu=peak,
        provider="lambda",
        pricing="on_demand",
        usd_per_gpu_hour=rate,
        wall_hours=wall,
        cost_usd=cost,
        gpu_name="H100 SXM",
        label="primary",
        why=("fits one GPU with room to spare",),
    )
    alt = Option(
        gpu="a100-80gb",
        gpus_per_node=1,
        nodes=1,
        total_gpus=1,
        vram_gib_per_gpu=79.1,
        peak_gib_per_gpu=peak,
        provider="runpod",
        pricing="on_demand",
        usd_per_gpu_hour=1.19,
        wall_hours=wall.scale(2.5),
        cost_usd=Range(low=wall.low * 2.5 * 1.19, high=wall.high * 2.5 * 1.19),
        gpu_name="A100 80GB",
        label="cheapest",
    )
    prov = dict(profile.provenance)
    data = profile.model_dump()
    for name, value in (("epochs", epochs), ("dataset_tokens", tokens)):
        if getattr(profile, name) is None:
            data[name] = value
            prov[name] = Provenance(status="assumed", evidence=None)
    data["provenance"] = prov
    resolved = type(profile).model_validate(data)
    return Recommendation(
        profile=resolved,
        primary=primary,
        alternatives=(alt,),
        rejected=(Rejection(gpu="l4", reason="24 GiB per GPU is less than the 47 GiB peak", kind="memory"),),
        sensitivity=(
            SensitivityItem(
                input="dataset_tokens",
                base=f"{tokens:,.0f}",
                low="100,000,000",
                high="10,000,000,000",
                changes_primary=True,
            ),
            SensitivityItem(input="epochs", base=f"{epochs:g}", low="1", high="10", changes_primary=True),
            SensitivityItem(input="seq_len", base="2048", low="1024", high="8192", changes_primary=False),
            SensitivityItem(input="mfu", base="0.4", low="0.3", high="0.5", changes_primary=True),
        ),
        **tb.fields(),
    )


def facts_reply(*facts: tuple[str, Any, str]) -> Scripted:
    """An extraction answer in the compact shape: (field, value, quote) per fact."""
    return json_reply({"facts": [{"field": f, "value": v, "quote": q} for f, v, q in facts]})
