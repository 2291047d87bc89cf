"""Each constraint changes the pick the way it should (issue 3, 'It must show')."""

from __future__ import annotations

from collections.abc import Callable

from tools.catalog.load import Catalog
from tools.recommend.models import Recommendation

Runner = Callable[..., Recommendation]


def test_eu_only_keeps_eu_offers_only(run: Runner, catalog: Catalog) -> None:
    # RunPod lists EU data centres too (prices.yaml areas; expert review 19, R12) and Nebius is in the EU:
    # without them the pick is outside the EU
    no_runpod = ["runpod-community", "runpod-secure", "nebius"]
    base = run(providers_excluded=no_runpod)
    assert base.primary is not None and not (base.primary.eu or "eu" in base.primary.areas)
    rec = run(eu_only=True, providers_excluded=no_runpod)
    assert rec.primary is not None
    # in the EU by the record's region or by the provider's sourced region list (prices.yaml areas)
    assert all(o.eu or "eu" in o.areas for o in rec.options)
    assert rec.primary.key != base.primary.key
    assert all(o.eu or "eu" in o.areas for o in run(eu_only=True).options)


def test_excluded_provider_never_appears(run: Runner, catalog: Catalog) -> None:
    base = run()
    assert base.primary is not None
    banned = base.primary.provider
    rec = run(providers_excluded=[banned])
    assert rec.primary is not None
    assert all(o.provider != banned for o in rec.options)


def test_preferred_provider_wins_primary_when_feasible(run: Runner, catalog: Catalog) -> None:
    rec = run(providers_preferred=["lambda"])
    # 'lambda' names the company: its on-demand and cluster offers (lambda, lambda-cluster) both count
    assert rec.primary is not None and rec.primary.provider in ("lambda", "lambda-cluster")


def test_budget_moves_the_fastest_pick_to_one_within_budget(run: Runner, catalog: Catalog) -> None:
    fast = run(objective="fastest")
    assert fast.primary is not None
    cheap_low = min(o.tco[0].total_usd.low for o in fast.options)  # spot quotes float: highs are wide
    budget = (cheap_low + fast.primary.tco[0].total_usd.low) / 2
    assert cheap_low < budget < fast.primary.tco[0].total_usd.low
    rec = run(objective="fastest", budget_usd=budget)
    assert rec.primary is not None
    assert rec.primary.key != fast.primary.key
    assert rec.primary.tco[0].total_usd.low <= budget
    assert rec.primary.meets_budget is True
    assert any(r.kind == "budget" for r in rec.rejected) or rec.primary.tco[0].total_usd.high <= budget


def test_deadline_moves_the_cheapest_pick_to_one_that_finishes(run: Runner, catalog: Catalog) -> None:
    cheap = run(objective="cheapest")
    assert cheap.primary is not None
    deadline = cheap.primary.wall_hours.low / 2
    rec = run(objective="cheapest", deadline_hours=deadline)
    assert rec.primary is not None
    assert rec.primary.wall_hours.high <= deadline
    assert rec.primary.key != cheap.primary.key


def test_impossible_deadline_says_so_and_shows_the_closest(run: Runner, catalog: Catalog) -> None:
    rec = run(deadline_hours=0.001)
    assert rec.primary is not None
    assert any("Nothing in the catalog meets the deadline" in n for n in rec.notes)
    assert rec.primary.meets_deadline is False
    check = next(c for c in rec.expectation_checks if "finish within" in c.claim)
    assert check.verdict == "cannot_hold" and check.factor is not None and check.factor > 1


def test_consumer_wish_keeps_consumer_gpus(run: Runner, catalog: Catalog) -> None:
    rec = run(deployment_preference="consumer")
    assert rec.primary is not None
    consumer = {g.id for g in catalog.gpus if g.consumer}
    assert all(o.gpu in consumer for o in rec.options)
    assert any("consumer hardware requested" in r.reason for r in rec.rejected)


def test_on_prem_wish_gives_owned_hardware(run: Runner, catalog: Catalog) -> None:
    rec = run(deployment_preference="on_prem")
    assert rec.primary is not None
    assert all(o.pricing == "owned" and o.deployment == "owned" for o in rec.options)


def test_high_sustained_use_over_years_offers_owned_hardware(run: Runner, catalog: Catalog) -> None:
    rec = run(utilization=0.8, horizon_months=36)
    assert any(o.pricing == "owned" for o in rec.options)
    low_use = run(utilization=0.1, horizon_months=36)
    assert all(o.pricing != "owned" for o in low_use.options)


def test_objectives_order_cost_and_time(run: Runner, catalog: Catalog) -> None:
    cheap = run(objective="cheapest")
    fast = run(objective="fastest")
    assert cheap.primary is not None and fast.primary is not None
    assert cheap.primary.tco[0].total_usd.mid <= fast.primary.tco[0].total_usd.mid
    assert fast.primary.wall_hours.mid <= cheap.primary.wall_hours.mid


def test_a_budget_met_only_at_the_favourable_end_is_said_in_the_why(catalog: Catalog) -> None:
    from tools.profile import WorkloadProfile
    from tools.recommend import recommend
    from tools.recommend.models import RecommendSettings

    p = WorkloadProfile(
        model_id="llama-3-70b", method="qlora", dataset_tokens=2e9, deadline_hours=240, budget_usd=1500
    )
    # budget was $8,000 before issue 13 (QLoRA 1.75-3x slowdown and recompute counted on top of the
    # band); the calibrated model prices this run at ~$0.9-2.1k, so the straddled budget moves with it
    rec = recommend(profile=p, catalog=catalog, settings=RecommendSettings(sensitivity=False))
    assert rec.primary is not None
    total = rec.primary.tco[0].total_usd
    assert total.low <= 1500 < total.high  # the setting: the pick straddles the budget
    assert any("budget only at the favourable end" in w for w in rec.primary.why)
    assert not any("budget even at low MFU" in w for w in rec.primary.why)
