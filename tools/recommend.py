"""The recommender: a workload profile and the catalogs in, a ranked GPU recommendation out.

    recommend(profile=..., catalog=...) -> Recommendation

Pipeline (seed 001: "whether it works" before "what it costs"):
1. Resolve unknown profile fields into named defaults (tools.defaults), each marked assumed.
2. Enumerate offers: every price record of every GPU type (provider x pricing x region), plus owned
   and colocated hardware when the user's own utilisation and horizon make buying plausible (seed
   000: >= 30% sustained utilisation over >= 12 months) or the user wants on-premises hardware.
   Reserved capacity only when a stated horizon covers its term at >= 50% utilisation. Among offers
   of the same kind (pricing, tier class, managed, cloud, EU, node sizes, fabric) only the cheapest
   is kept: the others give the same fit, time and risk at a higher price.
3. For each offer, GPU counts as offered (1, 2, 4, 8 per node) and whole-node clusters. A count is
   feasible when the per-GPU peak memory (tools.memory, sharded: ZeRO-3/FSDP for full training,
   data parallel for LoRA/QLoRA, tensor parallel for inference) is at most (1 - headroom) of usable
   memory, and tools.topology accepts the interconnect (no cross-node tensor parallelism over
   Ethernet). Per offer we keep the smallest feasible count, the largest single node, and the
   smallest count that meets the deadline (without one: finishes within a month, so a long job is
   also offered on a cluster). Excluded and preferred providers match by family ('runpod' covers
   runpod-community and runpod-secure). Serving with a throughput target adds replicas.
4. Constraints: eu_only keeps EU-region records only; excluded providers are dropped; a consumer
   or on-premises wish keeps consumer GPUs or owned hardware only; budget and deadline reject what
   surely misses them (low end beyond the limit). If nothing meets them, the answer says so plainly
   and shows the closest configurations.
5. Cost: wall-clock and GPU-hour ranges from the MFU range (tools.compute); cost range = GPU-hours x
   price (+ the managed premium for managed services); four TCO rows (tools.cost) per data scenario:
   dataset cached after the first pull vs pulled on every run (egress is zero same-cloud).

Ranking (lower is better; `cost` = the TCO total of the expected data scenario, mid of its range;
`hours` = wall-clock mid; `risk` = operational-risk points, below):
- objective "cheapest": cost, then hours, among options that meet the deadline.
- objective "fastest": hours, then cost, among options within budget.
- objective "balanced" (default): score = ln(cost + setup) + 0.3 x ln(max(hours, 1)) + risk. A 2x speed-up
  is worth paying 2**0.3 = 23% more; under an hour, speed counts for nothing (setup takes that long);
  one risk point weighs like e = 2.7x the cost. `setup` (training only) = GPUs x 0.5 h x price: the
  set-up every run bills on all its GPUs, so a short job is not spread over 8 GPUs for a few minutes.
Operational risk points: spot/preemptible +0.30, +0.15 per doubling of wall-clock beyond a day;
any run +0.05 per doubling beyond a week; community/marketplace tier +0.20; multi-node
+0.10 + 0.10 x log2(nodes); owned or colocated hardware +0.30 (+0.05 with dedicated ops staff);
managed service -0.05; reserved capacity +0.10 (a commitment); meeting the budget or deadline
only at the favourable end of the range +0.30 (cheapest/fastest: ranked after sure ones).
Preferred providers: when one of them has a feasible option, the primary is chosen among them.

The primary is the best by the objective; alternatives differ in a way a buyer cares about:
cheapest (>= 5% cheaper, finishing within a month), fastest (>= 5% faster), lowest operational
risk (also finishing within a month, or the primary's time if longer), owned hardware, and the
lowest-cost option of each shortlisted provider
(RecommendSettings.compare_providers); at least two when the catalog allows.
Sensitivity (tools.sensitivity), expectation checks (tools.expectations) and infeasible advice
(tools.infeasible) re-use this engine with shared calculator caches. Every number comes from a calculator
in tools/ and its trace is kept; the recommender itself only compares, filters and sums rows.
"""

from __future__ import annotations

import math

from tools.candidates import Caches, layouts_for, memory_fit, provider_matches, topology_summary
from tools.catalog.schema import GpuSpec, PriceRecord
from tools.defaults import CatalogView, ResolvedWorkload, resolve_workload
from tools.errors import InputError
from tools.profile import WorkloadProfile
from tools.recommend_engine import (
    COMMUNITY_TIERS,
    MEANINGFUL_DIFFERENCE,
    OWNED_UTILIZATION_MIN,
    PRACTICAL_WALL_HOURS,
    Candidate,
    Engine,
    GpuNotes,
    Outcome,
    tco_key,
)
from tools.recommend_models import (
    Label,
    Option,
    Recommendation,
    RecommendSettings,
    Rejection,
    RejectionKind,
)
from tools.trace import TraceBuilder

__all__ = ["Candidate", "Engine", "Outcome", "evaluate_configuration", "recommend", "rerank", "run_engine"]


# --------------------------------------------------------------------------------------------
def run_engine(
    w: ResolvedWorkload,
    catalog: CatalogView,
    settings: RecommendSettings,
    caches: Caches | None = None,
    *,
    reprice: Outcome | None = None,
    primary_only: bool = False,
) -> Outcome:
    """Enumerate, check, cost and rank; no sensitivity or expectation checks (see recommend).
    `caches` shares calculator results with other runs (sensitivity, later requests); among them the
    enumerated candidates before pricing (Engine.enumeration_key): a run whose workload differs from an
    earlier one only in cost inputs (data location and caching, runs per month, dataset size on disk,
    budget) prices that run's candidates again, with its enumeration's trace, instead of enumerating the
    catalog (the same candidates, fits and times). `reprice`: such a run, named explicitly. `primary_only`: no
    alternatives or rejections (a sensitivity re-run reads the primary only)."""
    eng = Engine(w, catalog, settings, caches)
    p = eng.p
    by_gpu: dict[str, list[PriceRecord]] = {}
    for rec in catalog.prices:
        by_gpu.setdefault(rec.gpu, []).append(rec)
    notes_by_gpu: dict[str, GpuNotes] = {}
    feasible: list[Candidate] = []
    considered = 0
    # a primary-only run differing from an earlier one only in the budget: its costed candidates
    costed = eng.stored_costing() if primary_only else None
    stored = reprice.engine.enumeration if reprice is not None else eng.stored_enumeration()
    if costed is not None:
        eng.owned_idle_note = costed.owned_idle_note
        stored = costed.enumeration
    elif primary_only:
        eng.start_costing()
    for gpu in catalog.gpus:
        if costed is not None:
            cands, notes, n_offers = eng.limited(costed, gpu)
        elif stored is not None:
            cands, notes, n_offers = eng.repriced(stored, gpu)
        else:
            cands, notes, n_offers = eng.enumerate_gpu(gpu, by_gpu.get(gpu.id, []))
        notes_by_gpu[gpu.id] = notes
        considered += n_offers
        if p.target_tokens_per_s and eng.inference:
            slow = [
                c
                for c in cands
                if c.decode_tokens_per_s and c.decode_tokens_per_s.high < p.target_tokens_per_s
            ]
            if slow and len(slow) == len(cands):
                best = max(slow, key=lambda c: c.decode_tokens_per_s.high if c.decode_tokens_per_s else 0.0)
                rate = best.decode_tokens_per_s.high if best.decode_tokens_per_s else 0.0
                notes.throughput = (
                    f"{best.layout.n_gpus} GPU(s) decode at most {rate:,.0f} tokens/s, "
                    f"target {p.target_tokens_per_s:,.0f}"
                )
            cands = [c for c in cands if c not in slow]
        feasible += cands

    if stored is None:
        eng.store_enumeration()
    if costed is None and primary_only:
        eng.store_costing()
    return select(eng, feasible, notes_by_gpu, considered, primary_only=primary_only)


def select(
    eng: Engine,
    feasible: list[Candidate],
    notes_by_gpu: dict[str, GpuNotes],
    considered: int,
    *,
    primary_only: bool = False,
) -> Outcome:
    """Limits, ranking, primary, alternatives and rejections over the feasible candidates
    (`primary_only`: the primary and ranking, without alternatives and rejections)."""
    p, w, catalog, settings = eng.p, eng.w, eng.catalog, eng.s
    notes_out: list[str] = []
    if eng.inference and p.budget_usd:
        notes_out.append(
            f"Serving costs are per month; the ${p.budget_usd:,.0f} budget is compared with one month."
        )
    if not eng.inference and p.data_location == "other" and p.dataset_gb:
        notes_out.append("Data location 'other': no egress schedule known, so egress is counted as $0.")
    if eng.owned_idle_note:
        some = any(c.offer.deployment in ("owned", "colocation") for c in feasible)
        notes_out.append(
            f"{'Some owned configurations' if some else 'Owned hardware'} left out, e.g. "
            f"{eng.owned_idle_note} (buying is plausible above {OWNED_UTILIZATION_MIN:.0%} sustained use, "
            "seed 000)."
        )
    pool = [c for c in feasible if not c.misses]
    limit_rejections: dict[str, Rejection] = {}
    in_pool = {x.gpu.id for x in pool}
    for c in feasible:  # the first miss of each GPU type that has no candidate within the limits
        if c.misses and c.gpu.id not in in_pool and c.gpu.id not in limit_rejections:
            limit_rejections[c.gpu.id] = _limit_rejection(c, p)
    if feasible and not pool:
        pool = sorted(feasible, key=lambda c: _closeness(c, p))
        which = " and ".join(
            x for x, v in (("budget", p.budget_usd), ("deadline", p.deadline_hours)) if v is not None
        )
        best = pool[0]
        notes_out.append(
            f"Nothing in the catalog meets the {which}: the closest is {best.layout.n_gpus}x "
            f"{best.gpu.name} at {best.offer.provider} ({_limit_text(best, p)}). "
            "Shown below as the closest options, not a fit."
        )
        limit_rejections = {}
        ranked = pool
    else:
        ranked = eng.rank(pool)

    primary: Candidate | None = None
    if ranked:
        preferred = p.providers_preferred
        pref = [c for c in ranked if provider_matches(c.offer.provider, preferred)]
        named = _named_gpu_first(pref or ranked, p, catalog)
        primary = named[0] if named else pref[0] if pref else ranked[0]
        if preferred and not pref:
            notes_out.append(
                "None of your preferred providers has a feasible offer; showing the best of the rest."
            )
    if primary_only:
        alternatives: list[tuple[Candidate, Label]] = []
    else:
        alternatives = _alternatives(primary, ranked, eng, settings.max_alternatives) if primary else []

    rejected: list[Rejection] = []
    kept = {c.gpu.id for c in ranked}
    for gpu in catalog.gpus:
        if primary_only or gpu.id in kept:
            continue
        r = limit_rejections.get(gpu.id) or _gpu_rejection(gpu, notes_by_gpu[gpu.id])
        if r is not None:
            rejected.append(r)

    smallest: float | None = None
    if not feasible:
        smallest = float(eng.mem.get(layouts_for(w, 1, 1)[0]).peak_gib_per_gpu)
    return Outcome(
        workload=w,
        ranked=ranked,
        primary=primary,
        alternatives=alternatives,
        rejected=rejected,
        notes=notes_out,
        all_feasible=feasible,
        engine=eng,
        smallest_peak_gib=smallest,
        considered=considered,
        notes_by_gpu=notes_by_gpu,
    )


def _named_gpu_first(ranked: list[Candidate], p: WorkloadProfile, catalog: CatalogView) -> list[Candidate]:
    """The options on the GPU the user asked about ('can a 4090 handle ...?', 'we have 2 A100s') at the
    count nearest the one named (that count; else the most below it, which suffice; else the fewest
    above it), best first. When no configuration of it is feasible and it is a consumer card, the
    consumer-card options at that count instead: someone asking about a 4090 is not shopping for an
    8x B200 server. Empty when no GPU was named or the GPU comes with a speed claim."""
    if not p.claimed_gpu or p.claimed_hours is not None:
        return []  # a speed claim ('10B tokens in 15 h on one L40S') is checked, not taken as a wish
    named = next((g for g in catalog.gpus if g.id == p.claimed_gpu), None)
    pool = [c for c in ranked if c.gpu.id == p.claimed_gpu]
    if not pool and named is not None and named.consumer:
        pool = [c for c in ranked if c.gpu.consumer]
    if not pool:
        return []
    want = p.claimed_gpu_count or 1
    # the named count; else the most GPUs under it that suffice; else the fewest above it
    count = min((_total_gpus(c) for c in pool), key=lambda n: (n != want, n > want, -n if n < want else n))
    return [c for c in pool if _total_gpus(c) == count]


def _total_gpus(c: Candidate) -> int:
    return c.layout.n_gpus * c.replicas


def rerank(
    base: Outcome, *, range_point: str | None = None, on_demand_only: bool = False, primary_only: bool = False
) -> Outcome:
    """The base run's candidates ranked at another point of their ranges, or restricted to
    established on-demand offers, without recomputing anything (sensitivity to MFU and price tier)."""
    # selection appends to `why` only when it picks alternatives: a primary-only one shares the lists
    cands = [
        c.copy(point=range_point or c.point)
        if primary_only
        else c.copy(point=range_point or c.point, risks=list(c.risks), why=list(c.why))
        for c in base.all_feasible
        if not on_demand_only
        or c.offer.pricing == "owned"
        or (c.offer.pricing == "on_demand" and c.offer.tier.lower() not in COMMUNITY_TIERS)
    ]
    return select(base.engine, cands, base.notes_by_gpu, base.considered, primary_only=primary_only)


def _closeness(c: Candidate, p: WorkloadProfile) -> float:
    ratios = [1.0]
    if p.budget_usd:
        ratios.append(c.total_usd.low / p.budget_usd)
    if p.deadline_hours and c.deadline_status is not None:
        ratios.append(c.wall_hours.low / p.deadline_hours)
    return max(ratios)


def _limit_text(c: Candidate, p: WorkloadProfile) -> str:
    parts = []
    if p.budget_usd and c.budget_status == "misses":
        parts.append(
            f"${c.total_usd.low:,.0f}-{c.total_usd.high:,.0f}, {c.total_usd.low / p.budget_usd:.1f}x the "
            f"${p.budget_usd:,.0f} budget"
        )
    if p.deadline_hours and c.deadline_status == "misses":
        parts.append(
            f"{c.wall_hours.low:,.0f}-{c.wall_hours.high:,.0f} h, {c.wall_hours.low / p.deadline_hours:.1f}x "
            f"the {p.deadline_hours:g} h deadline"
        )
    return "; ".join(parts) or "within limits"


def _limit_rejection(c: Candidate, p: WorkloadProfile) -> Rejection:
    kind: RejectionKind = "budget" if c.budget_status == "misses" else "deadline"
    return Rejection(
        gpu=c.gpu.id,
        gpu_name=c.gpu.name,
        kind=kind,
        reason=f"{c.gpu.name}: fits ({c.layout.n_gpus} GPU(s)) but misses the {kind}: {_limit_text(c, p)}",
    )


def _gpu_rejection(gpu: GpuSpec, n: GpuNotes) -> Rejection | None:
    if n.constraint:
        return Rejection(
            gpu=gpu.id, gpu_name=gpu.name, kind="constraint", reason=f"{gpu.name}: {n.constraint}"
        )
    if n.memory:
        return Rejection(gpu=gpu.id, gpu_name=gpu.name, kind="memory", reason=f"{gpu.name}: {n.memory}")
    if n.interconnect:
        return Rejection(
            gpu=gpu.id, gpu_name=gpu.name, kind="interconnect", reason=f"{gpu.name}: {n.interconnect}"
        )
    if n.throughput:
        return Rejection(
            gpu=gpu.id, gpu_name=gpu.name, kind="throughput", reason=f"{gpu.name}: {n.throughput}"
        )
    if n.no_price:
        return Rejection(
            gpu=gpu.id, gpu_name=gpu.name, kind="no_price", reason=f"{gpu.name}: no price in the catalog"
        )
    return None


def _alternatives(
    primary: Candidate, ranked: list[Candidate], eng: Engine, limit: int
) -> list[tuple[Candidate, Label]]:
    """Alternatives that differ in a way a buyer cares about, then the next best of other GPUs/providers."""
    chosen: list[tuple[Candidate, Label]] = []
    seen = {primary.key}

    def add(c: Candidate | None, label: Label) -> None:
        if c is None or c.key in seen or len(chosen) >= limit:
            return
        seen.add(c.key)
        chosen.append((c, label))

    def speed(c: Candidate) -> float:
        if eng.inference:
            return -(c.decode_tokens_per_s.mid if c.decode_tokens_per_s else 0.0)
        return c.hours_mid

    practical = max(PRACTICAL_WALL_HOURS, primary.wall_hours.high)
    in_time = [c for c in ranked if eng.inference or c.wall_hours.high <= practical] or ranked
    cheapest = min(in_time, key=lambda c: (c.cost_mid, speed(c)))
    if cheapest.cost_mid < (1 - MEANINGFUL_DIFFERENCE) * primary.cost_mid:
        add(cheapest, "cheapest")
    fastest = min(ranked, key=lambda c: (speed(c), c.cost_mid))
    if speed(fastest) < speed(primary) - MEANINGFUL_DIFFERENCE * abs(speed(primary)):
        add(fastest, "fastest")
    # like 'cheapest': a months-long single-node run is not the low-risk plan when the primary takes weeks
    add(min(in_time, key=lambda c: (c.risk, c.layout.nodes, c.cost_mid)), "lowest operational risk")
    owned = [c for c in ranked if c.offer.deployment in ("owned", "colocation")]
    add(owned[0] if owned else None, "owned hardware")
    limit += len(eng.s.compare_providers)
    for name in eng.s.compare_providers:
        mine = [c for c in ranked if provider_matches(c.offer.provider, [name])]
        if mine and not provider_matches(primary.offer.provider, [name]):
            pick = min(mine, key=lambda c: (c.cost_mid, speed(c)))
            pick.why.append(f"on your shortlist ({name}): its lowest-cost configuration")
            add(pick, "alternative")
    if len(chosen) < 2:
        distinct = {(primary.gpu.id, primary.offer.provider)} | {
            (c.gpu.id, c.offer.provider) for c, _ in chosen
        }
        for c in in_time:  # fillers too must be plans a buyer would take (within a month or the primary)
            if len(chosen) >= min(2, limit):
                break
            if (c.gpu.id, c.offer.provider) not in distinct:
                distinct.add((c.gpu.id, c.offer.provider))
                add(c, "alternative")
    return chosen


# --------------------------------------------------------------------------------------------
def to_option(c: Candidate, eng: Engine, label: Label, p: WorkloadProfile) -> Option:
    """A Candidate as the public Option (all TCO scenarios filled)."""
    scen = eng.scenarios(c.offer, c.gpu_hours, all_of_them=True)
    why = _why(c, label, p) + list(c.why)
    if c.offer.deployment in ("owned", "colocation"):
        why += _break_even(c, eng, p)
        if c.owned_check is not None:
            eng.tb.extend(c.owned_check, prefix=f"owned use {c.key}: ")
    risks = list(c.risks)
    if c.offer.usd_per_gpu_hour_high is not None:
        risks.append(_spread_text(c))
    if c.offer.pricing == "spot" and not eng.inference:
        risks += _spot_exposure(c, eng)
    return Option(
        gpu=c.gpu.id,
        gpus_per_node=c.layout.gpus_per_node,
        nodes=c.layout.nodes * c.replicas,
        total_gpus=c.layout.n_gpus * c.replicas,
        replicas=c.replicas,
        vram_gib_per_gpu=c.gpu.usable_memory_gib,
        peak_gib_per_gpu=c.fit.peak_gib_per_gpu,
        provider=c.offer.provider,
        pricing=c.offer.pricing,
        usd_per_gpu_hour=c.offer.usd_per_gpu_hour,
        wall_hours=c.wall_hours,
        cost_usd=c.cost_usd,
        gpu_name=c.gpu.name,
        deployment=c.offer.deployment,
        tier=c.offer.tier,
        region=c.offer.region,
        eu=c.offer.eu,
        label=label,
        why=tuple(why),
        cost_basis="per_month" if p.workload == "inference" else "per_job",
        gpu_hours=c.gpu_hours,
        tco=scen,
        memory=c.fit,
        topology=c.topo,
        risks=tuple(risks),
        decode_tokens_per_s=c.decode_tokens_per_s,
        meets_deadline=None if c.deadline_status is None else c.deadline_status != "misses",
        meets_budget=None if c.budget_status is None else c.budget_status != "misses",
        price_as_of=c.offer.as_of,
        price_source=c.offer.source,
        score=c.score,
        usd_per_gpu_hour_high=c.offer.usd_per_gpu_hour_high,
    )


def _spread_text(c: Candidate) -> str:
    """The price spread in words: the quote is a floor, the cost range's high end uses the top."""
    o = c.offer
    high = o.usd_per_gpu_hour_high or o.usd_per_gpu_hour
    what = {"price_spread_spot_fraction": "spot", "price_spread_marketplace_fraction": "marketplace"}.get(
        o.price_spread_name, o.tier
    )
    return (
        f"${o.usd_per_gpu_hour:.2f}/GPU-hour is a {what} quote that floats: the cost range allows up to "
        f"${high:.2f} (+{high / o.usd_per_gpu_hour - 1:.0%}, {o.price_spread_name})"
    )


SPOT_CHECKPOINT_INTERVAL_HOURS = 1.0
"""Checkpoint interval assumed when pricing spot interruptions (an hourly checkpoint is the usual
trainer setting for multi-hour runs; tools.cost.spot_exposure also reports the Young/Daly optimum)."""


def _spot_exposure(c: Candidate, eng: Engine) -> list[str]:
    """Expected interruptions and rework of a spot training run (tools.cost.spot_exposure), in words."""
    from tools.cost import spot_exposure

    try:
        ex = spot_exposure(
            wall_hours=c.wall_hours.high,
            n_gpus=c.layout.n_gpus,
            gpus_per_node=c.layout.gpus_per_node,
            spot_usd_per_gpu_hour=c.offer.usd_per_gpu_hour,
            checkpoint_interval_hours=SPOT_CHECKPOINT_INTERVAL_HOURS,
        )
    except InputError:
        return []
    eng.tb.assume(
        "spot_checkpoint_interval_hours",
        SPOT_CHECKPOINT_INTERVAL_HOURS,
        "h",
        "hourly checkpoints (usual trainer setting) when pricing spot interruptions",
    )
    eng.tb.extend(ex, prefix=f"spot exposure {c.key}: ")
    p = ex.probability_interrupted
    return [
        f"spot over {c.wall_hours.high:,.0f} h: {p.low:.0%}-{p.high:.0%} chance of an interruption, "
        f"expected rework +{ex.lost_hours.low:,.1f}-{ex.lost_hours.high:,.1f} h "
        f"(${ex.lost_usd.low:,.0f}-{ex.lost_usd.high:,.0f}) with hourly checkpoints"
    ]


def _break_even(c: Candidate, eng: Engine, p: WorkloadProfile) -> list[str]:
    """Buy vs rent for an owned option (tools.cost.buy_vs_rent) against the cheapest on-demand rental of
    the same GPU in the catalog, at the profile's utilisation and horizon; [] when the GPU has no rental
    price, purchase price or TDP to compare with."""
    from tools.cost import buy_vs_rent

    rents = [r.usd_per_gpu_hour for r in eng.catalog.prices_for(c.gpu.id) if r.pricing == "on_demand"]
    if not rents or c.gpu.purchase_price_usd is None or c.gpu.tdp_w is None:
        return []
    rent = min(rents)
    util = p.utilization if p.utilization is not None else 0.5
    if c.owned_check is not None:  # what these runs fill, when lower than the stated figure
        util = float(c.owned_check.effective_utilization)
    horizon = p.horizon_months or 36.0
    est = eng.catalog.estimate
    try:
        be = buy_vs_rent(
            rent_usd_per_gpu_hour=rent,
            utilization=util,
            horizon_months=horizon,
            purchase_price_usd=c.gpu.purchase_price_usd,
            tdp_w=c.gpu.tdp_w,
            amortization_months=est("hardware_amortization_months"),
            server_overhead_fraction=est("server_overhead_fraction"),
            pue=est("pue"),
            power_usd_per_kwh=est("power_usd_per_kwh"),
            ops_usd_per_gpu_month=est("ops_usd_per_gpu_month"),
            colo_usd_per_kw_month=est("colo_usd_per_kw_month")
            if c.offer.deployment == "colocation"
            else None,
            n_gpus=c.layout.n_gpus,
        )
    except (InputError, KeyError, LookupError):
        return []
    eng.tb.extend(be, prefix=f"buy vs rent {c.gpu.id}: ")
    text = (
        f"buy vs rent ({c.layout.n_gpus} GPUs, {util:.0%} use, {horizon:g} months, vs ${rent:.2f}/GPU-hour "
        f"on demand): owning ${be.own_total_usd:,.0f} vs renting ${be.rent_total_usd:,.0f}"
    )
    if be.break_even_utilization is not None:
        text += f"; buying wins above {be.break_even_utilization:.0%} utilisation"
    return [text]


def _risk_traits(c: Candidate) -> list[str]:
    """What makes an option low-risk, in words true of that option (it said 'on-demand' of owned kit)."""
    o = c.offer
    traits = []
    if o.deployment in ("owned", "colocation"):
        traits.append("hardware you control (no provider capacity to wait for)")
    elif o.pricing == "on_demand":
        traits.append("on-demand (no preemption, no commitment)")
    elif o.pricing == "reserved":
        traits.append("reserved capacity (no preemption)")
    elif o.pricing == "spot":
        traits.append("spot (short enough to restart cheaply)")
    if o.managed:
        traits.append("managed service")
    if o.deployment not in ("owned", "colocation") and o.tier.lower() not in COMMUNITY_TIERS:
        traits.append("established tier")
    traits.append("single node" if c.layout.nodes == 1 else f"{c.layout.nodes} nodes")
    return traits


def _why(c: Candidate, label: Label, p: WorkloadProfile) -> list[str]:
    out = [
        f"fits: {c.fit.peak_gib_per_gpu:.1f} GiB peak per GPU of {c.fit.usable_gib_per_gpu:.1f} usable "
        f"({c.fit.headroom_gib:.1f} GiB free)"
    ]
    if c.layout.nodes == 1:
        out.append("single node: no InfiniBand or multi-node NCCL set-up")
    if label == "cheapest":
        out.append(f"lowest expected total (${c.total_usd.low:,.0f}-{c.total_usd.high:,.0f})")
    elif label == "fastest":
        out.append(f"shortest wall-clock ({c.wall_hours.low:,.0f}-{c.wall_hours.high:,.0f} h)")
    elif label == "lowest operational risk":
        out.append("fewest moving parts: " + ", ".join(_risk_traits(c)))
    elif label == "owned hardware":
        chk = c.owned_check
        if chk is not None and chk.effective_utilization < chk.stated_utilization:
            out.append(
                f"amortised ${c.offer.usd_per_gpu_hour:.2f}/GPU-hour at {chk.effective_utilization:.0%} use "
                f"(what these runs fill; you said {chk.stated_utilization:.0%}) over your horizon"
            )
        else:
            out.append(f"amortised ${c.offer.usd_per_gpu_hour:.2f}/GPU-hour at your utilisation and horizon")
    elif label == "primary" and p.claimed_gpu == c.gpu.id and p.claimed_hours is None:
        named, total = p.claimed_gpu_count or 1, _total_gpus(c)
        out.append(
            "the GPU and count you named"
            if total == named
            else f"the GPU you named: {total} of them, the nearest feasible option to the {named} you named"
        )
    elif label == "primary" and p.claimed_gpu and p.claimed_hours is None and c.gpu.consumer:
        out.append(f"a consumer card like the {p.claimed_gpu} you named, which has no feasible option here")
    elif label == "primary":
        out.append(f"best {p.objective or 'balanced'} choice among feasible options")
    if c.deadline_status == "meets":
        out.append(f"meets the {p.deadline_hours:g} h deadline even at low MFU")
    if c.budget_status == "meets":
        out.append(f"within the ${p.budget_usd:,.0f} budget even at low MFU")
    elif c.budget_status == "maybe":
        out.append(f"within the ${p.budget_usd:,.0f} budget only at the favourable end of its cost range")
    return out


# --------------------------------------------------------------------------------------------
def recommend(
    *,
    profile: WorkloadProfile,
    catalog: CatalogView,
    settings: RecommendSettings | None = None,
    caches: Caches | None = None,
) -> Recommendation:
    """Recommend GPU configurations for a workload (see the module docstring for the method).

    Returns a Recommendation whose `primary` is None when nothing in the catalog can run the
    workload; then `rejected` says why per GPU type and `infeasible_advice` what would make it fit.
    Raises InputError for a profile the engine cannot size (no model, unknown model id).
    `caches`: calculator results to reuse and fill (tools.candidates.Caches), kept by the caller across
    requests on this same catalog; the result is the same with or without.
    """
    from tools.expectations import check_expectations
    from tools.infeasible import infeasible_advice
    from tools.sensitivity import run_sensitivity

    settings = settings or RecommendSettings()
    w = resolve_workload(profile=profile, catalog=catalog)
    out = run_engine(w, catalog, settings, caches)
    eng = out.engine
    p = w.profile
    primary = to_option(out.primary, eng, "primary", p) if out.primary else None
    alternatives = tuple(to_option(c, eng, label, p) for c, label in out.alternatives)
    sensitivity = (
        run_sensitivity(workload=w, catalog=catalog, settings=settings, base=out)
        if settings.sensitivity and out.primary
        else ()
    )
    checks = check_expectations(workload=w, catalog=catalog, settings=settings, outcome=out)
    advice = (
        infeasible_advice(workload=w, catalog=catalog, settings=settings, outcome=out)
        if out.primary is None
        else ()
    )
    tb = eng.tb
    if out.primary is not None:
        trace_primary(eng, out.primary, tb)
    workload_class, deployment_advice = _classify(eng, out.primary)
    as_of = catalog.as_of_dates()
    return Recommendation(
        profile=p,
        primary=primary,
        alternatives=alternatives,
        rejected=tuple(out.rejected),
        sensitivity=tuple(sensitivity),
        expectation_checks=tuple(checks),
        infeasible_advice=tuple(advice),
        notes=tuple(out.notes) + _context_notes(w),
        workload_class=workload_class,
        deployment_advice=deployment_advice,
        candidates_considered=out.considered,
        catalog_as_of=dict(as_of) if as_of else {},
        **tb.fields(),
    )


def _context_notes(w: ResolvedWorkload) -> tuple[str, ...]:
    """Say so when the sequence or context length is beyond what the model was trained for: the sizing
    holds for the length asked, but the model itself needs RoPE scaling or a long-context variant."""
    p, arch = w.profile, w.arch
    tokens = p.context_len if p.workload == "inference" else p.seq_len
    if not tokens or not arch.max_context or tokens <= arch.max_context:
        return ()
    what = "context" if p.workload == "inference" else "training sequence length"
    return (
        f"The {what} of {tokens:,} tokens is beyond {arch.name}'s {arch.max_context:,}-token maximum: "
        "sized as asked, but the model needs RoPE scaling or a long-context variant.",
    )


def _classify(eng: Engine, primary: Candidate | None) -> tuple[str | None, str | None]:
    """Seed 000's workload class and deployment model (tools.classify), recorded in the trace.
    The deployment model needs the user's own utilisation figure; without it, None."""
    from tools.classify import classify_workload, deployment_model

    p = eng.p
    hours = primary.wall_hours.mid if primary is not None and not eng.inference else None
    workload_class: str | None = None
    advice: str | None = None
    try:
        cls = classify_workload(
            dataset_tokens=eng.w.training_tokens or None,
            duration_hours=hours,
            method=eng.method,
            from_scratch=p.workload == "pretraining",
        )
        eng.tb.extend(cls, prefix="classify: ")
        if eng.inference:  # seed 000's classes are about training; serving has no training class
            workload_class = "inference (serving)"
        else:
            infra = cls.infrastructure_class.replace("_", "-")
            workload_class = f"{cls.workload} ({infra}-class infrastructure)"
    except InputError:
        pass
    if p.utilization is not None and p.status_of("utilization") != "assumed":
        known = p.status_of("horizon_months") != "assumed"
        dep = deployment_model(
            utilization=p.utilization,
            horizon_months=p.horizon_months if known else None,
            ops_capacity=p.ops_capacity if p.status_of("ops_capacity") != "assumed" else None,
            job_hours=hours,
        )
        eng.tb.extend(dep, prefix="deployment: ")
        lean = f", leaning {dep.leaning}" if dep.leaning else ""
        advice = f"{dep.model}{lean}: " + "; ".join(dep.reasons)
    return workload_class, advice


def trace_primary(eng: Engine, c: Candidate, tb: TraceBuilder) -> None:
    """Append the primary's own calculations (memory, time or throughput, topology, TCO) to the
    recommendation's trace: the report's calculation appendix reads them."""
    tb.extend(eng.mem.traced(c.layout), prefix="memory: ")
    scale_out = c.offer.scale_out if c.layout.nodes > 1 else "none"
    if eng.inference:
        tb.extend(eng.inference_perf(c.gpu, c.layout.n_gpus, c.layout.pp), prefix="throughput: ")
    else:
        tb.extend(eng.training_time(c.gpu, c.layout, scale_out), prefix="time: ")
    tb.extend(eng.topology(c.gpu, c.layout, c.fit.peak_gib_per_gpu, scale_out), prefix="topology: ")
    stored = eng._storage_results.get(c.offer.cloud or c.offer.provider)
    if stored is not None:
        tb.extend(stored, prefix=f"storage ({c.offer.provider}): ")
    for scen in c.scenarios:
        premium = eng.premium if c.offer.managed else None
        t = eng.caches.tco.get(tco_key(c.gpu_hours, c.offer, scen.storage_usd, scen.egress_usd, premium))
        if t is not None:
            tb.extend(t, prefix=f"tco ({scen.scenario}): ")


def evaluate_configuration(
    *,
    profile: WorkloadProfile,
    catalog: CatalogView,
    gpu: str,
    provider: str,
    gpus: int = 1,
    pricing: str | None = None,
    settings: RecommendSettings | None = None,
) -> Option:
    """One named configuration ("1x H100 at provider X") through the engine's fit, time and TCO path.

    Returns the Option even when it does not fit (then `memory.fits` is False and `risks` says so),
    so a user's own proposal can be shown next to the recommendation. Raises InputError when the
    provider has no price for that GPU (and pricing model).
    """
    settings = settings or RecommendSettings()
    w = resolve_workload(profile=profile, catalog=catalog)
    eng = Engine(w, catalog, settings)
    spec = catalog.gpu(gpu)
    records = [
        r
        for r in catalog.prices_for(spec.id)
        if r.provider.lower() == provider.lower() and (pricing is None or r.pricing == pricing)
    ]
    if not records:
        raise InputError(
            f"no {pricing or 'any'} price for {spec.name} at '{provider}' in the catalog; "
            "add it with a price file (--prices)"
        )
    offer = eng.offer_from_record(records[0])
    per_node = max([g for g in offer.gpus_per_node if g <= gpus] or [min(offer.gpus_per_node)])
    nodes = max(1, math.ceil(gpus / per_node))
    got = eng.fit_layout(spec, per_node, nodes)
    if got is None:
        layout = layouts_for(w, per_node, nodes)[-1]
        fit = memory_fit(eng.mem.get(layout), spec, eng.headroom, layout.sharding)
    else:
        layout, _est, fit = got
    scale_out = offer.scale_out if nodes > 1 else "none"
    plan = eng.topology(spec, layout, fit.peak_gib_per_gpu, scale_out)
    c = eng.price(eng.build(spec, offer, layout, fit, topology_summary(plan, offer.scale_out)))
    if not fit.fits:
        c.risks.insert(
            0, f"does not fit: needs {fit.peak_gib_per_gpu:.1f} GiB per GPU, has {fit.usable_gib_per_gpu:.1f}"
        )
    if not plan.feasible:
        c.risks.insert(0, "; ".join(str(r) for r in plan.reasons))
    c.score = eng.score(c)
    return to_option(c, eng, "alternative", w.profile)
