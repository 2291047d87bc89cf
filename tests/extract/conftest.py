"""Shared fixtures for extraction tests: a rules extractor pinned to a known Wednesday morning."""

from __future__ import annotations

import datetime as dt

import pytest

from advisor.extract.rules import RulesExtractor
from tools.profile import WorkloadProfile

WEDNESDAY = dt.datetime(2026, 11, 18, 9, 0, tzinfo=dt.UTC)


@pytest.fixture
def rules() -> RulesExtractor:
    return RulesExtractor(reference_time=WEDNESDAY)


@pytest.fixture
def extract(rules: RulesExtractor):  # type: ignore[no-untyped-def]
    def run(text: str, prior: WorkloadProfile | None = None) -> WorkloadProfile:
        return rules.extract(text, prior)

    return run
