"""Expert review 7, R14: "EU hosting" in a requirements list is EU only, and "TTFT < 500 ms, >= 25 tok/s"
is two comparisons, not an HTML tag to strip (evals/reviews/2026-11-27-expert-review-7.md)."""

from __future__ import annotations

import pytest

from advisor.extract.rules import RulesExtractor
from advisor.extract.rules_text import split_sentences

R14 = (
    "We're launching a customer assistant on Llama 3.1 8B. ~2,000 DAU, peak 100 concurrent chats. "
    "Requirements: TTFT < 500 ms, >= 25 tok/s per user, budget $3k/month, EU hosting. What should we run?"
)


def test_review_phrasing_reads_eu_and_ttft() -> None:
    p = RulesExtractor().extract(R14)
    assert p.eu_only is True
    assert p.ttft_target_s == pytest.approx(0.5)
    assert p.latency_ms_per_token == pytest.approx(40.0)


@pytest.mark.parametrize(
    "text",
    [
        "Serve Llama 3.1 8B to 50 users, EU hosting, $2k/month.",
        "Serve Llama 3.1 8B to 50 users; the service has to be EU-hosted.",
        "Serve Llama 3.1 8B to 50 users, hosted in the EU.",
        "Serve Llama 3.1 8B to 50 users from EU data centres.",
    ],
)
def test_eu_hosting_wordings_are_eu_only(text: str) -> None:
    assert RulesExtractor().extract(text).eu_only is True


@pytest.mark.parametrize(
    "text",
    [
        "Serve Llama 3.1 8B to 50 users. EU hosting would be nice but is not required.",
        "Serve Llama 3.1 8B to 50 users. What is the premium for EU hosting vs US?",
        "Serve Llama 3.1 8B to 50 users. Our team is based in Europe.",
    ],
)
def test_a_wish_or_comparison_is_not_eu_only(text: str) -> None:
    assert RulesExtractor().extract(text).eu_only is None


@pytest.mark.parametrize("text", ["p95 < 2 s and > 20 tok/s.", "TTFT <500ms, throughput >1k tok/s."])
def test_comparison_signs_are_kept(text: str) -> None:
    kept = " ".join(s.text for s in split_sentences(text).sentences)
    assert "<" in kept and ">" in kept


def test_html_tags_are_still_stripped() -> None:
    kept = " ".join(s.text for s in split_sentences("<b>LoRA</b> Llama 3 8B <br/> on 20M tokens.").sentences)
    assert "<" not in kept and "LoRA" in kept
