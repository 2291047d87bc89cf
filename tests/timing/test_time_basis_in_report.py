"""The report, chat and Slack say which framework a training time assumes and what would narrow it
(issue 13: "the report prints the range, the framework it assumed, and what would narrow it")."""

from __future__ import annotations

from typing import Any

import pytest

from advisor.slack.blocks import summary_blocks
from reports.view import build_context
from tools.catalog.load import load_catalog
from tools.profile import WorkloadProfile
from tools.recommend import recommend
from tools.recommend.models import recommendation_json


def _rec(**fields: Any) -> Any:
    profile = WorkloadProfile(model_id="llama-3-8b", workload="fine_tuning", dataset_tokens=1e8, **fields)
    return recommend(profile=profile, catalog=load_catalog())


@pytest.fixture(scope="module")
def unstated() -> Any:
    return _rec(method="lora")


def test_an_unstated_framework_is_hf_marked_assumed(unstated: Any) -> None:
    assert unstated.profile.framework == "hf" and unstated.profile.status_of("framework") == "assumed"
    basis = build_context(unstated)["time_basis"]
    assert basis.startswith("Time assumes hf, Transformers Trainer / TRL / PEFT (assumed")
    assert "To narrow it: give the micro-batch size per GPU" in basis
    assert basis in unstated.summary  # the chat and web summary


def test_a_stated_framework_and_batch_are_not_called_assumed() -> None:
    rec = _rec(method="lora", framework="unsloth", batch_size=4)
    rec = rec.model_copy(
        update={"profile": rec.profile.with_values("stated", framework="unsloth", batch_size=4)}
    )
    basis = rec.time_basis
    assert basis is not None and basis.startswith("Time assumes Unsloth.") and "assumed" not in basis
    assert "micro-batch" not in basis  # a stated batch is not something to narrow
    data = recommendation_json(rec)
    assert data["time_framework"] == "unsloth" and data["time_basis"] == basis


def test_slack_shows_the_time_basis_under_the_primary(unstated: Any) -> None:
    blocks = summary_blocks(recommendation_json(unstated))
    texts = [str(b) for b in blocks]
    assert any("Time assumes hf" in t for t in texts)


def test_serving_has_no_training_time_basis() -> None:
    rec = recommend(
        profile=WorkloadProfile(model_id="llama-3-8b", workload="inference", concurrency=8),
        catalog=load_catalog(),
    )
    assert rec.time_basis is None and build_context(rec)["time_basis"] == ""
    assert rec.profile.framework is None
