"""Fixtures for conversation tests: a stand-in rules extractor and recommender with known behaviour, and
a local OpenAI-compatible server. No real LLM can be reached (see tests/conftest.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from advisor.llm.settings import LLMSettings
from advisor.llm.testing import FakeOpenAIServer


@pytest.fixture(autouse=True)
def _only_local_llm(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    assert LLMSettings.from_env().is_local


@pytest.fixture
def server() -> Iterator[FakeOpenAIServer]:
    with FakeOpenAIServer() as srv:
        yield srv


@pytest.fixture
def settings(server: FakeOpenAIServer) -> LLMSettings:
    # no test here makes the server stall; a loaded CI machine can take seconds for one local reply
    return LLMSettings(base_url=server.url, max_retries=0, timeout_s=30.0, model="fake-model")
