"""The box a claim is about beside the set-up the user asks about instead (expert review 19, R06: "A vendor
tells us their 8x MI300X box can serve Llama 3.1 405B in BF16 at 2,000 tokens/s aggregate for 64 concurrent
users. Is that plausible? Would we be better off renting 8x H200?" checked the claim and recommended 8x B200;
the 8x H200 asked about was never sized).

The profile holds the claim's set-up (claimed_gpu x claimed_gpu_count) and, first among gpus_compared with
their gpu_counts_compared, the same set-up beside the one asked about (advisor/extract/
rules_claim_alternative.py). Both are sized on the same path, so the two read alike: memory per GPU at the
stated load (tools.memory through the engine's cache, tensor parallel within a node, as the claim's own
check), the aggregate and per-user output rate at the stated concurrency, capped at the streams memory
holds (tools.compute.serving through the engine's calculators), and the monthly rent at each on-demand
offer that builds the count (tools.recommend.price_named). This module only compares:

    faster          = the asked-about set-up's rate mid / the claimed set-up's rate mid
    about the same  = within SAME_SPEED_FRACTION of each other

A claimed box the catalog does not price (a vendor's own offer) is compared on speed and fit; its price is
the vendor's quote, which the asked-about rent is set against. Serving only: a training claim with an
alternative goes through tools/recommend/compare_setups.py (time and cost per job)."""

from __future__ import annotations

from dataclasses import dataclass

from tools import present
from tools.catalog.schema import GpuSpec
from tools.defaults import CatalogView, ResolvedWorkload
from tools.errors import InputError
from tools.ranges import Range
from tools.recommend.buyer_rules import provider_class
from tools.recommend.candidates import Candidate, layouts_for, memory_fit
from tools.recommend.claim_streams import streams_held
from tools.recommend.models import ExpectationCheck, RecommendSettings
from tools.recommend.outcome import Outcome
from tools.recommend.price_named import price_named

SAME_SPEED_FRACTION = 0.05
"""Two rates whose mids are within 5% are 'about as fast' (the margin compare_setups uses for costs)."""
ESTABLISHED_CLASSES = ("gpu-cloud", "hyperscaler")
"""Provider classes whose price leads (as tools.recommend.compare_setups): the community price beside it."""
MOST_STREAMS_COUNTED = 4096
"""The upper end of the search for the streams one replica holds."""
CLAIM_PREFIX = "instead of the claimed"
"""How the check's claim opens (advisor/extract/answered_requests.py counts 'better off ...?' answered)."""


@dataclass(frozen=True)
class _Setup:
    """One of the two set-ups as sized: fit, rate at the load (None when it does not fit) and price."""

    name: str
    fits: bool
    fit_text: str
    rate: Range | None
    per_user: Range | None
    streams: int
    lead: Candidate | None
    lowest: Candidate | None


def applies(w: ResolvedWorkload) -> bool:
    """Whether the profile holds a serving claim on named hardware and a set-up asked about beside it."""
    p = w.profile
    # a claim has its reporter (claim_source): "on one L4 vs one L40S" names a GPU, no one's claim, and gets
    # the two set-ups compared (tools/recommend/compare_setups.py), not a claim's check
    return (
        p.workload == "inference"
        and p.claim_source is not None
        and p.claimed_gpu is not None
        and p.claimed_gpu_count is not None
        and len(p.gpus_compared) == 2
        and len(p.gpu_counts_compared) == 2
        and p.gpus_compared[0] == p.claimed_gpu
        and p.gpu_counts_compared[0] == p.claimed_gpu_count
        and p.gpus_compared[1] != p.claimed_gpu
    )


def check_claim_alternative(
    w: ResolvedWorkload, catalog: CatalogView, settings: RecommendSettings, outcome: Outcome
) -> ExpectationCheck | None:
    """The claimed set-up and the one asked about, side by side (module docstring); None unless it applies."""
    if not applies(w):
        return None
    p = w.profile
    try:
        claimed_gpu, asked_gpu = (catalog.gpu(g) for g in p.gpus_compared)
    except InputError:
        return None
    n_claimed, n_asked = p.gpu_counts_compared
    claimed = _setup(w, outcome, catalog, claimed_gpu, n_claimed, settings)
    asked = _setup(w, outcome, catalog, asked_gpu, n_asked, settings)
    who = f"{p.claim_source}'s" if p.claim_source else "the claimed"
    conc = p.concurrency or 1
    users = f"the stated {conc:,} concurrent users" if p.status_of("concurrency") != "assumed" else (
        f"{conc:,} concurrent users (assumed)"
    )  # fmt: skip
    verdict, opening = _speed_verdict(asked, claimed)
    parts = [
        f"{opening}: at {users} {asked.name} decodes {_rate_text(asked, conc)} against "
        f"{_rate_text(claimed, conc)} for {who} {claimed.name}, by the same serving model"
        f"{_against_claim(p.target_tokens_per_s, asked, claimed)}."
    ]
    parts.append(f"Memory: {asked.name} {asked.fit_text}; {claimed.name} {claimed.fit_text}.")
    parts.append(_cost_text(asked, claimed, who))
    return ExpectationCheck(
        claim=f"{CLAIM_PREFIX} {claimed.name}: {asked.name}",
        verdict=verdict,
        factor=_ratio(asked, claimed),
        explanation=" ".join(parts),
        asked=True,
        leads=True,
    )


def _setup(
    w: ResolvedWorkload,
    outcome: Outcome,
    catalog: CatalogView,
    gpu: GpuSpec,
    n: int,
    settings: RecommendSettings,
) -> _Setup:
    """`n` x `gpu` sized at the stated load, on the path of the claim's own check (module docstring)."""
    name = f"{n}x {gpu.name}"
    per_node = min(n, gpu.max_gpus_per_node)
    nodes = max(1, -(-n // per_node))
    layout = layouts_for(w, per_node, nodes)[0]
    fit = memory_fit(outcome.engine.mem.get(layout), gpu, settings.headroom_fraction, layout.sharding)
    fit_text = f"{fit.peak_gib_per_gpu:.1f} GiB per GPU of {fit.usable_gib_per_gpu:.1f} usable"
    priced = price_named(outcome, catalog, gpu, n)
    established = [c for c in priced if provider_class(c) in ESTABLISHED_CLASSES]
    lead = min(established or priced, key=lambda c: c.cost_mid) if priced else None
    lowest = min(priced, key=lambda c: c.cost_usd.low) if priced else None
    conc = w.profile.concurrency or 1
    held = streams_held(outcome, gpu, n, layout, MOST_STREAMS_COUNTED)
    if not fit.fits or held is None:
        return _Setup(name, False, f"does not fit ({fit_text} needed)", None, None, 0, lead, lowest)
    streams = min(conc, held)
    t = outcome.engine.calc.serving(gpu, n, streams, pp=layout.pp, dp=layout.dp)
    return _Setup(name, True, f"fits ({fit_text})", t.output_tokens_per_s, t.per_user_tokens_per_s, streams,
                  lead, lowest)  # fmt: skip


def _ratio(a: _Setup, b: _Setup) -> float | None:
    """a's rate over b's (mids); None when either does not run it."""
    if a.rate is None or b.rate is None or b.rate.mid <= 0:
        return None
    return a.rate.mid / b.rate.mid


def _speed_verdict(asked: _Setup, claimed: _Setup) -> tuple[str, str]:
    """(verdict, opening words) on speed: the set-up asked about against the claimed one."""
    if asked.rate is None:
        return "cannot_hold", f"No: {asked.name} cannot serve it"
    if claimed.rate is None:
        return "holds", f"On speed, yes ({claimed.name} cannot serve it)"
    ratio = _ratio(asked, claimed)
    assert ratio is not None
    if abs(ratio - 1) <= SAME_SPEED_FRACTION:
        return "holds", "On speed, about the same"
    if ratio > 1:
        return "holds", f"On speed, yes (about {ratio - 1:.0%} faster)"
    return "cannot_hold", f"On speed, no (about {1 - ratio:.0%} slower)"


def _rate_text(s: _Setup, concurrency: int) -> str:
    """'956 - 1,460 tokens/s (14.9 - 22.9 tokens/s each)' or why it does not run it."""
    if s.rate is None or s.per_user is None:
        return "nothing (it does not fit)"
    at = f" at the {s.streams:,} streams its memory holds" if s.streams < concurrency else ""
    return f"{present.tokens_per_s_range(s.rate)}{at} ({present.tokens_per_s_range(s.per_user)} each)"


def _against_claim(target: float | None, asked: _Setup, claimed: _Setup) -> str:
    """'; neither reaches the 2,000 tokens/s claimed' and the like."""
    if not target:
        return ""
    reach = [s.name for s in (asked, claimed) if s.rate is not None and s.rate.high >= target]
    said = f"the {present.count(target)} tokens/s claimed"
    if not reach:
        return f"; neither reaches {said} (see the claim's check for the bandwidth ceiling)"
    if len(reach) == 2:
        return f"; both reach {said} at least at the fast end"
    return f"; only {reach[0]} reaches {said}, at least at the fast end"


def _price(c: Candidate, lowest: Candidate | None) -> str:
    """'$26,280/month at nebius (on demand), from $20,966 at runpod-community (community tier)'."""
    out = f"{present.usd_span(c.cost_usd, '/month')} at {c.offer.provider} (on demand)"
    if lowest is not None and lowest is not c and lowest.cost_usd.low < c.cost_usd.low:
        tier = f"{lowest.offer.tier} tier"
        out += f", from {present.usd(lowest.cost_usd.low)} at {lowest.offer.provider} ({tier})"
    return out


def _cost_text(asked: _Setup, claimed: _Setup, who: str) -> str:
    """Both rents when both are priced (which is cheaper), else the one priced against the vendor's quote."""
    if asked.lead is None and claimed.lead is None:
        return "Neither set-up has an on-demand price in the catalog at that count."
    if claimed.lead is None:
        assert asked.lead is not None
        return (
            f"Cost: {asked.name} rents for {_price(asked.lead, asked.lowest)}; {who} {claimed.name} has no "
            "price in the catalog: set its quote (per month, or its purchase price over the months you would "
            "use it) against that."
        )
    if asked.lead is None:
        return (
            f"Cost: {claimed.name} rents for {_price(claimed.lead, claimed.lowest)}; {asked.name} has no "
            "on-demand offer in the catalog at that count."
        )
    a, c = asked.lead.cost_mid, claimed.lead.cost_mid
    cheaper = asked.name if a < c else claimed.name
    return (
        f"Cost: {asked.name} {_price(asked.lead, asked.lowest)}; {claimed.name} "
        f"{_price(claimed.lead, claimed.lowest)}: {cheaper} is the cheaper to rent."
    )
