"""Fixtures for the ask/chat/eval/report-text command tests. The recommender is replaced by the
stand-in (advisor.llm.testing.sample_recommendation) unless a test asks for the real engine, so these
tests check the command wiring fast; one contract test runs the real engine."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from advisor.llm.settings import LLMSettings
from advisor.llm.testing import FakeOpenAIServer, sample_recommendation
from advisor.service import recommending


@pytest.fixture(autouse=True)
def _only_local_llm(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    monkeypatch.setenv("GPU_ADVISOR_LLM_MAX_RETRIES", "0")
    monkeypatch.setenv("GPU_ADVISOR_LLM_TIMEOUT_S", "2")
    assert LLMSettings.from_env().is_local


@pytest.fixture
def stand_in_engine() -> Iterator[None]:
    with recommending.replaced(sample_recommendation):
        yield


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeOpenAIServer]:
    with FakeOpenAIServer() as srv:
        monkeypatch.setenv("OPENAI_BASE_URL", srv.url)
        yield srv
