"""Expert review 12 (evals/reviews/2026-11-27-expert-review-12.md) R19/P19 and R05, at the rules: a
precision in a follow-up takes the earlier turns' workload; a buy-or-rent question with no horizon
reads the tools' purchase default (tools.recommend.buy_rent.DEFAULT_HORIZON_MONTHS) as an estimate."""

from __future__ import annotations

import pytest

from advisor.extract.rules import RulesExtractor
from tools.profile import WorkloadProfile
from tools.recommend.buy_rent import DEFAULT_HORIZON_MONTHS

SERVING = WorkloadProfile(workload="inference", model_id="llama-3.3-70b")


@pytest.mark.parametrize("text", ["What if we run it in FP8 instead?", "Use FP8 precision."])
def test_fp8_follow_up_after_serving(text: str) -> None:
    assert RulesExtractor().extract(text, SERVING).precision == "fp8"


def test_fp8_follow_up_after_training_is_not_read() -> None:
    prior = WorkloadProfile(workload="fine_tuning", method="lora")
    assert RulesExtractor().extract("What if we run it in FP8 instead?", prior).precision is None


@pytest.mark.parametrize(
    "text",
    [
        "Should we buy or rent?",
        "Buy vs rent for this?",
        "rent or buy the GPUs?",
        "Buy our own or use the cloud?",
    ],
)
def test_buy_or_rent_without_horizon_reads_the_default(text: str) -> None:
    p = RulesExtractor().extract(text, SERVING)
    assert p.horizon_months == DEFAULT_HORIZON_MONTHS
    assert p.status_of("horizon_months") == "inferred"
    assert "default horizon" in (p.provenance["horizon_months"].evidence or "")


def test_stated_horizon_wins_over_the_default() -> None:
    assert RulesExtractor().extract("Should we buy or rent over 2 years?", SERVING).horizon_months == 24
    prior = SERVING.model_copy(update={"horizon_months": 18.0})
    assert RulesExtractor().extract("Should we buy or rent?", prior).horizon_months == 18


def test_no_buy_or_rent_question_no_horizon() -> None:
    assert (
        RulesExtractor().extract("Serve it to 300 users, we rent GPUs today.", SERVING).horizon_months is None
    )
