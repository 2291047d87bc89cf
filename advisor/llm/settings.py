"""LLM settings from the environment: OPENAI_API_KEY, OPENAI_BASE_URL, GPU_ADVISOR_MODEL.

Any OpenAI-compatible server works (OpenAI, vLLM, Ollama, llama.cpp): point OPENAI_BASE_URL at it.
A local server needs no real key; we send a placeholder when none is set.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from urllib.parse import urlparse

from tools.errors import InputError

DEFAULT_MODEL = "gpt-4o-mini"
DEFAULT_TIMEOUT_S = 60.0
DEFAULT_MAX_RETRIES = 2
# Tokens a model may generate for one extraction answer: a dozen facts with short quotes fit in ~400;
# the cap stops a small local model that loops (and bounds a request the client gave up on).
DEFAULT_MAX_TOKENS = 512
LOCAL_PLACEHOLDER_KEY = "not-needed"  # local OpenAI-compatible servers accept any key


STRUCTURED_METHODS = ("json_schema", "function_calling")


def _method(value: str) -> str:
    v = value.strip().lower()
    if v not in STRUCTURED_METHODS:
        raise InputError(f"GPU_ADVISOR_STRUCTURED_OUTPUT={value!r}: use json_schema or function_calling")
    return v


@dataclass(frozen=True)
class LLMSettings:
    """Where and how to reach the chat model. `timeout_s` bounds one HTTP request."""

    model: str = DEFAULT_MODEL
    api_key: str | None = None
    base_url: str | None = None
    timeout_s: float = DEFAULT_TIMEOUT_S
    max_retries: int = DEFAULT_MAX_RETRIES
    temperature: float = 0.0
    structured_method: str = "json_schema"  # or function_calling, for servers without json_schema
    max_tokens: int | None = DEFAULT_MAX_TOKENS  # extraction answers; None: the server's own limit

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None) -> LLMSettings:
        """Settings from environment variables. Optional knobs: GPU_ADVISOR_LLM_TIMEOUT_S,
        GPU_ADVISOR_LLM_MAX_RETRIES, GPU_ADVISOR_LLM_MAX_TOKENS (0: no cap),
        GPU_ADVISOR_STRUCTURED_OUTPUT (json_schema | function_calling)."""
        e = dict(os.environ) if env is None else env
        try:
            timeout = float(e.get("GPU_ADVISOR_LLM_TIMEOUT_S") or DEFAULT_TIMEOUT_S)
            retries = int(e.get("GPU_ADVISOR_LLM_MAX_RETRIES") or DEFAULT_MAX_RETRIES)
            max_tokens = int(e.get("GPU_ADVISOR_LLM_MAX_TOKENS") or DEFAULT_MAX_TOKENS)
        except ValueError as exc:
            raise InputError(f"bad LLM timeout/retry/token setting ({exc}): use numbers") from exc
        return cls(
            model=e.get("GPU_ADVISOR_MODEL") or DEFAULT_MODEL,
            api_key=e.get("OPENAI_API_KEY") or None,
            base_url=e.get("OPENAI_BASE_URL") or None,
            timeout_s=timeout,
            max_retries=retries,
            max_tokens=max_tokens or None,
            structured_method=_method(e.get("GPU_ADVISOR_STRUCTURED_OUTPUT") or "json_schema"),
        )

    @property
    def is_local(self) -> bool:
        """True when the base URL points at this machine (loopback)."""
        if not self.base_url:
            return False
        host = urlparse(self.base_url).hostname or ""
        return host in ("localhost", "127.0.0.1", "::1") or host.startswith("127.")

    @property
    def configured(self) -> bool:
        """Whether a model can be reached at all: a key, or a base URL of a (local) compatible server."""
        return bool(self.api_key or self.base_url)

    def resolved_api_key(self) -> str:
        """The key to send; raises InputError when neither a key nor a base URL is set."""
        if self.api_key:
            return self.api_key
        if self.base_url:
            return LOCAL_PLACEHOLDER_KEY
        raise InputError(
            "the openai backend needs OPENAI_API_KEY (or OPENAI_BASE_URL for a local OpenAI-compatible "
            "server such as vLLM or Ollama); or use --backend rules"
        )
