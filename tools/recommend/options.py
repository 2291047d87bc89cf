"""A candidate as the public Option: all its TCO scenarios, why it was chosen, and its risks in words
(price spread, spot interruptions, buy vs rent for owned hardware)."""

from __future__ import annotations

from tools import present
from tools.compute.flops import fp8_weight_only
from tools.cost import buy_vs_rent, spot_exposure
from tools.errors import InputError
from tools.profile import WorkloadProfile
from tools.ranges import Range
from tools.recommend.buy_rent import firm_on_demand
from tools.recommend.candidates import Candidate
from tools.recommend.engine import Engine
from tools.recommend.models import Label, Option, ServingFigures
from tools.recommend.owned import answer_horizon_months
from tools.recommend.owned_first import all_owned_line, is_yours, owned_cost_inputs, rent_instead, yours_why
from tools.recommend.purchase import purchase_lines, purchase_utilization
from tools.recommend.purchase_age import purchase_age_note
from tools.recommend.regions import elsewhere_note, region_note
from tools.recommend.risk import COMMUNITY_TIERS, risk_traits
from tools.recommend.serving_plan import (
    latency_source,
    per_user_note,
    response_note,
    serving_figures,
    ttft_note,
)
from tools.recommend.serving_spare import spare_note
from tools.recommend.ttft_target import at_percentile, ttft_range


def _with_shown_figures(c: Candidate, p: WorkloadProfile) -> ServingFigures | None:
    """serving_figures with the two figures the reply states beside the replica's own (srv14): the TTFT at a
    stated percentile (what the target is checked with) and the capacity the headline gives."""
    plan = c.serving
    fig = serving_figures(
        plan, c.layout.tp, c.layout.pp, p.latency_ms_per_token,
        assumed=p.status_of("latency_ms_per_token") == "assumed", waived=bool(p.no_latency_target),
        source=latency_source(p),
    )  # fmt: skip
    if fig is None or plan is None:
        return fig
    update: dict[str, object] = {}
    if at_percentile(p) and p.latency_percentile is not None and plan.job_hours is None:
        update.update(ttft_percentile=p.latency_percentile, ttft_at_percentile_s=ttft_range(plan.replica, p))
    at_load = fig.replica_tokens_per_s.scale(plan.replicas - plan.spare_replicas)
    total = plan.total_tokens_per_s
    if abs(total.low - at_load.low) > 1e-6 * total.low or abs(total.high - at_load.high) > 1e-6 * total.high:
        update["capacity_tokens_per_s"] = total
    return fig.model_copy(update=update) if update else fig


# --------------------------------------------------------------------------------------------
def to_option(
    c: Candidate, eng: Engine, label: Label, p: WorkloadProfile, ranked: list[Candidate] | None = None
) -> Option:
    """A Candidate as the public Option (all TCO scenarios filled). `ranked`: the run's candidates, for
    what renting would cost against hardware the team owns."""
    scen = eng.pricer.scenarios(c.offer, c.gpu_hours, all_of_them=True)
    if is_yours(c):
        # the fit and node lines, not a bought option's amortised rate (expert review 18, R03: over two
        # owned nodes the slice [:2] took "amortised $0.27/GPU-hour at your utilisation and horizon")
        why = _setup_why(c) + yours_why(c, p) + list(c.why)
        more = all_owned_line(c, ranked or [], p)
        if more:
            why.append(more)
        rent = rent_instead(c, ranked or [], eng.inference, reserved=bool(p.owned_reserved))
        if rent:
            why.append(rent)
    else:
        unpriced = bool(p.claimed_gpu) and all(g.id != p.claimed_gpu for g in eng.catalog.gpus)
        why = _why(c, label, p, named_unpriced=unpriced) + list(c.why)
    campaign = _campaign_usd(c, eng, p)
    campaign_hours = _campaign_hours(c, eng, p) if campaign is not None else None
    if campaign is not None and campaign_hours is not None:
        hours, usd = present.hours_range(campaign_hours), present.usd_range(campaign)
        why.insert(1, f"{p.runs_total} runs: {hours} one after another, {usd} of compute in all")
    spare = spare_note(c.serving, p)
    if spare:
        why.insert(1, spare)
    ttft = ttft_note(c.serving, p)
    if ttft:
        why.insert(1, ttft)
    answer = response_note(c.serving, p)
    if answer:
        why.insert(1, answer)
    fp8 = _fp8_weight_only_note(c, eng.p.precision, eng.w.arch.is_moe)
    if fp8:
        why.insert(1, fp8)
    stale: str | None = None
    if c.offer.deployment in ("owned", "colocation") and not is_yours(c):
        why += purchase_lines(c, eng, p)
        why += _break_even(c, eng, p)
        stale = purchase_age_note(c, eng.catalog, p)
        if stale:  # expert review 15, R02: said on the buy itself and among its risks
            why.append(stale)
        if c.owned_check is not None:
            eng.tb.extend(c.owned_check, prefix=f"owned use {c.key.text()}: ")
    risks = list(c.risks)
    if stale:
        risks.append(stale)
    note = per_user_note(c.serving, p.target_tokens_per_s, c.layout.n_gpus, c.cost_usd)
    if note:
        risks.insert(0, note)
    if c.offer.usd_per_gpu_hour_high is not None:
        risks.append(_spread_text(c))
    if c.offer.pricing == "spot" and not eng.inference:
        risks += _spot_exposure(c, eng)
    elif c.offer.pricing == "spot" and not (c.serving is not None and c.serving.job_hours is not None):
        risks.append(SPOT_ENDPOINT_RISK)
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
        areas=c.offer.areas,
        label=label,
        why=tuple(why),
        cost_basis="per_month" if eng.inference and not eng.state.batch_job else "per_job",
        gpu_hours=c.gpu_hours,
        tco=scen,
        memory=c.fit,
        topology=c.topo,
        risks=tuple(risks),
        decode_tokens_per_s=c.decode_tokens_per_s,
        serving=_with_shown_figures(c, p),
        meets_deadline=None if c.deadline_status is None else c.deadline_status != "misses",
        meets_budget=None if c.budget_status is None else c.budget_status != "misses",
        runs_total=p.runs_total if campaign is not None else None,
        campaign_usd=campaign,
        campaign_wall_hours=campaign_hours,
        deadline_status=c.deadline_status,
        budget_status=c.budget_status,
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


SPOT_ENDPOINT_RISK = (
    "spot: the provider can reclaim these GPUs at short notice; for an always-on endpoint that is an outage "
    "unless replicas off spot carry the load, so weigh it only for traffic that can wait"
)
"""Why a spot option for an endpoint is a risk (buyer_rules rule 2 keeps it off the primary)."""


def _spot_exposure(c: Candidate, eng: Engine) -> list[str]:
    """Expected interruptions and rework of a spot training run (tools.cost.spot_exposure), in words."""
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
    eng.tb.extend(ex, prefix=f"spot exposure {c.key.text()}: ")
    p = ex.probability_interrupted
    return [
        f"spot over {c.wall_hours.high:,.0f} h: {p.low:.0%}-{p.high:.0%} chance of an interruption, "
        f"expected rework +{ex.lost_hours.low:,.1f}-{ex.lost_hours.high:,.1f} h "
        f"({present.usd_span(ex.lost_usd)}) with hourly checkpoints"
    ]


def _break_even(c: Candidate, eng: Engine, p: WorkloadProfile) -> list[str]:
    """Buy vs rent for an owned option (tools.cost.buy_vs_rent) against the on-demand rate of the buy-vs-rent
    block (tools.recommend.buy_rent.firm_on_demand), at the answer's one utilisation and horizon; [] when the
    GPU has no such rental price, purchase price or TDP to compare with."""
    # the same on-demand rate as the buy-vs-rent block (an established tier; expert review 18, R17: "$2.40"
    # here beside "$3.85" there gave two renting totals for the same GPUs in one reply)
    record = firm_on_demand(c, eng)
    if record is None or c.gpu.purchase_price_usd is None or c.gpu.tdp_w is None:
        return []
    rent = record.usd_per_gpu_hour
    # the utilisation and horizon of the purchase quote and the buy-vs-rent block: one of each per answer
    # (expert review 18, R17: 12, 36 and 48 months, 30% and 3% use, in one reply)
    util = purchase_utilization(c, eng, p)
    horizon = answer_horizon_months(p)
    try:
        be = buy_vs_rent(
            rent_usd_per_gpu_hour=rent,
            utilization=util,
            horizon_months=horizon,
            purchase_price_usd=c.gpu.purchase_price_usd,
            tdp_w=c.gpu.tdp_w,
            n_gpus=c.layout.n_gpus,
            **owned_cost_inputs(eng.catalog, p, colocation=c.offer.deployment == "colocation"),
        )
    except (InputError, KeyError, LookupError):
        return []
    eng.tb.extend(be, prefix=f"buy vs rent {c.gpu.id}: ")
    gpus = f"{c.layout.n_gpus} GPU{'' if c.layout.n_gpus == 1 else 's'}"
    text = (
        f"buy vs rent ({gpus}, {util:.0%} use, {horizon:g} months, vs ${rent:.2f}/GPU-hour "
        f"on demand): owning ${be.own_total_usd:,.0f} vs renting ${be.rent_total_usd:,.0f}"
    )
    if be.break_even_utilization is not None:
        text += f"; buying wins above {be.break_even_utilization:.0%} utilisation"
    return [text]


def _campaign_usd(c: Candidate, eng: Engine, p: WorkloadProfile) -> Range | None:
    """A training campaign's compute cost: runs_total x one run's, traced (None for one run or serving); the
    figure beside the run's own compute cost, so the two read alike (the budget check holds the runs' whole
    cost, data movement included: tools/recommend/pricing.py)."""
    if not p.runs_total or p.runs_total < 2 or eng.inference:
        return None
    total = c.cost_usd.scale(p.runs_total)
    eng.tb.step(
        f"campaign_usd ({c.key.text()})",
        "runs_total x one run's compute cost",
        total.mid,
        "USD",
        "runs_total as stated (a campaign of runs, expert review 10 R14)",
        runs_total=p.runs_total,
        run_usd_low=c.cost_usd.low,
        run_usd_high=c.cost_usd.high,
    )
    return total


def _campaign_hours(c: Candidate, eng: Engine, p: WorkloadProfile) -> Range:
    """A campaign's wall-clock, its runs one after another on the option's GPUs: runs_total x one run's
    (expert review 19, R05: 'the wall-clock time per run and in total' printed no total); traced."""
    total = c.wall_hours.scale(p.runs_total or 1)
    eng.tb.step(
        f"campaign_wall_hours ({c.key.text()})",
        "runs_total x one run's wall-clock (runs one after another)",
        total.mid,
        "h",
        runs_total=p.runs_total,
        run_hours_low=c.wall_hours.low,
        run_hours_high=c.wall_hours.high,
    )
    return total


def _fp8_weight_only_note(c: Candidate, precision: str | None, moe: bool) -> str | None:
    """FP8 asked on a GPU without FP8 tensor cores: what runs instead (tools.compute.flops
    FP8_WEIGHT_ONLY_SOURCE), said on the option (expert review 18, R20: 4x A100 for an FP8 model, no word)."""
    if precision is None or not fp8_weight_only(c.gpu, precision):
        return None
    held = "weights held and read at 1 byte each, " if c.serving is not None else ""
    kernels = "; a mixture-of-experts model needs an engine with FP8 MoE weight-only kernels" if moe else ""
    return (
        f"FP8 on {c.gpu.name}: no FP8 tensor cores, so weight-only FP8 kernels (W8A16, e.g. vLLM FP8 "
        f"Marlin): {held}compute at the BF16 rate ({c.gpu.bf16_dense_tflops:,.0f} TFLOPS dense){kernels}"
    )


def _setup_why(c: Candidate) -> list[str]:
    """The memory fit and, on one node, that no multi-node set-up is needed."""
    out = [
        f"fits: {c.fit.peak_gib_per_gpu:.1f} GiB peak per GPU of {c.fit.usable_gib_per_gpu:.1f} usable "
        f"({c.fit.headroom_gib:.1f} GiB free)"
    ]
    replicas = c.serving.replicas if c.serving is not None else 1
    if c.layout.nodes == 1 and replicas > 1:
        out.append(f"each of the {replicas} replicas on one node: no InfiniBand or multi-node NCCL set-up")
    elif c.layout.nodes == 1:
        out.append("single node: no InfiniBand or multi-node NCCL set-up")
    if c.serving is None and c.total_gpus == 1:  # training: what the ranking weighs (score.py)
        out.append("one GPU: no distributed launch (torchrun, FSDP or ZeRO) to set up")
    return out


def _why(c: Candidate, label: Label, p: WorkloadProfile, named_unpriced: bool = False) -> list[str]:
    """Why this option, in words. `named_unpriced`: the GPU the user named is not in the catalog."""
    out = _setup_why(c)
    if c.layout.dp > 1:  # engine copies (tools.compute.serving_copies; expert review 15, R07)
        lay = c.layout
        out.append(
            f"each node runs {lay.dp} engines of {lay.tp} GPU(s) side by side, the requests split evenly: a "
            f"model this size serves more on {lay.dp} engines than on one over {lay.n_gpus} GPUs"
        )
    if label == "cheapest":
        out.append(f"lowest expected total ({present.usd_span(c.total_usd)})")
    elif label == "fastest":
        out.append(f"shortest wall-clock ({c.wall_hours.low:,.0f}-{c.wall_hours.high:,.0f} h)")
    elif label == "lowest operational risk":
        out.append("fewest moving parts: " + ", ".join(risk_traits(c)))
    elif label == "owned hardware" and p.owned_reserved:
        pass  # reserved capacity: no amortised rate; yours_why says the fee is committed
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
        named, total = p.claimed_gpu_count or 1, c.total_gpus
        out.append(
            f"the GPU you named, at its best-ranked count ({total}); your claim about {named} is checked"
            if p.claimed_gpu_bound is not None
            else "the GPU and count you named"
            if total == named
            else f"the GPU you named: {total} of them, the nearest feasible option to the {named} you named"
        )
    elif label == "primary" and p.claimed_gpu and p.claimed_hours is None and named_unpriced:
        # "Phi-3 mini QLoRA on a single T4?": the card is named, so the answer says what we can tell of it
        # (its memory need), never that it is a consumer card like the pick (evals/cases, phi3-t4)
        out.append(
            f"the {p.claimed_gpu.upper()} you named is not in the GPU catalog (no specs or prices here): "
            f"this run peaks at {c.fit.peak_gib_per_gpu:.1f} GiB per GPU, so a card with that much free "
            f"memory holds it; the pick is the best {p.objective or 'balanced'} choice among the GPUs priced"
        )
    elif label == "primary" and p.claimed_gpu and p.claimed_hours is None and c.gpu.consumer:
        out.append(f"a consumer card like the {p.claimed_gpu} you named, which has no feasible option here")
    elif label == "primary":
        out.append(f"best {p.objective or 'balanced'} choice among feasible options")
    if p.cannot_resume and c.offer.pricing != "spot" and c.offer.tier.lower() not in COMMUNITY_TIERS:
        # expert review 13, R01: a run that cannot resume is placed where it will not be taken away
        out.append(
            "not spot, not a community or marketplace host: your job cannot resume from a checkpoint, so it "
            "runs where it is not pre-empted and the host has an uptime commitment"
        )
    o = c.offer
    where = region_note(
        provider=o.provider, region=o.region, eu=o.eu, areas=o.areas, deployment=o.deployment, p=p
    )
    if where and (p.us_only or not where.startswith("EU region")):
        # US regions only: the catalog's region, the provider's sourced region list, or "region not listed"
        # (expert review 5; review 15, R13); EU only: said when placed by the provider's region list
        out.append(where)
    elsewhere = elsewhere_note(
        provider=o.provider, region=o.region, eu=o.eu, areas=o.areas, deployment=o.deployment, p=p
    )
    if elsewhere:  # "hosted in Japan": what the catalog knows of the place (expert review 18, R19)
        out.append(elsewhere)
    if c.deadline_status == "meets":
        out.append(f"meets the {present.hours(p.deadline_hours)} deadline even at low MFU")
    if c.budget_status == "meets" and p.budget_capex:
        out.append(f"its purchase is within the {present.usd(p.budget_usd)} capex budget")
    elif (
        c.budget_status == "meets" and p.budget_usd and c.capex_usd is not None and c.capex_usd > p.budget_usd
    ):
        # held per month or per job, but the purchase itself is above the amount (expert review 14, R03)
        out.append(
            f"its {'monthly' if c.serving is not None else 'per-job'} cost is within the "
            f"{present.usd(p.budget_usd)} budget, but the purchase itself, {present.usd(c.capex_usd)}, is "
            "above it (if the budget is for buying the hardware, say so)"
        )
    elif c.budget_status == "meets" and p.runs_total and p.runs_total > 1:
        out.append(f"all {p.runs_total} runs within the {present.usd(p.budget_usd)} budget even at low MFU")
    elif c.budget_status == "meets":
        out.append(f"within the {present.usd(p.budget_usd)} budget even at low MFU")
    elif c.budget_status == "maybe":
        runs = f"all {p.runs_total} runs " if p.runs_total and p.runs_total > 1 else ""
        out.append(
            f"{runs}within the {present.usd(p.budget_usd)} budget only at the favourable end of its cost "
            "range"
        )
    return out
