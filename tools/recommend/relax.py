"""Which stated hard constraint to relax when they rule every option out (issue 16: "an infeasible
combination says which constraint to relax").

Each stated constraint (providers required or excluded, no spot, EU residency, GPU type wanted or
excluded, most GPUs, budget, deadline) is dropped on its own, once, and the cheap part of the search is
re-run (primary only, no sensitivity); a drop that yields an option within the remaining limits is named
with that option ("Dropping 'no spot' allows 8x H100 spot at RunPod for $2,100 – $2,600"). Bounded: at most
one run per stated constraint, plus one run with all but the budget and deadline dropped when no
single drop is enough.
"""

from __future__ import annotations

from typing import Any

from tools import present
from tools.defaults import CatalogView, ResolvedWorkload, resolve_workload
from tools.errors import InputError
from tools.profile import WorkloadProfile
from tools.recommend.candidates import Candidate
from tools.recommend.models import RecommendSettings
from tools.recommend.outcome import Outcome
from tools.recommend.run import run_engine

Relaxation = tuple[str, dict[str, Any]]
"""(the constraint in the user's terms, the profile changes that drop it)."""


def _stated(p: WorkloadProfile, field: str) -> bool:
    return p.status_of(field) != "assumed"


def stated_constraints(p: WorkloadProfile, *, limits: bool = True) -> list[Relaxation]:
    """The hard constraints the profile states, each with the change that drops it. `limits`: include
    the budget and deadline (a run already showing the closest miss of a single limit leaves them out)."""
    out: list[Relaxation] = []
    if p.providers_required and _stated(p, "providers_required"):
        out.append((f"only {', '.join(p.providers_required)}", {"providers_required": []}))
    if p.providers_excluded and _stated(p, "providers_excluded"):
        out.append((f"not {', '.join(p.providers_excluded)}", {"providers_excluded": []}))
    if p.pricing_excluded and _stated(p, "pricing_excluded"):
        kinds = ", ".join(k.replace("_", "-") for k in p.pricing_excluded)
        out.append(
            (
                f"no {kinds}" if p.pricing_excluded == ["spot"] else f"no {kinds} pricing",
                {"pricing_excluded": []},
            )
        )
    if p.eu_only and _stated(p, "eu_only"):
        out.append(("EU only", {"eu_only": False}))
    if p.gpus_wanted and _stated(p, "gpus_wanted"):
        out.append((f"on {', '.join(p.gpus_wanted)}", {"gpus_wanted": []}))
    if p.gpus_excluded and _stated(p, "gpus_excluded"):
        out.append((f"no {', '.join(p.gpus_excluded)}", {"gpus_excluded": []}))
    if p.max_gpus is not None and _stated(p, "max_gpus"):
        out.append((f"at most {p.max_gpus} GPU{'s' if p.max_gpus > 1 else ''}", {"max_gpus": None}))
    if limits and p.budget_usd is not None and _stated(p, "budget_usd"):
        out.append((f"budget {present.usd(p.budget_usd)}", {"budget_usd": None}))
    if limits and p.deadline_hours is not None and _stated(p, "deadline_hours"):
        out.append((f"deadline {present.hours(p.deadline_hours)}", {"deadline_hours": None}))
    return out


def _option_text(c: Candidate, inference: bool) -> str:
    pricing = c.offer.pricing.replace("_", "-")
    cost = present.usd_range(c.total_usd)
    if inference:
        return f"{c.total_gpus}x {c.gpu.name} {pricing} at {c.offer.provider} for {cost} a month"
    return (
        f"{c.layout.n_gpus}x {c.gpu.name} {pricing} at {c.offer.provider} for {cost} "
        f"in {present.hours_range(c.wall_hours, with_days=False)}"
    )


def _try(
    w: ResolvedWorkload,
    catalog: CatalogView,
    settings: RecommendSettings,
    base: Outcome,
    changes: dict[str, Any],
) -> Candidate | None:
    """The primary of a run with `changes` applied, when it is within the remaining limits; else None."""
    try:
        relaxed = resolve_workload(profile=w.profile.with_values("stated", None, **changes), catalog=catalog)
        out = run_engine(relaxed, catalog, settings, base.engine.caches, primary_only=True)
    except (InputError, ValueError):
        return None
    c = out.primary
    return c if c is not None and not c.misses else None


def relax_advice(
    *, workload: ResolvedWorkload, catalog: CatalogView, settings: RecommendSettings, outcome: Outcome
) -> list[str]:
    """'Dropping X allows ...' lines for a run whose stated constraints leave no option (no primary) or
    only options that miss the budget or deadline; empty when nothing is to relax or nothing helps."""
    p = workload.profile
    if outcome.primary is not None and not outcome.primary.misses:
        return []
    both_limits = p.budget_usd is not None and p.deadline_hours is not None
    constraints = stated_constraints(p, limits=outcome.primary is None or both_limits)
    if not constraints:
        return []
    quiet = settings.model_copy(update={"sensitivity": False})
    inference = outcome.engine.inference
    lines: list[str] = []
    for label, changes in constraints:
        c = _try(workload, catalog, quiet, outcome, changes)
        if c is not None:
            lines.append(f"Dropping '{label}' allows {_option_text(c, inference)}.")
    # together: the constraints other than the limits (dropping the budget and deadline both says nothing)
    hard = [(label, ch) for label, ch in constraints if not ch.keys() & {"budget_usd", "deadline_hours"}]
    if not lines and len(hard) > 1:
        every: dict[str, Any] = {k: v for _, ch in hard for k, v in ch.items()}
        c = _try(workload, catalog, quiet, outcome, every)
        names = ", ".join(f"'{label}'" for label, _ in hard)
        if c is not None:
            lines.append(
                f"No single constraint is the obstacle; dropping {names} together allows "
                f"{_option_text(c, inference)}."
            )
    return lines
