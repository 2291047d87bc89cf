"""Owned GPUs said through the body that holds them, a term's own noun, or the time used of a term, and
a feasibility question about them (advisor/extract/rules_owned_terms.py, rules_fleet.py, rules_claims.py;
issue 12, evals v12/v15 development sets): each phrasing, two variants, and a near miss."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tools.profile import WorkloadProfile
from tools.units import HOURS_PER_MONTH

Extract = Callable[..., WorkloadProfile]


@pytest.mark.parametrize(
    ("text", "gpu", "count"),
    [
        ("Our colo has 16 L40S (two 8-GPU servers). LoRA Qwen3 8B on 100M tokens.", "l40s", 16),
        ("Our hospital bought a DGX H200 last spring. Serve Llama 3.3 70B to 150 users.", "h200", 8),
        ("My university owns 4 A100 80GB. Full fine-tune Llama 3.2 1B on 2B tokens.", "a100-80gb-sxm", 4),
        ("Our clinic bought 2 RTX 4090 last year. QLoRA Qwen2.5 7B on 10M tokens.", "rtx-4090", 2),
    ],
)
def test_the_body_or_place_that_holds_the_cards_owns_them(
    extract: Extract, text: str, gpu: str, count: int
) -> None:
    p = extract(text)
    assert (p.owned_gpu, p.owned_gpu_count) == (gpu, count)


def test_near_miss_a_provider_that_has_cards_does_not_make_them_ours(extract: Extract) -> None:
    p = extract("Our provider has 16 H100 available. LoRA Llama 3.1 8B on 100M tokens in 3 days.")
    assert p.owned_gpu is None and p.owned_gpu_count is None


@pytest.mark.parametrize(
    ("text", "gpu", "count", "provider", "left"),
    [
        (
            "Our 1-year AWS reservation of 8x H200 (one p5e node) has 4 months left. CPT Llama 3.1 8B on 30B "
            "tokens.",
            "h200",
            8,
            "aws",
            4.0,
        ),
        (
            "my 3-year Azure commitment for 16 A100s has 6 months remaining. LoRA Llama 3.1 70B",
            "a100-80gb-sxm",
            16,
            "azure",
            6.0,
        ),
        (
            "We're 7 months into a 12-month commitment for 32 H100s on CoreWeave, paid up front. Pretrain "
            "Llama 3.2 3B on 600B tokens.",
            "h100-sxm",
            32,
            "coreweave",
            5.0,
        ),
        (
            "We are 2 months into our 1-year reservation of 16 A100 at Lambda. LoRA Llama 3.1 70B, 1B tokens",
            "a100-80gb-sxm",
            16,
            "lambda",
            10.0,
        ),
    ],
)
def test_a_held_term_owns_its_gpus_with_host_and_term_left(
    extract: Extract, text: str, gpu: str, count: int, provider: str, left: float
) -> None:
    p = extract(text)
    assert (p.owned_gpu, p.owned_gpu_count, p.owned_reserved) == (gpu, count, True)
    assert p.owned_provider == provider and p.owned_months_left == pytest.approx(left)


def test_near_miss_a_term_offered_is_not_held(extract: Extract) -> None:
    p = extract("AWS offered us a 1-year reservation of 8x H200. Can we pretrain Llama 3.2 1B before then?")
    assert p.owned_gpu is None and p.claimed_gpu is None


@pytest.mark.parametrize(
    "question",
    [
        "Could we pretrain Llama 3.2 3B on 600B tokens on them before then?",
        "Can we finish a LoRA of Llama 3.1 70B on 1B tokens on them before the commitment runs out?",
        "Is it possible to get a full fine-tune of Llama 3.1 8B done on those before it expires?",
    ],
)
def test_finishing_before_the_term_ends_is_a_claim_for_the_term_left(extract: Extract, question: str) -> None:
    p = extract(f"We're 7 months into a 12-month commitment for 32 H100s on CoreWeave. {question}")
    assert (p.claimed_gpu, p.claimed_gpu_count) == ("h100-sxm", 32)
    assert p.claimed_hours == pytest.approx(5 * HOURS_PER_MONTH)  # 12 - 7 months at the price sheet's month


def test_near_miss_before_then_with_no_question_is_no_claim(extract: Extract) -> None:
    p = extract(
        "We're 7 months into a 12-month commitment for 32 H100s on CoreWeave. We must finish before then."
    )
    assert p.claimed_gpu is None and p.owned_months_left == pytest.approx(5)


@pytest.mark.parametrize(
    ("question", "hours"),
    [
        ("Is it possible to finish in 1 week?", 168.0),
        ("Would that be realistic in 3 days?", 72.0),
        ("Is this doable within 10 days?", 240.0),
    ],
)
def test_a_feasibility_question_about_owned_cards_is_a_claim(
    extract: Extract, question: str, hours: float
) -> None:
    p = extract(
        f"I have 2 RTX 4090 in my own PC. I want QLoRA of Qwen2.5 32B with 20 million tokens. {question}"
    )
    assert (p.claimed_gpu, p.claimed_gpu_count, p.claimed_hours) == ("rtx-4090", 2, hours)


def test_near_miss_a_feasibility_statement_is_no_claim(extract: Extract) -> None:
    p = extract(
        "I have 2 RTX 4090 in my own PC. QLoRA Qwen2.5 32B, 20M tokens. It is possible to finish in 3 days."
    )
    assert p.owned_gpu == "rtx-4090" and p.claimed_gpu is None
