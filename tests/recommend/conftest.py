"""Shared fixtures for the recommender tests: the bundled catalog and small profile builders."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from advisor.conversation import Conversation
from tools.catalog.load import Catalog, load_catalog
from tools.profile import WorkloadProfile
from tools.recommend import recommend
from tools.recommend.models import Recommendation, RecommendSettings

QUIET = RecommendSettings(sensitivity=False)
"""Most tests do not need the sensitivity re-runs (they have their own tests)."""

BASE_8B_LORA: dict[str, Any] = {
    "model_id": "llama-3-8b",
    "method": "lora",
    "dataset_tokens": 200e6,
    "epochs": 2,
}
"""A small LoRA job that many catalog offers can run: constraints then decide the pick."""


def conversation_reply(*turns: str) -> str:
    """The reply to the last of `turns`, sent one by one to a conversation (the real rules, explain off)."""
    c = Conversation(explain=False)
    reply = ""
    for t in turns:
        reply = c.send(t).reply
    return reply


def reply_line(reply: str, start: str) -> str:
    """The reply's first line starting with `start` ('' when none does)."""
    return next((line for line in reply.splitlines() if line.startswith(start)), "")


@pytest.fixture(scope="session")
def catalog() -> Catalog:
    return load_catalog()


Runner = Callable[..., Recommendation]


@pytest.fixture(scope="session")
def run(catalog: Catalog) -> Runner:
    """run(**fields): recommend() on the 8B LoRA base profile with `fields` changed (no sensitivity);
    pass settings=RecommendSettings(...) to change the knobs."""

    def _run(settings: RecommendSettings = QUIET, **fields: Any) -> Recommendation:
        profile = WorkloadProfile(**{**BASE_8B_LORA, **fields})
        return recommend(profile=profile, catalog=catalog, settings=settings)

    return _run
