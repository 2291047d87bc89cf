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


PATIENT_TIMEOUT_S = 30.0
"""Timeout for tests that expect the fake server's reply: one local reply once took over 2.5 s on a CI machine
loaded by other jobs, and the extractor fell back to the rules (session 15: the grounding test saw no values
dropped because no model values came)."""
FAULT_TIMEOUT_S = 2.5
"""Timeout for the tests that make the server stall: under the 3 s delay they send."""


@pytest.fixture
def settings(server: FakeOpenAIServer) -> LLMSettings:
    """Settings aimed at the fake server: no retries, a timeout no loaded machine reaches."""
    return LLMSettings(base_url=server.url, max_retries=0, timeout_s=PATIENT_TIMEOUT_S, model="fake-model")


@pytest.fixture
def fault_settings(server: FakeOpenAIServer) -> LLMSettings:
    """Settings for the tests where the server stalls on purpose: the request times out before it answers."""
    return LLMSettings(base_url=server.url, max_retries=0, timeout_s=FAULT_TIMEOUT_S, model="fake-model")


@pytest.fixture
def rules() -> TinyRulesExtractor:
    return TinyRulesExtractor()
