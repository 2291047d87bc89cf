"""Two GPU set-ups the user asks to choose between ("what's cheaper per month: 1x H100 or 2x L40S?",
"compare 1x H100 versus 2x L40S"; expert review 11, R13/P13/P13b: one of the two set-ups was dropped and
a third one recommended instead), answered side by side: each one's cost (per month for serving, per job
for a batch or training run), whether each fits and holds the load (or meets the deadline), and which is
cheaper. Each set-up is sized, timed and priced by the engine's own path (tools.recommend.expectations.
price_named: tools.memory, tools.compute, the catalog's on-demand prices); this module only compares."""

from __future__ import annotations

from dataclasses import dataclass

from tools import present
from tools.catalog.schema import GpuSpec
from tools.defaults import CatalogView, ResolvedWorkload
from tools.errors import InputError
from tools.recommend.buyer_rules import provider_class
from tools.recommend.candidates import Candidate, layouts_for, memory_fit
from tools.recommend.claim_streams import streams_held
from tools.recommend.models import ExpectationCheck, RecommendSettings
from tools.recommend.outcome import Outcome
from tools.recommend.price_named import price_named

SAME_COST_FRACTION = 0.05
"""Two costs within 5% are 'about the same' (the margin tools.recommend.rank.MEANINGFUL_DIFFERENCE asks of
a 'cheapest' alternative)."""
MOST_STREAMS_COUNTED = 4096
"""The upper end of the search for the streams one replica holds (room left beyond the stated load)."""
ESTABLISHED_CLASSES = ("gpu-cloud", "hyperscaler")
"""Provider classes (tools.recommend.buyer_rules.provider_class) whose price leads: a buyer compares two
set-ups at the same kind of provider; the community or marketplace price is given beside it."""


@dataclass(frozen=True)
class _Side:
    """One compared set-up: its name, the offer whose price leads, the lowest listed and what it says."""

    name: str
    lead: Candidate | None
    lowest: Candidate | None
    text: str
    holds: bool


def check_compared_setups(
    w: ResolvedWorkload, catalog: CatalogView, settings: RecommendSettings, outcome: Outcome
) -> ExpectationCheck | None:
    """The two set-ups of gpus_compared with their gpu_counts_compared side by side; None unless exactly
    two GPU types were compared, each with its count."""
    p = w.profile
    if len(p.gpus_compared) != 2 or len(p.gpu_counts_compared) != 2:
        return None
    try:
        gpus = [catalog.gpu(g) for g in p.gpus_compared]
    except InputError:
        return None
    sides = [_side(w, outcome, gpu, n, settings) for gpu, n in zip(gpus, p.gpu_counts_compared, strict=True)]
    a, b = sides
    claim = f"{a.name} or {b.name}"
    per = "per month" if _per_month(outcome) else "per job"
    if a.lead is None and b.lead is None:
        verdict_text = f"Neither set-up can run it as asked: {a.text} {b.text}"
        return ExpectationCheck(
            claim=claim, verdict="cannot_hold", explanation=verdict_text, asked=True, leads=True
        )
    return ExpectationCheck(
        claim=claim,
        verdict="holds" if a.holds or b.holds else "cannot_hold",
        explanation=f"{_verdict(a, b, per)} {a.text} {b.text}{_pick_text(outcome, a, b, per)}",
        asked=True,
        leads=True,
    )


def _per_month(outcome: Outcome) -> bool:
    """Serving an endpoint is priced per month; a batch job or a training run per job."""
    return outcome.engine.inference and not outcome.engine.state.batch_job


def _verdict(a: _Side, b: _Side, per: str) -> str:
    """Which of the two is cheaper at the prices that lead, and whether the cheaper one holds the load."""
    if a.lead is None or b.lead is None:
        ok, out = (a, b) if a.lead is not None else (b, a)
        return f"Of {a.name} and {b.name}, only {ok.name} runs it: {out.name} does not."
    cost_a, cost_b = a.lead.cost_mid, b.lead.cost_mid
    if abs(cost_a - cost_b) <= SAME_COST_FRACTION * max(cost_a, cost_b):
        return f"{a.name} and {b.name} cost about the same {per}."
    cheap, dear = (a, b) if cost_a < cost_b else (b, a)
    assert cheap.lead is not None and dear.lead is not None
    line = (
        f"{cheap.name} is the cheaper of the two {per}: {present.usd_range(cheap.lead.cost_usd)} against "
        f"{present.usd_range(dear.lead.cost_usd)} for {dear.name}"
    )
    if not cheap.holds and dear.holds:
        return f"{line}, but only {dear.name} holds the load."
    return f"{line}."


def _pick_text(outcome: Outcome, a: _Side, b: _Side, per: str) -> str:
    """When the recommendation is neither set-up and meaningfully cheaper than both, a sentence saying so
    (the pick below is then the answer to 'which is cheaper', not a set-up the user did not ask about)."""
    pick = outcome.primary
    leads = [s.lead for s in (a, b) if s.lead is not None and s.holds]
    if (
        pick is None
        or not leads
        or any(c.gpu.id == pick.gpu.id and c.total_gpus == pick.total_gpus for c in leads)
    ):
        return ""
    if pick.cost_mid >= (1 - SAME_COST_FRACTION) * min(c.cost_mid for c in leads):
        return ""
    what = "load" if per == "per month" else "job"
    return (
        f" Cheaper than both for this {what}: {pick.total_gpus}x {pick.gpu.name} "
        f"({present.usd_range(pick.cost_usd)} {per}), the recommended option."
    )


def _side(w: ResolvedWorkload, outcome: Outcome, gpu: GpuSpec, n: int, settings: RecommendSettings) -> _Side:
    name = f"{n}x {gpu.name}"
    priced = price_named(outcome, outcome.engine.catalog, gpu, n)
    if not priced:
        return _Side(name, None, None, _no_run(w, outcome, gpu, n, settings), False)
    established = [c for c in priced if provider_class(c) in ESTABLISHED_CLASSES]
    lead = min(established or priced, key=lambda c: c.cost_mid)
    lowest = min(priced, key=lambda c: c.cost_usd.low)
    price = f"{present.usd_range(lead.cost_usd)} at {lead.offer.provider} (on demand)"
    if lowest is not lead and lowest.cost_usd.low < lead.cost_usd.low:
        tier = f"{lowest.offer.tier} tier"
        price += f", from {present.usd(lowest.cost_usd.low)} at {lowest.offer.provider} ({tier})"
    fit = lead.fit
    fits = f"fits ({fit.peak_gib_per_gpu:.1f} GiB per GPU of {fit.usable_gib_per_gpu:.1f} usable)"
    load, holds = _load_text(outcome, lead, n)
    return _Side(name, lead, lowest, f"{name}: {price}; {fits}; {load}.", holds)


def _load_text(outcome: Outcome, c: Candidate, n: int) -> tuple[str, bool]:
    """Whether `n` GPUs carry the load alone: serving, the stated (or assumed) concurrency at the per-user
    speed of the serving model and the room left; a job, its time against the deadline."""
    plan = c.serving
    if plan is None or not outcome.engine.inference or outcome.engine.state.batch_job:
        hours = present.hours_range(c.wall_hours)
        if c.deadline_status == "misses":
            return f"takes {hours}, past the deadline", False
        if c.deadline_status == "maybe":
            return f"takes {hours}, within the deadline only at the fast end", True
        return f"takes {hours}", True
    if plan.why_not:
        return f"does not hold the load: {plan.why_not}", False
    if c.short_of_target:
        return (
            f"short of the throughput target ({present.tokens_per_s_range(plan.total_tokens_per_s)})",
            False,
        )
    users = plan.per_replica_concurrency * (plan.replicas - plan.spare_replicas)
    speed = f"{present.tokens_per_s_range(plan.per_user_tokens_per_s)} each"
    if c.total_gpus > n:
        return (
            f"does not hold the load alone: {c.replicas} of them ({c.total_gpus} GPUs) carry {users:,} "
            f"concurrent requests at {speed}, which the cost above counts",
            False,
        )
    # the named count as the ranking serves it: replicas of one node where one node holds the model (srv14)
    held = streams_held(outcome, c.gpu, c.layout.n_gpus, c.layout, MOST_STREAMS_COUNTED)
    held = None if held is None else held * (c.replicas - plan.spare_replicas)
    context = outcome.engine.p.context_len
    each = f" of {context:,} tokens" if context else ""
    room = f"; memory for about {held:,} such requests{each}" if held is not None and held > users else ""
    how = f" as {c.replicas} replicas of {c.layout.n_gpus} GPUs" if c.replicas > 1 else ""
    return f"holds the load{how}: {users:,} concurrent requests at {speed}{room}", True


def _no_run(w: ResolvedWorkload, outcome: Outcome, gpu: GpuSpec, n: int, settings: RecommendSettings) -> str:
    """Why `n` x `gpu` is not priced: it does not fit (the memory estimate) or no offer sells that count."""
    per_node = min(n, gpu.max_gpus_per_node)
    nodes = max(1, -(-n // per_node))
    layout = layouts_for(w, per_node, nodes)[0]
    fit = memory_fit(outcome.engine.mem.get(layout), gpu, settings.headroom_fraction, layout.sharding)
    if not fit.fits:
        return (
            f"{n}x {gpu.name}: does not fit: {fit.judged_gib:.1f} GiB per GPU needed, "
            f"{fit.usable_gib_per_gpu:.1f} usable ({fit.required_headroom_fraction:.0%} kept free)."
        )
    return f"{n}x {gpu.name}: fits, but no on-demand offer in the catalog sells that count."
