"""Fixtures for the LLM tests: a local OpenAI-compatible server and settings that can only reach it.

The suite-wide guard (tests/conftest.py) already clears OPENAI_API_KEY and points OPENAI_BASE_URL at a
closed local port; here we also assert that, so a real network LLM request is impossible in this area.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from advisor.llm.settings import LLMSettings
from advisor.llm.testing import FakeOpenAIServer, TinyRulesExtractor


@pytest.fixture(autouse=True)
def _only_local_llm(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")  # closed port: nothing answers
    monkeypatch.setenv("GPU_ADVISOR_LLM_MAX_RETRIES", "0")
    monkeypatch.setenv("GPU_ADVISOR_LLM_TIMEOUT_S", "2")
    env = LLMSettings.from_env()
    assert env.api_key is None and env.is_local


@pytest.fixture
def server() -> Iterator[FakeOpenAIServer]:
    with FakeOpenAIServer() as srv:
        yield srv


@pytest.fixture
def settings(server: FakeOpenAIServer) -> LLMSettings:
    """Settings aimed at the fake server: no retries, a short timeout (2.5 s: under the 3 s delay the agent's
    timeout test sends, over what a loaded CI machine took for one local reply; 1 s failed once there)."""
    return LLMSettings(base_url=server.url, max_retries=0, timeout_s=2.5, model="fake-model")


@pytest.fixture
def rules() -> TinyRulesExtractor:
    return TinyRulesExtractor()
