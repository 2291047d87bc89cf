"""`WorkloadProfile`: the recommender's input, filled by advisor/ extraction or a YAML file.

Pure data. `None` means unknown; the recommender applies defaults and records them as assumed.
Each field's provenance (stated by the user, inferred from their words, assumed by default) and the
words it came from live in `provenance`, keyed by field name.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from tools.preference import TrainingObjective
from tools.vocabulary import Framework, KvPrecision, OptionPricing, Precision, ProfileMethod

Workload = Literal["fine_tuning", "continual_pretraining", "pretraining", "inference"]
DataLocation = Literal["aws", "gcp", "azure", "on_prem", "other"]
Objective = Literal["cheapest", "fastest", "balanced"]
OpsCapacity = Literal["none", "limited", "dedicated"]
Deployment = Literal["cloud", "on_prem", "consumer"]
Status = Literal["stated", "inferred", "assumed"]
# what a claim says of its GPU count (tools.recommend.expectations.check_own_gpus answers it)
ClaimBound = Literal["minimum", "too_few"]
# the network joining the servers of hardware the team owns (tools.catalog.schema.ScaleOut less "none": a
# single server needs none, and more than one is joined by something)
OwnedFabric = Literal["infiniband", "roce", "ethernet"]


class Provenance(BaseModel):
    """Where a field's value came from: `status` and the user's words (`evidence`), if any."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    status: Status
    evidence: str | None = None


class WorkloadProfile(BaseModel):
    """A workload as the user described it. Units are in the field names."""

    model_config = ConfigDict(extra="forbid", validate_assignment=True)

    workload: Workload | None = None
    model_id: str | None = Field(default=None, description="catalog model id, e.g. llama-3-70b")
    params_b: float | None = Field(default=None, gt=0, description="parameters, billions")
    method: ProfileMethod | None = None
    precision: Precision | None = Field(default=None, description="weight precision")
    dataset_tokens: float | None = Field(
        default=None,
        gt=0,
        description="training tokens per epoch; preference pairs: both sequences of every pair, "
        "pairs x (2 x prompt + chosen + rejected) (tools.preference)",
    )
    dataset_gb: float | None = Field(default=None, gt=0, description="dataset size on storage, GB (1e9)")
    epochs: float | None = Field(default=None, gt=0)
    seq_len: int | None = Field(default=None, gt=0, description="training sequence length, tokens")
    batch_size: int | None = Field(default=None, gt=0, description="micro-batch per GPU, sequences")
    lora_rank: int | None = Field(default=None, gt=0)
    training_objective: TrainingObjective | None = Field(
        default=None,
        description="sft (plain fine-tuning) or preference tuning: dpo | orpo | simpo | kto "
        "(tools.preference); orthogonal to method full / lora / qlora",
    )
    ref_log_probs_precomputed: bool | None = Field(
        default=None, description="dpo/kto: reference log-probs computed before training (no reference model)"
    )
    kv_cache_precision: KvPrecision | None = Field(
        default=None,
        description="serving: the KV cache's precision when said apart from the weights ('fp8 weights and an "
        "fp8 KV cache'): tools.memory and tools.compute.serving size the cache at it; None: 16-bit",
    )
    data_location: DataLocation | None = None
    data_region: str | None = Field(default=None, description="e.g. us-east-1")
    data_cached: bool | None = Field(
        default=None, description="dataset cached at the provider after one pull"
    )
    runs_per_month: float | None = Field(default=None, gt=0)
    runs_total: int | None = Field(
        default=None,
        gt=0,
        description="training runs the request covers in all ('12 LoRA runs', 'a sweep of 20 runs'): the "
        "budget is held to all of them and the answer prices them together; None: one run",
    )
    budget_usd: float | None = Field(default=None, gt=0)
    deadline_hours: float | None = Field(default=None, gt=0, description="wall-clock hours until due")
    deadline_soft: bool | None = Field(
        default=None,
        description="the deadline is a preference, not a limit ('under 3 days would be nice', 'ideally by "
        "Friday', 'if possible within a week'): options that miss it are not ruled out, those that meet it "
        "come first; None or False: a hard deadline ('must finish within 3 days', 'deadline is Friday')",
    )
    concurrency: int | None = Field(default=None, gt=0, description="concurrent sequences (inference)")
    context_len: int | None = Field(default=None, gt=0, description="tokens per sequence (inference)")
    target_tokens_per_s: float | None = Field(default=None, gt=0, description="aggregate decode rate")
    latency_ms_per_token: float | None = Field(default=None, gt=0)
    serving_scheduled: bool | None = Field(
        default=None,
        description="serving needed only in stated hours ('business hours only', 'weekdays only'): rented "
        "GPUs are stopped outside them and billed for the hours they run (utilization x 730 h)",
    )
    no_latency_target: bool | None = Field(
        default=None,
        description="the user said nobody waits on each token ('No per-user latency target', 'latency "
        "doesn't matter, throughput does'): no per-user speed floor is assumed or said",
    )
    ttft_target_s: float | None = Field(
        default=None,
        gt=0,
        description="time to the first token asked for, seconds ('TTFT under 800 ms': 0.8)",
    )
    response_target_s: float | None = Field(
        default=None,
        gt=0,
        description="seconds a whole answer may take, first token to last ('p95 latency under 2 s': 2)",
    )
    latency_percentile: float | None = Field(
        default=None,
        gt=50,
        lt=100,
        description="the percentile a stated latency target is at ('p95 latency under 4 s', '95% of requests "
        "under 4 s': 95): it must hold at the slow end of the predicted range, not only in its middle",
    )
    latency_median: bool | None = Field(
        default=None,
        description="the stated latency target is a median ('p50 latency under 400 ms', 'median response "
        "time'): judged at the middle of the predicted range, not its slow end (recommend.latency_point)",
    )
    utilization: float | None = Field(default=None, ge=0, le=1, description="sustained GPU use, 0..1")
    horizon_months: float | None = Field(default=None, gt=0)
    eu_only: bool | None = None
    us_only: bool | None = Field(
        default=None,
        description="US regions only ('US regions only', 'must be hosted in the US'): offers in a region "
        "outside the US are dropped; an offer whose region the catalog lacks is kept, said to be confirmed",
    )
    region_asked: str | None = Field(
        default=None,
        description="a place outside the US and the EU the GPUs must be in ('hosted in Japan', 'Tokyo "
        "region'): the catalog records US and EU locations only, so each option says whether its provider's "
        "published region list reaches beyond them, and the place is to be confirmed at launch",
    )
    spot_ok: bool | None = Field(
        default=None,
        description="spot or preemptible capacity is acceptable ('we're fine with spot', 'spot is OK'): spot "
        "options carry no preemption risk points (their checkpoint advice stays)",
    )
    cannot_resume: bool | None = Field(
        default=None,
        description="the job cannot resume from a checkpoint ('our jobs can't checkpoint well'): an "
        "interruption loses the run, so spot and community / marketplace hosts are ruled out and the pick "
        "says why",
    )
    ops_capacity: OpsCapacity | None = None
    deployment_preference: Deployment | None = None
    providers_preferred: list[str] = Field(default_factory=list)
    providers_excluded: list[str] = Field(default_factory=list)
    providers_required: list[str] = Field(
        default_factory=list,
        description="hard requirement: only these providers ('must be on AWS', 'our AWS account')",
    )
    pricing_excluded: list[OptionPricing] = Field(
        default_factory=list, description="pricing ruled out ('no spot': spot; 'reserved only': the others)"
    )
    objective: Objective | None = None
    framework: Framework | None = Field(
        default=None, description="training stack (sets efficiency and memory defaults)"
    )
    gpus_wanted: list[str] = Field(
        default_factory=list, description="catalog GPU ids the user requires ('on H100s'); others ruled out"
    )
    gpus_excluded: list[str] = Field(default_factory=list, description="catalog GPU ids the user rules out")
    max_gpus: int | None = Field(default=None, gt=0, description="most GPUs the user accepts ('one GPU')")
    owned_gpu: str | None = Field(default=None, description="catalog GPU id of hardware the team owns")
    owned_gpu_count: int | None = Field(default=None, gt=0, description="how many of owned_gpu the team owns")
    owned_reserved: bool | None = Field(
        default=None,
        description="owned_gpu is cloud capacity reserved for a term and already committed ('our 1-year "
        "reservation of 16 H100s on AWS'): the provider pays the power, so using it costs nothing more",
    )
    owned_provider: str | None = Field(default=None, description="catalog provider id hosting owned_gpu")
    owned_months_left: float | None = Field(
        default=None,
        gt=0,
        description="months left on the reservation or lease of owned_gpu ('5 months left')",
    )
    owned_gpus_per_node: int | None = Field(
        default=None,
        gt=0,
        description="GPUs in each server of the owned hardware ('16x A100 (2 nodes)': 8; '4 servers with 8x "
        "A100 each': 8); None: assumed (tools.recommend.owned_first.owned_layout): a plan never puts more "
        "of them in one node",
    )
    owned_fabric: OwnedFabric | None = Field(
        default=None,
        description="network joining the owned servers ('InfiniBand', '100 Gb Ethernet', 'RoCE'); it sets "
        "the multi-node scaling of a plan over several of them (tools.compute.training_scaling); None: "
        "assumed (tools.recommend.owned.owned_fabric)",
    )
    buy_what_if: bool | None = Field(
        default=None,
        description="the user asks what buying would change ('what if we bought our own 16 H100s instead of "
        "renting?'): the purchase is sized and weighed against renting over the horizon, and the cheaper "
        "one over it is the pick; a stated wish or rule to own (deployment_preference on_prem alone) keeps "
        "the purchase first",
    )
    buy_asked: bool | None = Field(
        default=None,
        description="the user asks whether buying pays off against renting ('is it worth buying an 8x H100 "
        "server?', 'would owning be cheaper than renting?'): the buy-vs-rent block is weighed and its "
        "verdict opens the answer (tools.recommend.buy_verdict), never a bare fit check",
    )
    gpus_compared: list[str] = Field(
        default_factory=list,
        description="GPUs set side by side ('H100 vs H200 vs L40S'): each one's best option is shown",
    )
    gpu_counts_compared: list[int] = Field(
        default_factory=list,
        description="the GPU count said with each gpus_compared entry, in the same order ('1x H100 or 2x "
        "L40S?' -> [1, 2]): each set-up is sized and priced side by side; empty unless every one has a count",
    )
    colocation: bool | None = Field(
        default=None,
        description="hardware the team buys is hosted in a colocation facility ('we have no data centre, "
        "we'd need colocation', 'we would colocate it'): owned options and the buy-vs-rent TCO add the "
        "catalog's colocation price per kW-month (tools.cost_owned); None: the team's own site",
    )
    budget_capex: bool | None = Field(
        default=None,
        description="the budget is a one-off hardware purchase ('Capex budget EUR 250k'), not monthly",
    )
    purchase_usd_per_gpu: float | None = Field(
        default=None,
        gt=0,
        description="stated price of hardware to buy, per GPU with its server ('an 8x H100 server (~$250k)')",
    )
    purchase_gpu: str | None = Field(default=None, description="catalog GPU id of the stated purchase price")
    current_gpu: str | None = Field(
        default=None,
        description="catalog GPU id of capacity the team rents now and describes ('we're spending ~$40k/"
        "month on 8x H100 on-demand at AWS'): priced elsewhere by tools.capacity_price, never required",
    )
    current_gpu_count: int | None = Field(default=None, gt=0, description="how many of current_gpu it rents")
    current_provider: str | None = Field(
        default=None, description="catalog provider id of that rented capacity (where it runs; not required)"
    )
    current_pricing: OptionPricing | None = Field(default=None, description="how that capacity is paid now")
    current_usd_per_month: float | None = Field(
        default=None, gt=0, description="what the team says that capacity costs it a month, USD"
    )
    providers_asked: list[str] = Field(
        default_factory=list,
        description="providers whose price for the same capacity is asked ('what would it cost at Lambda or "
        "Nebius?'): priced side by side (tools.capacity_price), not required",
    )
    reserved_months_asked: float | None = Field(
        default=None,
        gt=0,
        description="reserved term a price is asked for ('and with a 1-year reservation?' -> 12)",
    )
    power_price_usd_per_kwh: float | None = Field(default=None, gt=0, description="stated electricity price")
    prompt_tokens: int | None = Field(default=None, gt=0, description="input tokens per request (serving)")
    output_tokens: int | None = Field(default=None, gt=0, description="output tokens per request (serving)")
    generation_tokens: float | None = Field(
        default=None, gt=0, description="batch generation job: total output tokens to generate"
    )
    availability_target: float | None = Field(
        default=None,
        gt=0,
        lt=1,
        description="serving uptime asked for, a fraction ('99.9% uptime': 0.999; 'high availability': "
        "tools.recommend.serving_plan.HA_AVAILABILITY)",
    )
    memory_asked: bool | None = Field(
        default=None,
        description="the user asks how much GPU memory it needs ('how much VRAM do I need?', 'memory per "
        "card needed'): tools.recommend.memory_answer quotes the estimate, per card and in all",
    )
    count_asked: bool | None = Field(
        default=None,
        description="the user asks how many GPUs the job needs without naming one ('how many GPUs do we "
        "need?'): tools.recommend.count_answer answers the pick's GPU with the counts against the deadline",
    )
    claimed_gpu: str | None = Field(default=None, description="GPU in a claim the user makes")
    claimed_gpu_count: int | None = Field(default=None, gt=0)
    claimed_gpu_bound: ClaimBound | None = Field(
        default=None,
        description="what the claim says of claimed_gpu_count: 'minimum' = the fewest that do it ('needs "
        "at least 4x A100'), 'too_few' = not enough ('one L40S won't cut it'); None = that many suffice",
    )
    claim_source: str | None = Field(
        default=None,
        description="who makes the claim, as the user names them ('vendor', 'CTO', 'a blog post'): the reply "
        "answers it as theirs ('your vendor's 4x H100'), never as the user's; None = the user's own",
    )
    claimed_hours: float | None = Field(default=None, gt=0, description="hours the user expects")
    claimed_speedup: float | None = Field(
        default=None,
        gt=0,
        description="how many times faster a claim says gpus_compared[0] is than gpus_compared[1] ('an "
        "H200 is 2x faster than an H100' -> 2.0): tools.recommend.speed_claim checks it per GPU",
    )
    provenance: dict[str, Provenance] = Field(default_factory=dict)

    def status_of(self, field: str) -> Status | None:
        """stated / inferred / assumed for a field, or None when the field is unset and unrecorded."""
        p = self.provenance.get(field)
        return p.status if p else None

    def with_values(
        self, status: Status, evidence: dict[str, str] | None = None, **values: object
    ) -> WorkloadProfile:
        """A copy with `values` set and their provenance recorded (evidence keyed by field)."""
        evidence = evidence or {}
        prov = dict(self.provenance)
        for k in values:
            prov[k] = Provenance(status=status, evidence=evidence.get(k))
        data = self.model_dump()
        data.update(values)
        data["provenance"] = prov
        return WorkloadProfile.model_validate(data)


PROFILE_FIELDS: tuple[str, ...] = tuple(f for f in WorkloadProfile.model_fields if f != "provenance")
RESERVED_SETUP_HOW = "the set-up the reserved term is asked for"
"""Evidence note of a claimed_gpu read from a reserved-term question ("a 3-year reservation for 8x H100 or
stay on demand?", advisor/extract/rules_reserved_question.py): a set-up to price and check against the load
(tools.recommend.reserved_answer), not a wish the ranking puts first (tools.recommend.rank)."""
