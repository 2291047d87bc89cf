"""Result types of the recommender (`tools.recommend.recommend`) and its settings.

Pure data, frozen pydantic models. Units are in the field names (GiB for memory, USD, hours).
`recommendation_json(rec)` gives the design.md `recommendation` object (primary, alternatives,
rejected) with every Option key the command-line contract names, plus the extra keys added here.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, PlainSerializer, WithJsonSchema

from tools import present
from tools.cost_buy import BuyRentTimeline
from tools.defaults import INTERACTIVE_TOKENS_PER_S_DEFAULT
from tools.preference import objective_basis
from tools.profile import WorkloadProfile
from tools.ranges import Range
from tools.recommend import memory_rule
from tools.recommend.option_id import OptionId, option_id_from_text
from tools.trace import Traced
from tools.units import ms_per_token_to_tokens_per_s
from tools.vocabulary import OptionPricing

Deployment = Literal["cloud", "managed", "bare_metal", "colocation", "owned"]
Label = Literal["primary", "cheapest", "fastest", "lowest operational risk", "owned hardware", "alternative"]
Verdict = Literal["holds", "tight", "cannot_hold", "unknown"]
RejectionKind = Literal[
    "memory", "interconnect", "constraint", "budget", "deadline", "throughput", "no_price"
]
CostBasis = Literal["per_job", "per_month"]
# Whether a deadline or budget is met across the option's whole range ("meets"), only at its favourable
# end ("maybe": the range straddles the limit) or not even there ("misses").
FitStatus = Literal["meets", "maybe", "misses"]
OptionIdText = Annotated[
    OptionId | None,
    BeforeValidator(option_id_from_text),
    PlainSerializer(lambda v: v.text() if v is not None else None, return_type=str | None),
    WithJsonSchema({"anyOf": [{"type": "string"}, {"type": "null"}]}),
]
"""An option's identity, written in JSON as its text ('h100-sxmx1@lambda/on_demand/-') and read back."""


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class MemoryFit(_Frozen):
    """Per-GPU memory of one candidate against the GPU's usable memory.

    `breakdown_gib` has the keys of tools.memory's breakdown (weights, gradients, optimizer,
    activations, kv_cache, adapters, overhead), GiB per GPU.
    """

    peak_gib_per_gpu: float
    usable_gib_per_gpu: float
    headroom_gib: float = Field(description="usable - peak, GiB per GPU (negative when it does not fit)")
    required_headroom_fraction: float = Field(description="headroom the fit demands, fraction of usable")
    sharding: str = "none"
    breakdown_gib: dict[str, float] = Field(default_factory=dict)
    peak_phase: str | None = Field(default=None, description="training phase of the peak (tools.memory)")
    memory_basis: str | None = Field(default=None, description="reserved (nvidia-smi) or allocated")
    need_gib_per_gpu: float | None = Field(
        default=None,
        description="what the fit is judged on, GiB per GPU: tensors at the peak + CUDA context "
        "(tools.recommend.memory_rule); None: the peak itself",
    )

    @property
    def judged_gib(self) -> float:
        """GiB per GPU the fit rule compares with the usable memory (tools.recommend.memory_rule)."""
        return self.peak_gib_per_gpu if self.need_gib_per_gpu is None else self.need_gib_per_gpu

    @property
    def fits(self) -> bool:
        return memory_rule.fits(self.judged_gib, self.usable_gib_per_gpu, self.required_headroom_fraction)


class TopologySummary(_Frozen):
    """How the GPUs are laid out and talk to each other."""

    nodes: int
    gpus_per_node: int
    tp: int = 1
    pp: int = 1
    dp: int = 1
    sharding: str = "none"
    interconnect_intra: str = ""
    interconnect_inter: str = Field(default="none", description="scale-out fabric of the offer")
    interconnect_inter_required: str = Field(default="none", description="what the parallelism needs")
    notes: tuple[str, ...] = ()
    nccl_checklist: tuple[str, ...] = ()

    @property
    def multi_node(self) -> bool:
        return self.nodes > 1


class TcoScenario(_Frozen):
    """The four TCO rows (seed 001) for one data-movement scenario.

    Scope: compute for one training job (or one month of serving), one month of storage, and the
    dataset pulls of one month (`data_pulls`: 1 when cached at the provider after the first pull,
    runs_per_month when every run re-reads the source; 0 pulls cost nothing when same-cloud).
    """

    scenario: str = Field(description="e.g. 'data cached after first pull', 'pulled every run'")
    data_pulls: float
    compute_usd: Range
    storage_usd: float
    egress_usd: float
    managed_usd: Range = Field(description="managed-service premium (an estimate); 0 when self-managed")
    total_usd: Range
    same_cloud: bool = False


def reaches_target(low_tokens_per_s: float, wanted_tokens_per_s: float) -> bool:
    """Whether the low end of a per-user range reaches the target as printed (three significant figures,
    tools.present.tokens_per_s_range): 29.96 prints as 30.0 and meets 30; 29.7 never "meets" 30 (expert
    review 13, R18: "29.7 - 47.7 tokens/s per user; meets your 30 tokens/s" within a 1% tolerance)."""
    return float(f"{low_tokens_per_s:.3g}") >= wanted_tokens_per_s


class ServingFigures(_Frozen):
    """Serving: what one replica does at the load it carries (tools.compute.serving via
    tools.recommend.serving_plan), and how much more load it takes before a limit binds."""

    replicas: int
    tensor_parallel: int
    pipeline_stages: int = 1
    engine_copies: int = Field(
        default=1, description="engines each replica's GPUs run side by side, tensor_parallel GPUs each"
    )
    framework: str
    concurrency: int | None = Field(description="requests in flight over all replicas (stated); None: sized")
    concurrency_per_replica: int = Field(description="requests the busiest replica carries")
    replica_tokens_per_s: Range = Field(description="output tokens/s of that replica")
    per_user_tokens_per_s: Range = Field(description="output tokens/s each of its users sees")
    ms_per_output_token: Range
    time_to_first_token_s: Range
    max_concurrency_per_replica: int = Field(description="requests its KV cache (or server) holds")
    concurrency_limit_per_replica: int = Field(
        description="requests it takes before the KV cache, the server's batch or the latency target binds"
    )
    headroom_requests_per_replica: int = Field(description="limit - carried (0 when at or past it)")
    binds: Literal["kv_cache", "server_max_batch", "latency_target"]
    latency_target_ms: float | None = None
    latency_target_assumed: bool = False  # the default per-user floor, not the user's target
    latency_target_waived: bool = False  # the user said there is no per-user target: no floor is said
    latency_target_source: str | None = Field(
        default=None,
        description="the user's own target the ms/token was derived from ('your 4 s for a 200-token "
        "answer'), named instead of a tokens/s the user never said (expert review 11, R08)",
    )
    target_status: Literal["meets", "maybe", "short"] | None = Field(
        default=None, description="against the aggregate tokens/s target (None without one)"
    )
    spare_replicas: int = Field(
        default=0, description="replicas beyond the load's (N+1 for an uptime target); figures: the others'"
    )
    ttft_percentile: float | None = Field(
        default=None, description="the percentile a stated TTFT target is judged at (95: p95), else None"
    )
    ttft_at_percentile_s: Range | None = Field(
        default=None,
        description="seconds to the first token at that percentile under steady arrivals, the figure the "
        "reply checks the target with (tools/compute/ttft_percentile.py); time_to_first_token_s is the "
        "band from spread arrivals to all at once",
    )
    capacity_tokens_per_s: Range | None = Field(
        default=None,
        description="output tokens/s of all replicas at the load they are sized for (the headline figure), "
        "where it differs from replicas x replica_tokens_per_s (a rate target runs below capacity)",
    )
    batch_job: bool = Field(
        default=False, description="a batch generation job: every request queued, the plan's concurrency"
    )


YOURS_PROVIDER = "your hardware"
"""The provider of an option on GPUs the team already owns (tools.recommend.owned_first)."""
YOURS_RESERVED_TIER = "reserved (yours)"
"""The tier of that option when the GPUs are cloud capacity the team holds reserved (owned_reserved)."""


class Option(_Frozen):
    """One feasible configuration with its price, time and cost ranges.

    The first eleven fields are the design.md command-line contract keys.
    `wall_hours`/`cost_usd` are per training job (`cost_basis='per_job'`) or, for inference, one
    month of serving (`cost_basis='per_month'`). `cost_usd` is compute (+ managed premium) only;
    the four TCO rows per data scenario are in `tco`.
    """

    gpu: str = Field(description="catalog GPU id")
    gpus_per_node: int
    nodes: int
    total_gpus: int
    vram_gib_per_gpu: float = Field(description="usable memory per GPU, GiB")
    peak_gib_per_gpu: float
    provider: str
    pricing: OptionPricing
    usd_per_gpu_hour: float
    wall_hours: Range
    cost_usd: Range
    # --- beyond the contract -------------------------------------------------------------------
    gpu_name: str = ""
    deployment: Deployment = "cloud"
    tier: str = ""
    region: str | None = None
    eu: bool = False
    areas: tuple[str, ...] = Field(default=(), description="the provider's sourced data-centre areas")
    label: Label = "alternative"
    why: tuple[str, ...] = ()
    cost_basis: CostBasis = "per_job"
    replicas: int = Field(default=1, description="inference: copies of the configuration for the target rate")
    gpu_hours: Range | None = None
    tco: tuple[TcoScenario, ...] = ()
    memory: MemoryFit | None = None
    topology: TopologySummary | None = None
    risks: tuple[str, ...] = ()
    decode_tokens_per_s: Range | None = Field(default=None, description="inference: aggregate decode rate")
    serving: ServingFigures | None = Field(default=None, description="inference: per replica and per user")
    meets_deadline: bool | None = Field(default=None, description="True also when met only at the fast end")
    meets_budget: bool | None = Field(default=None, description="True also when met only at the low end")
    runs_total: int | None = Field(default=None, description="training: runs the campaign covers (None: one)")
    campaign_usd: Range | None = Field(
        default=None, description="training: runs_total x the compute cost of one run (None: one run)"
    )
    campaign_wall_hours: Range | None = Field(
        default=None, description="training: runs_total x one run's wall-clock, run one after another"
    )
    deadline_status: FitStatus | None = Field(default=None, description="None: no deadline given")
    budget_status: FitStatus | None = Field(default=None, description="None: no budget given")
    price_as_of: dt.date | None = None
    price_source: str = ""
    score: float | None = Field(default=None, description="ranking score, lower is better (see recommend)")
    usd_per_gpu_hour_high: float | None = Field(
        default=None,
        description="top of the price spread for a floating spot, community or marketplace quote (the "
        "high end of cost_usd uses it); None: usd_per_gpu_hour is a firm list price",
    )

    @property
    def key(self) -> OptionId:
        """Identity of the configuration: gpu x count @ provider/pricing/region."""
        return OptionId.of(
            gpu=self.gpu,
            total_gpus=self.total_gpus,
            provider=self.provider,
            pricing=self.pricing,
            region=self.region,
        )

    @property
    def summary(self) -> str:
        """One line for chat and Slack, e.g. '1x H100 SXM at lambda (on demand): 90-160 h, $400-700'."""
        cost = present.usd_range(self.cost_usd)  # as the report, web and Slack write it ("$1.26M")
        if self.cost_basis == "per_month":
            cost += " per month"
            if self.decode_tokens_per_s is not None:  # serving: the rate it buys, and each user's speed
                rate = present.tokens_per_s_range(self.decode_tokens_per_s)
                if self.serving is not None:  # a high total bought with many users each slow says so
                    per_user = self.serving.per_user_tokens_per_s
                    under = self._under_target(per_user)
                    rate += f" ({present.tokens_per_s_range(per_user)} per user{under})"
                cost = f"{rate}, {cost}"
        elif self.serving is not None:  # a batch generation job
            cost += " per job"
        else:  # "12 LoRA runs": one run and all of them (expert review 10)
            cost += self.campaign_text()
        hours = f"{_hours_span(self.wall_hours)}, " if self.cost_basis == "per_job" else ""
        name = self.gpu_name or self.gpu
        # US regions asked and the catalog has none for it (tools.recommend.risk): said on the line itself
        unsure = ", region not listed" if any(r.startswith("region not listed") for r in self.risks) else ""
        return f"{self.total_gpus}x {name} at {self.provider}{unsure} ({self.pricing_words()}): {hours}{cost}"

    def campaign_text(self) -> str:
        """' per run; 12 runs: 96 – 180 h, $88 – $151' for a campaign of training runs (the wall-clock of all
        of them, one after another: expert review 19, R05), '' for one run: the same words in chat, Slack and
        the report."""
        if self.campaign_usd is None:
            return ""
        hours = f"{_hours_span(self.campaign_wall_hours)}, " if self.campaign_wall_hours is not None else ""
        return f" per run; {self.runs_total} runs: {hours}{present.usd_range(self.campaign_usd)}"

    def _under_target(self, per_user: Range) -> str:
        """'; the low end is under your 20 tokens/s' when the per-user range dips below the stated latency
        target (expert review 4: the range was printed without saying so); '; meets your 30 tokens/s' when
        even the low end reaches it (expert review 7, R11: the answer never said yes); '; even the fast end is
        under' when the whole range is; '' with no target."""
        target_ms = self.serving.latency_target_ms if self.serving is not None else None
        if not target_ms and self.serving is not None and self.serving.latency_target_waived:
            return ""
        if not target_ms:
            # no per-user target (an aggregate rate stated, which sets no floor: tools.defaults): a speed
            # under the interactive floor is still said, since someone may wait on each answer (expert
            # review 7, R12: 3.8-6.1 tokens/s per user, 33-52 s per 200-token answer, not flagged)
            floor = INTERACTIVE_TOKENS_PER_S_DEFAULT
            if self.serving is not None and not self.serving.batch_job and per_user.low < floor:
                return (
                    f"; under the {present.number(floor)} tokens/s an interactive user needs: say a "
                    "per-user speed if people wait on these answers"
                )
            return ""
        wanted = ms_per_token_to_tokens_per_s(target_ms)  # tokens/s per user the target means
        source = self.serving.latency_target_source if self.serving is not None else None
        if source:  # derived from the user's answer time: name theirs, not a tokens/s they never said
            met = reaches_target(per_user.low, wanted)
            where = "at or above" if met else "the low end is under"
            return f"; {where} the {present.number(wanted)} tokens/s pace of {source}"
        if reaches_target(per_user.low, wanted):
            assumed = self.serving is not None and self.serving.latency_target_assumed
            return "" if assumed else f"; meets your {present.number(wanted)} tokens/s"
        if not reaches_target(per_user.high, wanted):  # the closest on the GPUs named (serving_closest)
            return f"; even the fast end is under your {present.number(wanted)} tokens/s"
        return f"; the low end is under your {present.number(wanted)} tokens/s"

    def pricing_words(self) -> str:
        """How the option is paid for, in words: 'on demand', 'spot', 'reserved'; 'owned' on the team's own
        GPUs and 'to buy' for a purchase (both price as 'owned', which on hardware still to buy misled)."""
        if self.pricing == "owned":
            if self.provider != YOURS_PROVIDER:
                return "to buy"
            return "your reservation" if self.tier == YOURS_RESERVED_TIER else "owned"
        return self.pricing.replace("_", " ")


def _hours_span(r: Range) -> str:
    """Wall-clock for a summary line, as the report writes it (minutes or seconds under an hour)."""
    return present.hours_range(r, with_days=False)


class Rejection(_Frozen):
    """Why a GPU type (or a configuration of it) was not recommended, in one line."""

    gpu: str
    reason: str
    kind: RejectionKind = "memory"
    gpu_name: str = ""


class SensitivityItem(_Frozen):
    """One uncertain input moved to its low and high value, and what happened to the primary pick."""

    input: str = Field(description="profile field or assumption name, e.g. 'mfu', 'epochs'")
    base: str = ""
    low: str
    high: str
    changes_primary: bool
    changes_configuration: bool = Field(
        default=False, description="the GPU type or count changes (not only the provider or pricing)"
    )
    primary_at_low: OptionIdText = Field(default=None, description="Option.key of the pick at low")
    primary_at_high: OptionIdText = None
    cost_usd_at_low: Range | None = None
    cost_usd_at_high: Range | None = None
    note: str = ""


class ExpectationCheck(_Frozen):
    """A user's expectation (deadline, budget, claimed speed) against the physics.

    `factor` is how far off the expectation is: needed / expected (e.g. 3.2 = needs 3.2x the time
    or money the user expects); None when not computable.
    """

    claim: str
    verdict: Verdict
    factor: float | None = None
    explanation: str
    asked: bool = False
    """The user asked about this hardware ('how long on 8x H100?'): the answer is shown even when it holds."""
    leads: bool = False
    """The explanation opens with a plain verdict on the claim the user asked about ('No: one L40S holds
    about 51 such streams ...', issue 14 / expert review 10, R04): the reply opens with it."""


class Recommendation(Traced):
    """The recommender's answer. `primary` is None when nothing in the catalog is feasible."""

    profile: WorkloadProfile
    primary: Option | None
    alternatives: tuple[Option, ...] = ()
    rejected: tuple[Rejection, ...] = ()
    sensitivity: tuple[SensitivityItem, ...] = ()
    expectation_checks: tuple[ExpectationCheck, ...] = ()
    infeasible_advice: tuple[str, ...] = ()
    notes: tuple[str, ...] = Field(default=(), description="plain statements, e.g. 'nothing meets budget'")
    workload_class: str | None = None
    deployment_advice: str | None = None
    candidates_considered: int = 0
    catalog_as_of: dict[str, dt.date] = Field(default_factory=dict)
    time_narrowing: tuple[str, ...] = Field(
        default=(), description="training: what would narrow the primary's time range, in words"
    )

    @property
    def time_basis(self) -> str | None:
        """Training: the framework the time range assumes and what would narrow it, in one sentence."""
        p = self.profile
        unnamed = p.framework is None and p.status_of("framework") != "assumed"  # serving: no framework
        if self.primary is None or self.primary.cost_basis != "per_job" or unnamed:
            return None
        basis = present.time_basis(p.framework, p.status_of("framework"), self.time_narrowing)
        goal = objective_basis(p.training_objective, p.method, bool(p.ref_log_probs_precomputed))
        return f"{basis} {goal}" if goal else basis

    buy_vs_rent: BuyRentTimeline | None = Field(
        default=None, description="the pick's GPUs bought vs rented month by month (issue 16), when weighed"
    )

    @property
    def feasible(self) -> bool:
        return self.primary is not None

    @property
    def options(self) -> tuple[Option, ...]:
        """Primary first, then alternatives."""
        return ((self.primary,) if self.primary else ()) + self.alternatives

    @property
    def summary(self) -> str:
        """A few lines for chat, web and Slack: the pick, the alternatives, and what to know."""
        if self.primary is None:
            lines = ["Nothing in the catalog can run this workload as described."]
            lines += [f"- {a}" for a in self.infeasible_advice[:3]]
            return "\n".join(lines)
        lines = [f"Recommended: {self.primary.summary}"]
        if self.time_basis:
            lines.append(self.time_basis)
        lines += [f"- {o.label}: {o.summary}" for o in self.alternatives]
        lines += list(self.notes)
        lines += [
            f"Expectation ({c.claim}): {c.explanation}"
            for c in self.expectation_checks
            if c.verdict != "holds"
        ]
        changing = [s.input for s in self.sensitivity if s.changes_configuration]
        if changing:
            lines.append("The pick depends on: " + ", ".join(changing))
        return "\n".join(lines)


def _range_json(r: Range | None) -> dict[str, float] | None:
    return None if r is None else {"low": r.low, "high": r.high}


def option_json(opt: Option) -> dict[str, Any]:
    """An Option as a JSON-ready dict (contract keys first; Ranges as {low, high}; dates ISO)."""
    data = opt.model_dump(mode="json")
    data["key"] = opt.key.text()
    data["summary"] = opt.summary
    if opt.memory is not None:
        data["memory"]["fits"] = opt.memory.fits
    return data


def recommendation_json(rec: Recommendation) -> dict[str, Any]:
    """The design.md `recommendation` object: primary, alternatives, rejected [{gpu, reason}], plus
    sensitivity, expectation_checks, infeasible_advice, notes and catalog_as_of."""
    return {
        "primary": option_json(rec.primary) if rec.primary else None,
        "alternatives": [option_json(o) for o in rec.alternatives],
        "rejected": [{"gpu": r.gpu, "reason": r.reason, "kind": r.kind} for r in rec.rejected],
        "sensitivity": [s.model_dump(mode="json") for s in rec.sensitivity],
        "expectation_checks": [c.model_dump(mode="json") for c in rec.expectation_checks],
        "infeasible_advice": list(rec.infeasible_advice),
        "notes": list(rec.notes),
        "workload_class": rec.workload_class,
        "deployment_advice": rec.deployment_advice,
        "candidates_considered": rec.candidates_considered,
        "catalog_as_of": {k: v.isoformat() for k, v in rec.catalog_as_of.items()},
        "time_basis": rec.time_basis,
        "time_framework": rec.profile.framework if rec.time_basis else None,
        "time_narrowing": list(rec.time_narrowing),
        "buy_vs_rent": rec.buy_vs_rent.model_dump(mode="json", exclude={"trace", "assumptions"})
        if rec.buy_vs_rent
        else None,
    }


class RecommendSettings(_Frozen):
    """Knobs of one recommender run. Defaults are the engine's named assumptions; a field set here
    overrides the calculators (e.g. seed 001's 6ND at 100% MFU: flops_factor=6, mfu=Range(1, 1))."""

    headroom_fraction: float = Field(
        default=0.10,
        ge=0,
        lt=1,
        description="share of usable memory left free: a configuration fits when tensors + CUDA context <= "
        "(1 - this) x usable (issue 3; allocator fragmentation and transient spikes; "
        "tools.recommend.memory_rule). Recorded as an assumption on every run.",
    )
    mfu: Range | None = Field(default=None, description="override the calculators' MFU range")
    flops_factor: float | None = Field(default=None, gt=0, description="FLOPs per param per token")
    active_params: float | None = Field(default=None, gt=0, description="override params used for FLOPs")
    qlora_slowdown: Range | None = Field(default=None, description="override QLoRA dequantisation slowdown")
    attention_flops: bool = Field(default=True, description="add the attention term to 6ND/4ND FLOPs")
    storage_usd_per_month: float | None = Field(default=None, ge=0, description="override storage row")
    stored_gb: float | None = Field(default=None, gt=0, description="override GB kept in storage")
    managed_premium_fraction: float | None = Field(default=None, ge=0)
    range_point: Literal["mid", "low", "high"] = Field(
        default="mid", description="which end of time/cost ranges ranks options (sensitivity uses low/high)"
    )
    on_demand_only: bool = Field(
        default=False, description="drop spot, reserved, community/marketplace offers"
    )
    compare_providers: tuple[str, ...] = Field(
        default=(),
        description="a buyer's shortlist: always show each provider's best option as an alternative",
    )
    other_egress_gb_per_month: float | None = Field(
        default=None,
        ge=0,
        description="egress already used this month (eats the free tier; seed 001 ignores it)",
    )
    optimizer: str | None = Field(
        default=None,
        description="training optimizer for every memory estimate (tools.memory), e.g. 'adamw-8bit' to size "
        "full training on held capacity (tools/recommend/held_first.py); None: the framework's default",
    )
    max_nodes: int = Field(default=16, gt=0)
    max_alternatives: int = Field(default=4, ge=0)
    sensitivity: bool = Field(default=True, description="re-run at each uncertain input's low/high")
    serving_scales_to_zero: bool | None = Field(
        default=None,
        description="serving on rented GPUs: True bills only the busy hours (730 h x utilisation: a "
        "scale-to-zero or shared endpoint); False or None (the user said nothing) bills every hour of the "
        "month, as an endpoint kept up all month does; None also says so in the option's risks",
    )
