"""The chat-model factory: one place that builds a LangChain chat model from `LLMSettings`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from advisor.llm.settings import LLMSettings

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel


def make_chat_model(settings: LLMSettings | None = None, **overrides: Any) -> BaseChatModel:
    """A `langchain_openai.ChatOpenAI` for `settings` (default: from the environment).

    `overrides` go to ChatOpenAI as-is (e.g. streaming=True). Raises InputError when no key or base URL
    is configured.
    """
    # lazy: langchain_openai + openai cost ~0.9 s; the rules backend (every `ask` start) imports this module
    from langchain_openai import ChatOpenAI

    s = settings or LLMSettings.from_env()
    kwargs: dict[str, Any] = {
        "model": s.model,
        "api_key": s.resolved_api_key(),
        "timeout": s.timeout_s,
        "max_retries": s.max_retries,
        "temperature": s.temperature,
    }
    if s.base_url:
        kwargs["base_url"] = s.base_url
    kwargs.update(overrides)
    return ChatOpenAI(**kwargs)


def llm_error_reason(exc: BaseException) -> str:
    """A short, user-readable reason for a failed model call: no traceback, no secrets, and no digits
    (it is shown in replies, where every number must come from a tool)."""
    name = type(exc).__name__
    status = getattr(exc, "status_code", None)
    if "Timeout" in name:
        return "the request timed out"
    if status == 429 or "RateLimit" in name:
        return "the model server is rate limiting requests"
    if isinstance(status, int) and status >= 500:
        return "the model server reported an internal error"
    if status in (401, 403):
        return "the model server rejected the credentials"
    if isinstance(status, int):
        return "the model server refused the request"
    if "Connection" in name:
        return "the model server could not be reached"
    if "Recursion" in name:
        return "the model kept calling tools without answering"
    if isinstance(exc, ValueError):
        return "the model server sent a reply that could not be read"
    return f"the model call failed ({name})"
