"""Expert review 11's reading failures: a choice between two set-ups read as a claim on the first (R13),
"we have only 1 RTX 4090" read as every RTX card wanted (R06), "Compute window: 3 weeks" (R04) and a listed
"US providers" (R15) unused."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from advisor.extract.rules_gpus import family_ids
from tools.profile import WorkloadProfile

Extract = Callable[..., WorkloadProfile]


@pytest.mark.parametrize(
    "text",
    [
        "What's cheaper per month to serve Mistral 7B to ~500 daily users: 1x H100 or 2x L40S?",  # R13
        "Serve Mistral 7B to 40 users. Cheaper per month: 2x L40S or 1x H100?",
    ],
)
def test_a_choice_between_two_set_ups_is_a_comparison(extract: Extract, text: str) -> None:
    p = extract(text)
    assert set(p.gpus_compared) == {"h100-sxm", "l40s"}, text
    assert p.claimed_gpu is None and p.claimed_gpu_count is None


def test_a_claim_on_one_set_up_stays_a_claim(extract: Extract) -> None:
    p = extract("Serve Mistral 7B to 40 users. Is 1x H100 enough for that?")
    assert p.claimed_gpu == "h100-sxm" and p.gpus_compared == []


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("DPO for Llama 3.1 8B on 20M tokens. We have only 1 RTX 4090 in office.", 1),  # R06
        ("LoRA Llama 3 8B on 50M tokens. We have just two A100s.", 2),
    ],
)
def test_only_before_a_count_is_still_ownership(extract: Extract, text: str, count: int) -> None:
    p = extract(text)
    assert p.owned_gpu_count == count and p.gpus_wanted == [], text


def test_an_rtx_card_is_its_own_family() -> None:
    assert family_ids("RTX 4090") == ("rtx-4090",)
    assert "h100-sxm" in family_ids("H100") and "h100-pcie" in family_ids("H100")


@pytest.mark.parametrize(
    ("text", "hours"),
    [
        ("Continued pre-training of Qwen2.5 7B on 100B tokens. Compute window: 3 weeks.", 504.0),  # R04
        ("CPT of Qwen2.5 7B on 100B tokens, training window of 10 days", 240.0),
    ],
)
def test_a_compute_window_is_the_deadline(extract: Extract, text: str, hours: float) -> None:
    assert extract(text).deadline_hours == hours


def test_a_maintenance_window_is_no_deadline(extract: Extract) -> None:
    assert extract("Serve Llama 3 8B to 50 users; maintenance window: 2 hours").deadline_hours is None


@pytest.mark.parametrize(
    ("text", "us_only"),
    [
        # R15
        ("Full-parameter SFT of Llama 3.1 8B on 5B tokens - doable? On-demand only, US providers", True),
        ("Full SFT of Llama 3.1 8B on 5B tokens. We compared US providers and EU ones last year", None),
        ("Full SFT of Llama 3.1 8B on 5B tokens. Non-US providers.", None),
    ],
)
def test_listed_us_providers_mean_us_only(extract: Extract, text: str, us_only: bool | None) -> None:
    assert extract(text).us_only is us_only, text


@pytest.mark.parametrize(
    ("text", "ids", "counts"),
    [
        ("What's cheaper per month to serve Mistral 7B to ~500 daily users: 1x H100 or 2x L40S?",  # R13
         ["h100-sxm", "l40s"], [1, 2]),
        ("Compare the monthly cost of 1x H100 versus 2x L40S for serving Mistral 7B",  # P13
         ["h100-sxm", "l40s"], [1, 2]),
        ("Serve Mistral 7B: 1x H100 SXM or 2x L40S?", ["h100-sxm", "l40s"], [1, 2]),  # P13b
        ("Serve Llama 3 70B to 50 users: 8 H100 vs 4 H200", ["h100-sxm", "h200"], [8, 4]),
        ("Serve Mistral 7B. Which is better, a single H100 or two L40S?", ["h100-sxm", "l40s"], [1, 2]),
        ("Serve Llama 3 70B: H100 vs H200 vs L40S", ["h100-sxm", "h200", "l40s"], []),  # no counts said
    ],
)  # fmt: skip
def test_each_compared_set_up_keeps_its_count(
    extract: Extract, text: str, ids: list[str], counts: list[int]
) -> None:
    p = extract(text)
    assert p.gpus_compared == ids and p.gpu_counts_compared == counts, text


@pytest.mark.parametrize(
    "text",
    [
        "Serve Mistral 7B to 40 users. We have 2x L40S, or should we buy 1x H100?",  # ownership
        "Serve Mistral 7B to 40 users on H100 or better",
    ],
)
def test_near_misses_compare_no_set_ups(extract: Extract, text: str) -> None:
    p = extract(text)
    assert p.gpus_compared == [] and p.gpu_counts_compared == [], text


@pytest.mark.parametrize(
    ("text", "objective"),
    [
        ("LoRA Llama 3 8B on 50M tokens, cheapest option please", "cheapest"),  # R07
        ("LoRA Llama 3 8B on 50M tokens, we want to spend the least money", "cheapest"),
        ("LoRA Llama 3 8B on 50M tokens. We'd pay as little as possible", "cheapest"),
        ("LoRA Llama 3 8B on 50M tokens, whatever costs least", "cheapest"),
        ("LoRA Llama 3 8B on 50M tokens, lowest price wins", "cheapest"),
        ("LoRA Llama 3 8B on 50M tokens; it costs at least $500 anyway", None),
    ],
)
def test_any_way_of_asking_for_the_lowest_cost(extract: Extract, text: str, objective: str | None) -> None:
    assert extract(text).objective == objective, text
