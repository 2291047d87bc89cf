"""Selecting from a run's feasible candidates: the limits, the order, the primary (a named GPU or a
preferred provider first), the alternatives a buyer cares about and the rejections per GPU type;
`rerank` orders a run's candidates again at another point of their ranges."""

from __future__ import annotations

from collections.abc import Callable

from tools import present
from tools.catalog.schema import GpuSpec
from tools.defaults import CatalogView
from tools.profile import RESERVED_SETUP_HOW, WorkloadProfile
from tools.recommend.budget_ceiling import cheaper_within_budget, say_budget_pick
from tools.recommend.buyer_rules import (
    DOMINATED_COST_MULTIPLE,
    also_offered,
    low_risk_allowed,
    low_risk_label_allowed,
    lower_risk,
    meaningfully_faster,
    not_for_production,
    practical_hours,
    production_primary,
    same_setup,
    shadowed,
    too_costly,
    undominated,
    users_cloud,
)
from tools.recommend.candidates import Candidate, GpuNotes, layouts_for, provider_matches
from tools.recommend.engine import Engine
from tools.recommend.enumerate import PRACTICAL_WALL_HOURS
from tools.recommend.models import Label, Rejection, RejectionKind
from tools.recommend.outcome import Outcome
from tools.recommend.owned import OWNED_UTILIZATION_MIN
from tools.recommend.owned_first import (
    RENT_OR_BUY_INSTEAD,
    is_yours,
    least_rental_text,
    not_fit_note,
    own_first,
)
from tools.recommend.regions import reaches_elsewhere, region_known
from tools.recommend.risk import COMMUNITY_TIERS
from tools.recommend.score import order

RESTART_RUNS = 2.0
"""A batch job on capacity that may go away must fit its deadline run twice (one full restart: batch
generation keeps no checkpoint of the requests in flight) before it is picked for being cheapest."""
RESUME_ALLOWANCE_FRACTION = 0.1
"""A job the user says resumes ("the job is restartable", "checkpoints every few minutes"; cannot_resume
False) loses only its in-flight work and the restart when a host goes: its run plus this share (an
assumption: a few interruptions of a few minutes' rework and relaunch each over a multi-day run; expert
review 20, R09) must fit the deadline, not two whole runs."""
MEANINGFUL_DIFFERENCE = 0.05
"""'cheapest' / 'fastest' alternatives must beat the primary by at least 5% on their own measure."""


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
    if p.budget_usd and p.budget_capex:
        notes_out.append(
            f"The {present.usd(p.budget_usd)} budget is a one-off purchase (capex): it is held against each "
            "option's purchase price, GPUs and servers, not against a month of running or renting."
        )
    elif eng.inference and p.budget_usd and not eng.state.batch_job:
        notes_out.append(
            f"Serving costs are per month; the {present.usd(p.budget_usd)} budget is compared with one month."
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
    missing = not_fit_note(p, catalog, notes_by_gpu, any(is_yours(c) for c in feasible))
    if missing:
        notes_out.append(missing)
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
            f"Nothing in the catalog meets the {which}: the closest is {best.total_gpus}x "
            f"{best.gpu.name} at {best.offer.provider} ({_limit_text(best, p)}). "
            "Shown below as the closest options, not a fit."
        )
        limit_rejections = {}
        ranked = pool
    else:
        ranked = order(pool, p, eng.inference)
        if p.deadline_soft:  # a preferred deadline: those that meet it first, the rest kept (review 20, R14)
            ranked = [c for c in ranked if c.deadline_status != "misses"] + [
                c for c in ranked if c.deadline_status == "misses"
            ]
    # US regions only: an offer whose region the catalog does not list (neither the record's region nor a
    # sourced provider region list) is no primary while a placed one is feasible (expert review 15, R13:
    # spheron spot was the primary under "US providers only"); since review 20 (R02) such offers are left out
    # before ranking (regions.allowed), so this keeps only owned or colocated hardware's standing in check
    pickable = ([c for c in ranked if _region_known(c, p)] or ranked) if p.us_only else ranked
    if p.region_asked is not None:  # "hosted in Japan": a provider with data centres outside the US and EU
        o = [c for c in pickable if reaches_elsewhere(c.offer.areas, c.offer.deployment, p)]
        pickable = o or pickable

    primary: Candidate | None = None
    passed_over: Candidate | None = None  # rule 2's pick it replaced: said once the alternatives are known
    if ranked:
        preferred = p.providers_preferred
        pref = [c for c in pickable if provider_matches(c.offer.provider, preferred)]
        named = _named_gpu_first(pref or pickable, p, catalog)
        primary = own_first(pickable, p.latency_ms_per_token if eng.inference else None)
        if primary is None:
            primary = named[0] if named else pref[0] if pref else pickable[0]
            within = named or pref or pickable  # the GPU and count named stay what was named
            picked, endpoint = primary, not eng.state.batch_job
            restartable = eng.inference and not endpoint and restart_fits(primary, p)
            if eng.inference and not restartable:
                consumer = bool(named) and named[0].gpu.consumer
                primary = production_primary(primary, pickable, p, consumer, endpoint)
                if primary is not picked:  # rule 1 must not hand rule 2's pick back to a consumer card
                    within = [c for c in within if not not_for_production(c, endpoint)] or [primary]
            primary = undominated(primary, within, eng.inference)
            ranked_pick = primary
            primary = cheaper_within_budget(primary, within, p, endpoint)  # a budget max is a ceiling
            if primary is not ranked_pick:
                say_budget_pick(primary, ranked_pick, p)
            elif eng.inference and primary is not picked and not_for_production(picked, endpoint):
                passed_over = picked
            elif restartable and primary is picked and not_for_production(primary, True):
                _say_restart(primary, p)
        if preferred and not pref:
            notes_out.append(
                "None of your preferred providers has a feasible offer; showing the best of the rest."
            )
    if primary_only:
        alternatives: list[tuple[Candidate, Label]] = []
    else:
        alternatives = _alternatives(primary, ranked, eng, settings.max_alternatives) if primary else []
    if primary is not None and passed_over is not None and not primary_only:  # primary-only: lists are shared
        shown = [c for c, _ in alternatives]
        _say_rule_two(primary, passed_over, p, not eng.state.batch_job, shown)
    if missing and primary is not None and missing in notes_out:  # name the rental the note points to
        per_month = eng.inference and not eng.state.batch_job
        shown = [c for c, _ in alternatives]
        rent = least_rental_text(primary, ranked, per_month, shown)
        notes_out[notes_out.index(missing)] = missing.replace(RENT_OR_BUY_INSTEAD, rent)

    rejected: list[Rejection] = []
    kept = {c.gpu.id for c in ranked}
    for gpu in catalog.gpus:
        if primary_only or gpu.id in kept:
            continue
        r = limit_rejections.get(gpu.id) or _gpu_rejection(gpu, notes_by_gpu[gpu.id])
        if r is not None:
            rejected.append(r)

    if primary is not None and not primary_only:
        shown = [primary, *(c for c, _ in alternatives)]
        notes_out += _compared_missing(p, shown, rejected, limit_rejections)
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
    said = p.provenance.get("claimed_gpu")
    if said is not None and RESERVED_SETUP_HOW in (said.evidence or ""):
        return []  # 'reserve 8x H100 for 3 years?': priced beside the pick (reserved_answer), not a wish
    named = next((g for g in catalog.gpus if g.id == p.claimed_gpu), None)
    pool = [c for c in ranked if c.gpu.id == p.claimed_gpu]
    if not pool and named is not None and named.consumer:
        pool = [c for c in ranked if c.gpu.consumer]
    if not pool:
        return []
    if p.claimed_gpu_bound is not None:
        # a claim about the count ("needs at least 4x A100", "one L40S won't cut it") is checked, not a wish
        # for that count (tools/recommend/claim_bounds.py): the named GPU at its best-ranked count
        return [c for c in pool if c.total_gpus == pool[0].total_gpus]
    want = p.claimed_gpu_count or 1
    # the named count; else the most GPUs under it that suffice; else the fewest above it
    count = min((c.total_gpus for c in pool), key=lambda n: (n != want, n > want, -n if n < want else n))
    return [c for c in pool if c.total_gpus == count]


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


def _region_known(c: Candidate, p: WorkloadProfile) -> bool:
    """Whether the catalog places the offer in the asked area: its region, or its provider's sourced region
    list (owned and colocated hardware: where the team put it)."""
    o = c.offer
    return region_known(o.region, o.eu, o.areas, o.deployment, p)


def _closeness(c: Candidate, p: WorkloadProfile) -> float:
    ratios = [1.0]
    if p.budget_usd and p.budget_capex and c.capex_usd is not None:
        # a capex budget is held against the purchase, not a month (expert review 14, R03: the "closest"
        # option over the budget was an $3.43M purchase while a $1.95M one was shown below it)
        ratios.append(c.capex_usd / p.budget_usd)
    elif p.budget_usd:
        ratios.append(c.total_usd.low / p.budget_usd)
    if p.deadline_hours and c.deadline_status is not None:
        ratios.append(c.wall_hours.low / p.deadline_hours)
    return max(ratios)


def _limit_text(c: Candidate, p: WorkloadProfile) -> str:
    parts = []
    if p.budget_usd and c.budget_status == "misses" and p.budget_capex and c.capex_usd is not None:
        parts.append(
            f"purchase {present.usd(c.capex_usd)}, {c.capex_usd / p.budget_usd:.1f}x the "
            f"{present.usd(p.budget_usd)} capex budget"
        )
    elif p.budget_usd and c.budget_status == "misses":
        parts.append(
            f"{present.usd_range(c.total_usd)}, {c.total_usd.low / p.budget_usd:.1f}x the "
            f"{present.usd(p.budget_usd)} budget"
        )
    if p.deadline_hours and c.deadline_status == "misses":
        parts.append(
            f"{present.hours_range(c.wall_hours)}, {c.wall_hours.low / p.deadline_hours:.1f}x "
            f"the {present.hours(p.deadline_hours)} deadline"
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


def _say_rule_two(
    primary: Candidate, passed_over: Candidate, p: WorkloadProfile, endpoint: bool, shown: list[Candidate]
) -> None:
    """Why the pick is not the cheapest option listed, in one plain sentence (expert review 11, R07:
    "cheapest option please" got an on-demand B200 while a marketplace spot H100 was listed cheaper, with
    no reason given; then a rule, not a reason, was given). The option passed over is called lower-cost only
    when it is, and "listed below" only when it is among the alternatives shown (expert review 18, R20: "the
    lower-cost 8x H100 ... (listed below)" was neither, at $18k against the pick's $4.6k a month): else it is
    the GPU the user named, or the better-ranked one."""
    o = passed_over.offer
    spot = o.pricing == "spot"
    kind = "a consumer card" if passed_over.gpu.consumer else f"{o.tier} {'spot ' if spot else ''}capacity"
    if endpoint and spot:
        reason = "spot capacity can be taken back at any moment: a pre-empted replica takes the endpoint down"
    elif endpoint and not passed_over.gpu.consumer:
        reason = f"a {o.tier} host comes with no uptime guarantee: if it fails, the endpoint is down"
    elif endpoint:
        reason = "consumer cards are not built or supported for round-the-clock serving"
    else:
        reason = _batch_reason(passed_over, p, spot)
    setup = f"{passed_over.total_gpus}x {passed_over.gpu.name}"
    if passed_over.cost_mid < primary.cost_mid:
        who = f"the lower-cost {setup}"
    elif passed_over.gpu.id == p.claimed_gpu:
        who = f"the {setup} you named"
    else:
        who = f"the better-ranked {setup}"
    listed = ", listed below" if any(c is passed_over for c in shown) else ""
    line = f"put first over {who} at {o.provider} ({kind}{listed}): {reason}"
    if line not in primary.why:
        primary.why.append(line)


def _batch_reason(passed_over: Candidate, p: WorkloadProfile, spot: bool) -> str:
    """Why a batch job's lower-cost option on spot / marketplace capacity was not put first (restart_fits):
    a job that resumes (cannot_resume False) loses only its in-flight work, so only the deadline or the
    objective can say no (expert review 20, R09/P09: "a lost spot host means starting again" contradicted
    "Spot is fine since the job is restartable")."""
    limit = f"the {present.hours(p.deadline_hours)} deadline" if p.deadline_hours else "a month"
    host = f"a lost {'spot ' if spot else ''}host"
    run = present.hours(passed_over.wall_hours.high)
    if p.cannot_resume is False:
        if _resumed_hours(passed_over) <= (p.deadline_hours or PRACTICAL_WALL_HOURS):
            return (
                f"{host} costs only its in-flight work since your job resumes, but it has no uptime "
                "commitment and you did not ask for the lowest cost (say 'cheapest' to put it first)"
            )
        return (
            f"{host} costs only its in-flight work, but a run of up to {run} and a restart do not fit in "
            f"{limit}"
        )
    # a batch job: the lost host costs a restart, which the deadline has no room for (restart_fits)
    return f"{host} means starting again, and two runs of up to {run} do not fit in {limit}"


def _resumed_hours(c: Candidate) -> float:
    """The slow end of a resumable job's run with its restart allowance (RESUME_ALLOWANCE_FRACTION)."""
    return c.wall_hours.high * (1 + RESUME_ALLOWANCE_FRACTION)


def restart_fits(c: Candidate, p: WorkloadProfile) -> bool:
    """A batch job asked for at the lowest cost may run on spot, community or marketplace capacity (buyer rule
    2 yields): a lost host costs a restart, not an outage, when the whole job run twice still meets the
    deadline at the slow end of its range (no deadline: within a month, PRACTICAL_WALL_HOURS); a job the
    user says resumes needs one run plus RESUME_ALLOWANCE_FRACTION."""
    if p.objective != "cheapest" or p.status_of("objective") not in ("stated", "inferred"):
        return False
    limit = p.deadline_hours or PRACTICAL_WALL_HOURS
    if p.cannot_resume is False:
        return _resumed_hours(c) <= limit
    return RESTART_RUNS * c.wall_hours.high <= limit


def _say_restart(primary: Candidate, p: WorkloadProfile) -> None:
    """The cheapest pick on capacity that may go away, said with what that costs (review 11, R07/P07)."""
    o = primary.offer
    what = "spot capacity, which can be taken back" if o.pricing == "spot" else f"{o.tier} capacity"
    limit = f"the {present.hours(p.deadline_hours)} deadline" if p.deadline_hours else "a month"
    if p.cannot_resume is False:  # the user says it resumes: a lost host costs its in-flight work only
        primary.why.append(
            f"the cheapest option, as you asked: {what}; your job resumes, so a lost host costs only its "
            f"in-flight work, and the run (up to {present.hours(primary.wall_hours.high)}) with a restart "
            f"still fits in {limit}"
        )
        return
    primary.why.append(
        f"the cheapest option, as you asked: {what}; if the job is lost, running it again "
        f"(up to {present.hours(primary.wall_hours.high)}) still fits in {limit}"
    )


def gpu_family(gpu_id: str) -> str:
    """The GPU's family in catalog ids: 'h100-pcie' and 'h100-sxm' -> 'h100', 'a100-80gb-sxm' -> 'a100'."""
    return gpu_id.split("-")[0]


def _compared(
    primary: Candidate, everything: list[Candidate], p: WorkloadProfile, add: Callable[..., None]
) -> None:
    """For each GPU the user set side by side ("H100 vs H200 vs L40S", expert review 7, R02), the
    best-ranked option of its family, unless the primary is one: each with its fit, speed and cost."""
    for gid in p.gpus_compared:
        if gpu_family(gid) == gpu_family(primary.gpu.id):
            continue
        mine = [c for c in everything if gpu_family(c.gpu.id) == gpu_family(gid)]
        if mine:
            mine[0].why.append(f"one of the GPUs you compared ({gid}): its best-ranked option")
            add(mine[0], "alternative", asked=True)


def _compared_missing(
    p: WorkloadProfile, shown: list[Candidate], rejected: list[Rejection], limited: dict[str, Rejection]
) -> list[str]:
    """A line for each compared GPU with no option shown, with the reason its family was ruled out."""
    out = []
    for gid in p.gpus_compared:
        fam = gpu_family(gid)
        if any(gpu_family(c.gpu.id) == fam for c in shown) or gid == p.claimed_gpu:
            continue  # a claim's GPU is answered by the claim's check (expert review 19, R06)
        why = [r.reason for r in (*limited.values(), *rejected) if gpu_family(r.gpu) == fam]
        out.append(f"{gid}, one of the GPUs you compared: {why[0] if why else 'no feasible option'}.")
    return out


def _alternatives(
    primary: Candidate, ranked: list[Candidate], eng: Engine, limit: int
) -> list[tuple[Candidate, Label]]:
    """Alternatives that differ in a way a buyer cares about, then the next best of other GPUs/providers."""
    chosen: list[tuple[Candidate, Label]] = []
    seen = {primary.key}
    p = eng.p
    everything = ranked
    if is_yours(primary):  # buying new hardware is no alternative to the team's own that runs the job
        ranked = [c for c in ranked if c.offer.deployment not in ("owned", "colocation")]
    # an alternative many times the primary's cost, or the same set-up elsewhere, says nothing new
    ranked = [c for c in ranked if not too_costly(c, primary)]
    others = ranked
    ranked = [c for c in ranked if not same_setup(c, primary)]
    if p.region_asked is not None:  # "hosted in Japan": no 'also offered by' a provider with no site there
        others = [c for c in others if reaches_elsewhere(c.offer.areas, c.offer.deployment, p)]
    also = also_offered(primary, others, eng.inference and not eng.state.batch_job)  # a batch job: per job
    if also:
        primary.why.append(also)

    def add(c: Candidate | None, label: Label, asked: bool = False) -> None:
        if c is None or c.key in seen or len(chosen) >= limit:
            return
        if not asked and any(same_setup(c, x) for x, _ in chosen):
            return
        if not asked and shadowed(c, [primary, *(y for y, _ in chosen)], primary, eng.inference):
            return  # beaten on cost and time at no more risk, and nothing else a buyer weighs
        seen.add(c.key)
        chosen.append((c, label))

    def speed(c: Candidate) -> float:
        if eng.inference:
            return -(c.decode_tokens_per_s.mid if c.decode_tokens_per_s else 0.0)
        return c.hours_mid

    if not ranked:
        ranked = [primary]  # every other option was ruled out above: the shortlist may still add some
    practical = practical_hours(primary, PRACTICAL_WALL_HOURS)
    # no fallback to plans slower than a month: an alternative running for years is no plan (issue 16);
    # a batch generation job is timed like training, an endpoint is not
    in_time = [
        c for c in ranked if (eng.inference and not eng.state.batch_job) or c.wall_hours.high <= practical
    ]
    cheapest = min(in_time, key=lambda c: (c.cost_mid, speed(c)), default=None)
    if cheapest is not None and cheapest.cost_mid < (1 - MEANINGFUL_DIFFERENCE) * primary.cost_mid:
        add(cheapest, "cheapest")
    fastest = min(ranked, key=lambda c: (speed(c), c.cost_mid))
    if meaningfully_faster(fastest, primary, eng.inference):
        add(fastest, "fastest")
    # like 'cheapest': a months-long single-node run is not the low-risk plan when the primary takes weeks
    # past 'cheapest', plans short of a serving throughput target are no alternative a buyer would take
    in_time = [c for c in in_time if not c.short_of_target] or in_time
    safe = [c for c in in_time if low_risk_label_allowed(c, p)]
    safest = min(safe, key=lambda c: (c.risk, c.layout.nodes, c.cost_mid), default=None)
    if safest is not None and lower_risk(safest, primary):  # never a riskier option labelled low-risk
        add(safest, "lowest operational risk")
    owned = [c for c in ranked if c.offer.deployment in ("owned", "colocation")]
    add(owned[0] if owned else None, "owned hardware")
    theirs = users_cloud(primary, in_time, p)
    if theirs is not None and theirs.key not in seen and len(chosen) < limit:
        theirs.why.append(f"on {str(p.data_location).upper()}, where your data is: no egress, your account")
        add(theirs, "alternative", asked=True)
    limit += len(eng.s.compare_providers)
    for name in eng.s.compare_providers:
        mine = [c for c in everything if provider_matches(c.offer.provider, [name])]
        if mine and not provider_matches(primary.offer.provider, [name]):
            # equal cost (to the cent: e.g. 1x and 8x of a data-parallel run that scales ~linearly on
            # NVLink) -> the smallest configuration, the one the buyer shortlisted (seed 001: 1x H100)
            pick = min(mine, key=lambda c: (round(c.cost_mid, 2), c.total_gpus, speed(c)))
            pick.why.append(f"on your shortlist ({name}): its lowest-cost configuration")
            add(pick, "alternative", asked=True)
    limit += len(p.gpus_compared)
    _compared(primary, everything, p, add)
    if len(chosen) < 2:
        distinct = {(primary.gpu.id, primary.offer.provider)} | {
            (c.gpu.id, c.offer.provider) for c, _ in chosen
        }
        # fillers too must be plans a buyer would take: within a month (or the primary's time) and near
        # the primary's cost (a filler has no label's merit to pay for a premium)
        near = [c for c in in_time if c.cost_mid <= DOMINATED_COST_MULTIPLE * primary.cost_mid]
        for c in near:
            if len(chosen) >= min(2, limit):
                break
            if (c.gpu.id, c.offer.provider) not in distinct and low_risk_allowed(c, p):
                distinct.add((c.gpu.id, c.offer.provider))
                add(c, "alternative")
    return chosen
