"""'Is 8x H100 enough to serve X?' when it fits: the named set-up's speed at the stated load and what renting
it costs a month, not the memory alone (expert review 18, R20: "On 8x H100 it fits: 40.4 GiB per GPU" with no
speed, while the ranked options held 8x H100 at 51-74 tokens/s per user).

The speed is the serving model's (tools.compute.serving through the engine's calculators), read from a
ranked candidate of that GPU and count where one exists (the figures its option line shows), else timed on
the checked layout; the verdict holds it against the per-user speed in force (stated, or the assumed
interactive floor, tools.defaults), at the slow end of the range."""

from __future__ import annotations

from tools import present
from tools.catalog.schema import GpuSpec
from tools.defaults import CatalogView, ResolvedWorkload
from tools.ranges import Range
from tools.recommend.candidates import Candidate, Layout
from tools.recommend.models import ExpectationCheck
from tools.recommend.outcome import Outcome
from tools.recommend.price_named import price_named
from tools.recommend.risk import COMMUNITY_TIERS
from tools.units import ms_per_token_to_tokens_per_s

RENTALS_SHOWN = 2
"""Providers quoted for the named set-up: the cheapest established one and the next."""


def _same_setup(outcome: Outcome, gpu: GpuSpec, n: int) -> list[Candidate]:
    return [
        c
        for c in outcome.all_feasible
        if c.gpu.id == gpu.id
        and c.total_gpus == n
        and c.serving is not None
        and c.offer.pricing == "on_demand"
    ]


def _rental_text(outcome: Outcome, catalog: CatalogView, gpu: GpuSpec, n: int) -> str:
    """' Renting 8x H100: $22,495 per month at nebius (on-demand); ...': established tiers first (a community
    host is listed only when nothing else sells the count)."""
    same = _same_setup(outcome, gpu, n) or [c for c in price_named(outcome, catalog, gpu, n) if c.serving]
    firm = [c for c in same if c.offer.tier.lower() not in COMMUNITY_TIERS] or same
    best: dict[str, Candidate] = {}
    for c in sorted(firm, key=lambda c: c.cost_usd.mid):
        best.setdefault(c.offer.provider, c)
    shown = list(best.values())[:RENTALS_SHOWN]
    if not shown:
        return ""
    parts = [f"{present.usd_range(c.cost_usd)} per month at {c.offer.provider} (on-demand)" for c in shown]
    return f" Renting {n}x {gpu.name}: " + "; ".join(parts) + "."


def _speeds(
    w: ResolvedWorkload, gpu: GpuSpec, n: int, layout: Layout, outcome: Outcome
) -> tuple[Range, Range]:
    """(per-user tokens/s, aggregate tokens/s) of n x gpu at the stated concurrency."""
    ranked = _same_setup(outcome, gpu, n)
    if ranked and ranked[0].serving is not None and ranked[0].decode_tokens_per_s is not None:
        c = ranked[0]
        assert c.serving is not None and c.decode_tokens_per_s is not None
        return c.serving.per_user_tokens_per_s, c.decode_tokens_per_s
    conc = w.profile.concurrency or 1
    t = outcome.engine.calc.serving(gpu, n, conc, pp=layout.pp, dp=layout.dp)
    return t.per_user_tokens_per_s, t.output_tokens_per_s


def named_speed_check(
    w: ResolvedWorkload,
    catalog: CatalogView,
    gpu: GpuSpec,
    n: int,
    layout: Layout,
    outcome: Outcome,
    fits: str,
) -> ExpectationCheck:
    """The named serving set-up that fits, with its speed against the per-user speed in force and its rent;
    `fits` is the memory sentence ("40.4 GiB per GPU needed, 79.6 usable (tensor parallel 8)")."""
    p = w.profile
    per_user, aggregate = _speeds(w, gpu, n, layout, outcome)
    conc = p.concurrency or 1
    floor = ms_per_token_to_tokens_per_s(p.latency_ms_per_token) if p.latency_ms_per_token else None
    said = "asked" if p.status_of("latency_ms_per_token") in ("stated", "inferred") else "assumed"
    streams = "one stream" if conc == 1 else f"each of the {conc} streams"
    speed = f"{streams} decodes {present.tokens_per_s_range(per_user)}" + (
        f" ({present.tokens_per_s_range(aggregate)} in all)" if conc > 1 else ""
    )
    if floor is None or per_user.low >= floor:
        verdict, answer = "holds", "Yes"
        against = f", above the {present.count(floor)} tokens/s per user {said}" if floor is not None else ""
    elif per_user.high >= floor:
        verdict, answer = "tight", "Only at the fast end"
        against = f", the {present.count(floor)} tokens/s per user {said} only at the fast end"
    else:
        verdict, answer = "cannot_hold", "No, too slow"
        against = f", below the {present.count(floor)} tokens/s per user {said}"
    rent = _rental_text(outcome, catalog, gpu, n)
    # under a purchase question a "Yes" reads as "yes, buy" (tools.recommend.buy_verdict answers that)
    opener = "On" if p.buy_asked and verdict == "holds" else f"{answer}: on"
    text = f"{opener} {n}x {gpu.name} it fits: {fits}; {speed}{against}.{rent}"
    return ExpectationCheck(
        claim=f"serve it on {n}x {gpu.name}",
        verdict=verdict,
        factor=(floor / per_user.mid) if floor else None,
        explanation=text,
        asked=True,
    )
