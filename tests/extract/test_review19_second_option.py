"""Expert review 19, finding 6 and parts of 7 (evals/reviews/2026-11-28-expert-review-19.md): a second
option or a second workload named in the message, read in wordings other than the review's, with near misses.

- a GPU named inside a reported claim is the claim's, not a requirement (P06), and the set-up asked about
  beside it is compared with it (R06);
- preference pairs said without lengths are counted at an assumed side length (R08);
- the KV cache's own precision (P03)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tools.preference import PAIR_SIDE_TOKENS_ASSUMED
from tools.profile import WorkloadProfile

Extract = Callable[[str], WorkloadProfile]


@pytest.mark.parametrize(
    ("text", "claimed", "compared", "counts", "source"),
    [
        # the review's R06
        (
            "A vendor tells us their 8x MI300X box can serve Llama 3.1 405B in BF16 at 2,000 tokens/s "
            "aggregate "
            "for 64 concurrent users. Is that plausible? Would we be better off renting 8x H200?",
            "mi300x", ["mi300x", "h200"], [8, 8], "a vendor",
        ),
        # "instead", the alternative asked with "should we"
        (
            "Our reseller claims 4x H100 can serve Llama 3.1 70B at 1,500 tokens/s for 32 users. Should we "
            "rent "
            "4x H200 instead?",
            "h100-sxm", ["h100-sxm", "h200"], [4, 4], "your reseller",
        ),
        # the question first, the claim after it (P06's order), another count word
        (
            "How many tokens/s would 8x B200 give us for Llama 3.1 405B at 32 users? The vendor says 8x "
            "MI300X "
            "manage 1,800 tokens/s.",
            "mi300x", ["mi300x", "b200"], [8, 8], "the vendor",
        ),
        # "according to", a smaller alternative
        (
            "According to the integrator, 2x L40S handle 40 users of Llama 3.1 8B. What about 1x H100?",
            "l40s", ["l40s", "h100-sxm"], [2, 1], "the integrator",
        ),
    ],
)
def test_reported_claim_and_the_setup_asked_about(
    extract: Extract, text: str, claimed: str, compared: list[str], counts: list[int], source: str
) -> None:
    p = extract(text)
    assert p.claimed_gpu == claimed
    assert p.gpus_compared == compared and p.gpu_counts_compared == counts
    assert p.claim_source == source
    assert p.gpus_wanted == []  # neither set-up is a requirement


def test_p06_the_claims_gpu_is_not_required(extract: Extract) -> None:
    p = extract(
        "How fast would 8x H200 serve Llama 3.1 405B in BF16 for 64 concurrent users? A vendor claims 2,000 "
        "tokens/s aggregate on 8x MI300X."
    )
    assert p.gpus_wanted == []  # was ['mi300x']: "Nothing in the catalog fits"
    assert (p.claimed_gpu, p.claimed_gpu_count) == ("mi300x", 8)
    assert p.gpus_compared == ["mi300x", "h200"]
    assert "claimed" in p.provenance["target_tokens_per_s"].evidence  # the vendor's rate, not the team's


def test_a_claim_with_nothing_asked_beside_it_is_only_the_claim(extract: Extract) -> None:
    p = extract(
        "A vendor claims 2,000 tokens/s aggregate on 8x MI300X for Llama 3.1 405B at 64 users. Which GPU "
        "should we rent?"
    )
    assert p.claimed_gpu == "mi300x" and p.gpus_wanted == [] and p.gpus_compared == []


@pytest.mark.parametrize(
    "text",
    [
        # a reported rule, not a claim: the GPU stays required
        "Our CTO says we must use 8x H100 for this. Serve Llama 3.1 70B for 50 users.",
        # the claim's hardware is the team's own: owned, not a vendor's box to compare
        "We have 8x MI300X in house; the vendor claims they do 2,000 tokens/s on Llama 3.1 405B. Would "
        "renting "
        "8x H200 be better?",
        # the same GPU asked about again: nothing to compare
        "A vendor says 8x H100 serve Llama 3.1 70B at 3,000 tokens/s. Is 8x H100 enough for 100 users?",
    ],
)
def test_near_misses_compare_nothing(extract: Extract, text: str) -> None:
    assert extract(text).gpus_compared == []


def test_the_rule_stays_a_requirement(extract: Extract) -> None:
    p = extract("Our CTO says we must use 8x H100 for this. Serve Llama 3.1 70B for 50 users.")
    assert "h100-sxm" in p.gpus_wanted and p.claim_source is None


# ----------------------------------------------------------------------------------------- pairs (R08)
@pytest.mark.parametrize(
    ("text", "pairs"),
    [
        ("(b) a nightly DPO run on Qwen2.5 7B with 200k preference pairs.", 200_000),
        ("We want to ORPO-tune Mistral 7B on roughly 45,000 chosen/rejected pairs.", 45_000),
        ("Preference tuning of Llama 3.1 8B, 1.2M comparison pairs, LoRA.", 1_200_000),
    ],
)
def test_pairs_without_lengths_are_counted_at_the_assumed_side(
    extract: Extract, text: str, pairs: int
) -> None:
    p = extract(text)
    assert p.dataset_tokens == pairs * 2 * PAIR_SIDE_TOKENS_ASSUMED
    assert p.status_of("dataset_tokens") == "inferred"
    assert "assumed" in p.provenance["dataset_tokens"].evidence


def test_stated_lengths_replace_the_assumption(extract: Extract) -> None:
    p = extract("DPO on Qwen2.5 7B with 200k preference pairs, ~600 tokens each side.")
    assert p.dataset_tokens == 200_000 * 1_200


def test_a_size_read_another_way_stands(extract: Extract) -> None:
    # "about 1.5k tokens per pair": rules_data's items x size (90M), not the assumed side (review 15, R09)
    p = extract("Full-parameter DPO on Llama 3.1 70B with 60k preference pairs, about 1.5k tokens per pair.")
    assert p.dataset_tokens == 90e6


def test_a_handful_of_pairs_is_no_data_set(extract: Extract) -> None:
    # "3 pairs" are examples of what a pair holds (rules_preference._MIN_PAIRS), not the data
    assert extract("DPO Llama 3.1 8B; here are 3 preference pairs as examples.").dataset_tokens is None


# ------------------------------------------------------------------------------------ KV cache (P03)
@pytest.mark.parametrize(
    ("text", "kv", "precision"),
    [
        (
            "Is one H200 enough to serve Llama 3.3 70B with fp8 weights and an fp8 KV cache for ~50 "
            "concurrent "
            "users with 8k context?",
            "fp8", "fp8",
        ),
        ("serve llama 3.3 70b in bf16 with the KV cache in FP8 for 40 users", "fp8", "bf16"),
        ("We run vLLM with --kv-cache-dtype fp8_e4m3 for Llama 3.1 8B, 100 users.", "fp8", None),
        ("Serve Llama 3.1 70B, fp8 weights and KV cache, 30 users.", "fp8", "fp8"),
        ("Serve Qwen2.5 32B in fp8 but keep a bf16 KV cache, 20 users.", "bf16", "fp8"),
    ],
)
def test_kv_cache_precision_forms(extract: Extract, text: str, kv: str, precision: str | None) -> None:
    p = extract(text)
    assert p.kv_cache_precision == kv
    assert p.precision == precision


@pytest.mark.parametrize(
    "text",
    [
        "Serve Llama 3.1 70B in fp8, no fp8 KV cache, 30 users.",
        "Serve Llama 3.1 70B with fp8 weights for 30 users.",
        "How big is the KV cache for Llama 3.1 70B at 32k?",
    ],
)
def test_kv_cache_precision_near_misses(extract: Extract, text: str) -> None:
    assert extract(text).kv_cache_precision is None
