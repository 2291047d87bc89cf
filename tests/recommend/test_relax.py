"""Issue 16: an infeasible combination of hard constraints says which constraint to relax, and what
option dropping it allows; the option named is the one a run without that constraint picks."""

from __future__ import annotations

import re
from typing import Any

from tools.catalog.load import Catalog
from tools.profile import WorkloadProfile
from tools.recommend import recommend
from tools.recommend.models import Recommendation, RecommendSettings
from tools.recommend.relax import stated_constraints

QUIET = RecommendSettings(sensitivity=False)
LORA_8B: dict[str, Any] = {"model_id": "llama-3.1-8b", "method": "lora", "dataset_tokens": 1e8}
SERVE_70B: dict[str, Any] = {
    "model_id": "llama-3-70b",
    "workload": "inference",
    "concurrency": 16,
    "context_len": 4096,
}


def _rec(catalog: Catalog, **fields: Any) -> Recommendation:
    return recommend(profile=WorkloadProfile(**fields), catalog=catalog, settings=QUIET)


def _line(lines: tuple[str, ...], label: str) -> str:
    found = [a for a in lines if a.startswith(f"Dropping '{label}' allows")]
    assert found, lines
    return found[0]


def test_serving_70b_on_one_rtx_4090_names_both_constraints_and_what_each_allows(catalog: Catalog) -> None:
    # 70B at 16 x 4k context needs ~150 GiB: neither 'on RTX 4090' nor 'one GPU' can hold with the other
    rec = _rec(catalog, **SERVE_70B, gpus_wanted=["rtx-4090"], max_gpus=1)
    assert rec.primary is None
    one_gpu = _line(rec.infeasible_advice, "at most 1 GPU")
    on_4090 = _line(rec.infeasible_advice, "on rtx-4090")
    assert re.search(r"allows \d+x NVIDIA GeForce RTX 4090 .+ at .+ for \$[\d,]+.* a month\.$", one_gpu)
    assert re.search(r"allows 1x .+ for \$[\d,]+.* a month\.$", on_4090)
    # the option named is what a run without that constraint picks
    alt = _rec(catalog, **SERVE_70B, gpus_wanted=["rtx-4090"]).primary
    assert alt is not None and f"{alt.total_gpus}x {alt.gpu_name}" in one_gpu and alt.provider in one_gpu


def test_reserved_only_at_lambda_names_provider_and_pricing_drops(catalog: Catalog) -> None:
    rec = _rec(catalog, **LORA_8B, providers_required=["lambda"], pricing_excluded=["on_demand", "spot"])
    assert rec.primary is None
    at_lambda = _line(rec.infeasible_advice, "no on-demand, spot pricing")
    assert " at lambda for $" in at_lambda
    elsewhere = _line(rec.infeasible_advice, "only lambda")
    assert " reserved at " in elsewhere and " at lambda " not in elsewhere


def test_over_budget_on_aws_without_spot_needs_both_dropped(catalog: Catalog) -> None:
    # $5 for an 8B LoRA: AWS on-demand is 4x over; AWS spot alone or any on-demand alone is still over,
    # spot elsewhere is within it. The budget itself is the limit shown as missed, not offered as a drop.
    rec = _rec(catalog, **LORA_8B, providers_required=["aws"], pricing_excluded=["spot"], budget_usd=5)
    assert rec.primary is not None and "meets the budget" in " ".join(rec.notes)
    together = [n for n in rec.notes if n.startswith("No single constraint is the obstacle")]
    assert together and "dropping 'only aws', 'no spot' together allows" in together[0]
    assert " spot at " in together[0] and "budget" not in together[0].split("allows")[0]
    cost = re.search(r"for \$([\d.,]+)", together[0])
    assert cost and float(cost.group(1).replace(",", "")) <= 5


def test_a_feasible_run_has_no_relaxation_lines(catalog: Catalog) -> None:
    rec = _rec(catalog, **LORA_8B, providers_required=["aws"], pricing_excluded=["spot"])
    assert rec.primary is not None
    assert not any(
        "Dropping '" in n or "No single constraint" in n for n in rec.notes + rec.infeasible_advice
    )


def test_assumed_values_are_not_offered_as_constraints_to_drop() -> None:
    p = WorkloadProfile(**LORA_8B).with_values("assumed", None, eu_only=True, max_gpus=8)
    assert stated_constraints(p) == []
    q = WorkloadProfile(**LORA_8B, eu_only=True, budget_usd=100, deadline_hours=5)
    assert [label for label, _ in stated_constraints(q)] == ["EU only", "budget $100", "deadline 5.0 h"]
    assert [label for label, _ in stated_constraints(q, limits=False)] == ["EU only"]


def test_the_budget_and_deadline_are_never_dropped_together(catalog: Catalog) -> None:
    # both limits missed and no other constraint: dropping both would only repeat the closest miss
    rec = _rec(catalog, **LORA_8B, budget_usd=1, deadline_hours=0.05)
    assert rec.primary is not None and "meets the budget and deadline" in " ".join(rec.notes)
    assert not any(n.startswith("No single constraint") for n in rec.notes)
