"""A claim about how many GPUs a workload needs is answered in its own direction (tools/recommend/
claim_bounds.py): "N is the minimum" is checked as "fits on fewer?" and "fits on N?", "N is too few" as
"fits on N?". The expected answers are not typed in: they come from the plain check of each count (the
same memory tools), so the two answers must agree."""

from __future__ import annotations

from typing import Any

from tools.catalog.load import Catalog
from tools.profile import WorkloadProfile
from tools.recommend import recommend
from tools.recommend.models import ExpectationCheck, RecommendSettings

QUIET = RecommendSettings(sensitivity=False)
LORA_70B: dict[str, Any] = {"model_id": "llama-3-70b", "method": "lora", "dataset_tokens": 2e8}
SERVE_32B: dict[str, Any] = {"model_id": "qwen2.5-32b", "workload": "inference", "concurrency": 20}


def _check(catalog: Catalog, **fields: Any) -> ExpectationCheck:
    rec = recommend(profile=WorkloadProfile(**fields), catalog=catalog, settings=QUIET)
    checks = [c for c in rec.expectation_checks if c.asked or c.claim.startswith(("run it", "serve it"))]
    assert len(checks) == 1, rec.expectation_checks
    return checks[0]


def _fewest_plain(catalog: Catalog, gpu: str, top: int, **fields: Any) -> int:
    """The fewest count whose plain check ('run it on kx GPU') says it fits with the headroom kept."""
    for k in range(1, top + 1):
        check = _check(catalog, claimed_gpu=gpu, claimed_gpu_count=k, **fields)
        if check.verdict == "holds":
            return k
    raise AssertionError(f"nothing up to {top}x {gpu} holds it")


def test_a_minimum_claim_agrees_with_the_plain_checks_around_it(catalog: Catalog) -> None:
    gpu = "a100-80gb-sxm"
    fewest = _fewest_plain(catalog, gpu, 8, **LORA_70B)
    assert fewest > 1  # 70B LoRA in bf16 needs more than one 80 GB card: the test speaks about a real minimum
    at = _check(catalog, claimed_gpu=gpu, claimed_gpu_count=fewest, claimed_gpu_bound="minimum", **LORA_70B)
    assert at.verdict == "holds" and "fewest" in at.explanation and at.claim.startswith("at least")
    over = _check(catalog, claimed_gpu=gpu, claimed_gpu_count=fewest + 2, claimed_gpu_bound="minimum",
                  **LORA_70B)  # fmt: skip
    assert over.verdict == "cannot_hold" and f"fits on {fewest}x" in over.explanation
    under = _check(catalog, claimed_gpu=gpu, claimed_gpu_count=fewest - 1, claimed_gpu_bound="minimum",
                   **LORA_70B)  # fmt: skip
    assert under.verdict == "cannot_hold" and f"It fits from {fewest}x" in under.explanation


def test_a_too_few_claim_is_right_when_the_count_does_not_fit(catalog: Catalog) -> None:
    check = _check(catalog, claimed_gpu="l40s", claimed_gpu_count=1, claimed_gpu_bound="too_few", **SERVE_32B)
    plain = _check(catalog, claimed_gpu="l40s", claimed_gpu_count=1, **SERVE_32B)
    assert plain.verdict == "cannot_hold"  # the plain check: 32B in bf16 does not fit one 48 GB card
    assert check.verdict == "holds" and check.explanation.startswith("Too few indeed")


def test_a_too_few_claim_is_wrong_when_the_count_fits(catalog: Catalog) -> None:
    fields: dict[str, Any] = {"model_id": "llama-3-8b", "workload": "inference", "concurrency": 10}
    plain = _check(catalog, claimed_gpu="h100-sxm", claimed_gpu_count=1, **fields)
    assert plain.verdict == "holds"
    check = _check(catalog, claimed_gpu="h100-sxm", claimed_gpu_count=1, claimed_gpu_bound="too_few",
                   **fields)  # fmt: skip
    assert check.verdict == "cannot_hold" and "is enough" in check.explanation


def test_a_bound_claim_does_not_force_its_count_on_the_pick(catalog: Catalog) -> None:
    fields: dict[str, Any] = {"model_id": "llama-3-8b", "method": "qlora", "dataset_tokens": 1e7}
    rec = recommend(profile=WorkloadProfile(claimed_gpu="a100-80gb-sxm", claimed_gpu_count=8,
                                            claimed_gpu_bound="minimum", **fields), catalog=catalog,
                    settings=QUIET)  # fmt: skip
    assert rec.primary is not None and rec.primary.gpu == "a100-80gb-sxm"
    assert not any("the GPU and count you named" in w for w in rec.primary.why)


def test_a_count_claim_without_a_gpu_is_checked_on_the_gpu_picked(catalog: Catalog) -> None:
    fields: dict[str, Any] = {"model_id": "llama-3-8b", "method": "qlora", "dataset_tokens": 1e7}
    rec = recommend(profile=WorkloadProfile(claimed_gpu_count=16, claimed_gpu_bound="minimum", **fields),
                    catalog=catalog, settings=QUIET)  # fmt: skip
    assert rec.primary is not None
    checks = [c for c in rec.expectation_checks if c.claim.startswith("at least 16x")]
    assert len(checks) == 1
    # an 8B QLoRA fits one data-centre GPU: 16 is not the minimum on whatever GPU was picked
    assert checks[0].verdict == "cannot_hold" and "you named none" in checks[0].explanation
