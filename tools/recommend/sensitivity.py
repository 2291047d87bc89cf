"""Sensitivity of the primary pick: re-run the engine with each uncertain input at its low and high.

Inputs varied (only those that are uncertain for this profile):
- mfu: rank on the pessimistic (low MFU: high ends of time and cost, the cost's high end also at the top
  of a floating price's spread) and optimistic ends.
- pricing tier: on-demand in established tiers only (no spot, community or marketplace offers, whose
  quotes float: tools.recommend.spread).
- dataset_tokens (when assumed or estimated from a size on disk): x0.5 and x2.
- epochs (when not stated): 1 and 3 (seed 001 uses 3).
- method (when assumed): LoRA and QLoRA.
- seq_len / context_len (when assumed): half and four times (capped at the model's context).
- data_cached and data_location (when not stated): cached vs pulled every run; on-premises vs S3.
- runs_per_month (when not stated): 1 and 20 (seed 001's 20 experiments).
- concurrency (inference, when assumed): 1 and 32.
`changes_primary` is true when either end picks a different configuration (Option.key); the
conversation asks only about inputs that change the pick.
"""

from __future__ import annotations

from typing import Any

from tools import present
from tools.defaults import CatalogView, ResolvedWorkload, resolve_workload
from tools.errors import InputError
from tools.recommend.caches import COST_ONLY_FIELDS
from tools.recommend.models import RecommendSettings, SensitivityItem
from tools.recommend.option_id import OptionId
from tools.recommend.outcome import Outcome
from tools.recommend.pricing import egress_possible
from tools.recommend.rank import rerank
from tools.recommend.run import run_engine


def _uncertain(w: ResolvedWorkload, field: str) -> bool:
    """Assumed by default (a value set without provenance counts as stated, e.g. from a YAML file)."""
    return w.profile.status_of(field) == "assumed" or field in w.assumed_fields


def _estimated(w: ResolvedWorkload, field: str) -> bool:
    """Assumed, or inferred by a conversion (e.g. tokens from GB of text at ~4 bytes/token)."""
    return _uncertain(w, field) or w.profile.status_of(field) == "inferred"


def _run_key(w: ResolvedWorkload) -> str:
    """What an engine run depends on: the resolved profile's values and each field's status (stated /
    inferred / assumed: owned hardware and reserved capacity read them), not the evidence quoted. Two
    workloads with the same key give the same outcome (the catalog and settings being the same)."""
    p = w.profile
    statuses = {f: p.status_of(f) for f in sorted(p.provenance)}
    return f"{p.model_dump_json(exclude={'provenance'})}|{statuses}"


def _cost_only(a: ResolvedWorkload, b: ResolvedWorkload) -> bool:
    """Whether two resolved workloads differ only in COST_ONLY_FIELDS (values or provenance)."""
    da = a.profile.model_dump(exclude=set(COST_ONLY_FIELDS) | {"provenance"})
    db = b.profile.model_dump(exclude=set(COST_ONLY_FIELDS) | {"provenance"})
    if da != db or a.arch != b.arch or a.params_for_flops != b.params_for_flops:
        return False
    sa, sb = a.profile.provenance, b.profile.provenance
    return all(
        (sa[f].status if f in sa else None) == (sb[f].status if f in sb else None)
        for f in set(sa) | set(sb)
        if f not in COST_ONLY_FIELDS
    )


PULL_FIELDS = frozenset({"data_cached", "runs_per_month"})
"""How often the dataset is pulled: priced only through egress (and, when stated, owned hardware's use)."""


def _same_costs(a: ResolvedWorkload, b: ResolvedWorkload) -> bool:
    """Whether b prices every candidate exactly as a does: they differ only in PULL_FIELDS, no pull can
    cost egress in either (tools.recommend.pricing.egress_possible), and runs per month is assumed in both
    (owned hardware's use reads it only when given). Then every candidate's cost, and so the pick and its
    cost, are a's; only the name of the data scenario differs."""
    pa, pb = a.profile, b.profile
    if pa.workload == "inference" or egress_possible(pa) or egress_possible(pb):
        return False
    if pa.status_of("runs_per_month") != "assumed" or pb.status_of("runs_per_month") != "assumed":
        return False
    if a.arch != b.arch or a.params_for_flops != b.params_for_flops:
        return False
    skip = set(PULL_FIELDS) | {"provenance"}
    if pa.model_dump(exclude=skip) != pb.model_dump(exclude=skip):
        return False
    sa, sb = pa.provenance, pb.provenance
    return all(
        (sa[f].status if f in sa else None) == (sb[f].status if f in sb else None)
        for f in set(sa) | set(sb)
        if f not in PULL_FIELDS
    )


def _fmt(v: Any) -> str:
    """A variant's value as the conversation and the report print it: 1e8 -> '100M', 2.0 -> '2'."""
    if isinstance(v, float):
        return present.count(v)
    return str(v)


def _variants(
    w: ResolvedWorkload,
) -> list[tuple[str, str, tuple[str, dict[str, Any]], tuple[str, dict[str, Any]]]]:
    """(input, base text, (low text, profile changes), (high text, profile changes))."""
    p = w.profile
    out: list[tuple[str, str, tuple[str, dict[str, Any]], tuple[str, dict[str, Any]]]] = []
    inference = p.workload == "inference"
    if not inference:
        if p.dataset_tokens and _estimated(w, "dataset_tokens"):
            t = p.dataset_tokens
            out.append(
                (
                    "dataset_tokens",
                    _fmt(t),
                    (_fmt(t / 2), {"dataset_tokens": t / 2}),
                    (_fmt(t * 2), {"dataset_tokens": t * 2}),
                )
            )
        if _uncertain(w, "epochs"):
            out.append(("epochs", _fmt(p.epochs), ("1", {"epochs": 1.0}), ("3", {"epochs": 3.0})))
        if p.workload == "fine_tuning" and _uncertain(w, "method"):
            out.append(
                (
                    "method",
                    str(p.method),
                    ("qlora", {"method": "qlora", "precision": "nf4"}),
                    ("lora", {"method": "lora", "precision": "bf16"}),
                )
            )
        if p.seq_len and _uncertain(w, "seq_len"):
            hi = min(p.seq_len * 4, w.arch.max_context)
            out.append(
                (
                    "seq_len",
                    str(p.seq_len),
                    (str(max(256, p.seq_len // 2)), {"seq_len": max(256, p.seq_len // 2)}),
                    (str(hi), {"seq_len": hi}),
                )
            )
        if _uncertain(w, "data_location"):
            out.append(
                (
                    "data_location",
                    str(p.data_location),
                    ("on_prem", {"data_location": "on_prem"}),
                    ("aws", {"data_location": "aws"}),
                )
            )
        if (
            _uncertain(w, "data_cached")
            and p.data_location in ("aws", "gcp", "azure", None)
            or (_uncertain(w, "data_cached") and _uncertain(w, "data_location"))
        ):
            out.append(
                (
                    "data_cached",
                    str(p.data_cached),
                    ("cached", {"data_cached": True}),
                    ("pulled every run", {"data_cached": False}),
                )
            )
        if _uncertain(w, "runs_per_month"):
            out.append(
                (
                    "runs_per_month",
                    _fmt(p.runs_per_month),
                    ("1", {"runs_per_month": 1.0}),
                    ("20", {"runs_per_month": 20.0}),
                )
            )
    else:
        # a batch generation job queues every request at once, and a stated aggregate rate is served at the
        # load the plan picks ("about 888 in flight"): their concurrency is not an input (review 10, R09)
        planned = p.generation_tokens or p.target_tokens_per_s
        if p.concurrency and _uncertain(w, "concurrency") and not planned:
            out.append(
                ("concurrency", str(p.concurrency), ("1", {"concurrency": 1}), ("32", {"concurrency": 32}))
            )
        if p.context_len and _uncertain(w, "context_len"):
            hi = min(p.context_len * 4, w.arch.max_context)
            out.append(
                (
                    "context_len",
                    str(p.context_len),
                    (str(max(256, p.context_len // 2)), {"context_len": max(256, p.context_len // 2)}),
                    (str(hi), {"context_len": hi}),
                )
            )
    return out


def run_sensitivity(
    *, workload: ResolvedWorkload, catalog: CatalogView, settings: RecommendSettings, base: Outcome
) -> list[SensitivityItem]:
    """One SensitivityItem per uncertain input; those that change the pick first."""
    quiet = settings.model_copy(update={"sensitivity": False})
    base_key = base.primary.key if base.primary else None
    base_cost = base.primary.total_usd if base.primary else None
    items: list[SensitivityItem] = []

    # A variant whose resolved profile equals the base's (the assumed default is an end of its own range:
    # epochs 1, data cached, one run a month) or another variant's is not run again.
    runs: dict[str, Outcome] = {_run_key(base.workload): base}

    def outcome_for(changes: dict[str, Any], s: RecommendSettings) -> Outcome | None:
        try:
            w = resolve_workload(
                profile=workload.profile.with_values("assumed", None, **changes), catalog=catalog
            )
        except (InputError, ValueError):
            return None
        key = _run_key(w)
        if key not in runs and _same_costs(base.workload, w):
            runs[key] = base  # only how often free pulls happen changed: the same pick at the same cost
        if key not in runs:
            # only cost inputs changed: the base's candidates (fits, times) priced again
            reprice = base if base.engine.enumerated and _cost_only(base.workload, w) else None
            runs[key] = run_engine(w, catalog, s, base.engine.caches, reprice=reprice, primary_only=True)
        return runs[key]

    def item(
        name: str,
        base_txt: str,
        lo_txt: str,
        lo: Outcome | None,
        hi_txt: str,
        hi: Outcome | None,
        note: str = "",
    ) -> SensitivityItem:
        lo_key = lo.primary.key if lo and lo.primary else None
        hi_key = hi.primary.key if hi and hi.primary else None

        def config(key: OptionId | None) -> tuple[str, int] | None:
            return key.configuration if key else None

        base_cfg = config(base_key)
        return SensitivityItem(
            changes_configuration=config(lo_key) != base_cfg or config(hi_key) != base_cfg,
            input=name,
            base=base_txt,
            low=lo_txt,
            high=hi_txt,
            changes_primary=lo_key != base_key or hi_key != base_key,
            primary_at_low=lo_key,
            primary_at_high=hi_key,
            cost_usd_at_low=lo.primary.total_usd if lo and lo.primary else None,
            cost_usd_at_high=hi.primary.total_usd if hi and hi.primary else None,
            note=note,
        )

    # MFU: rank the same candidates on the ends of their ranges instead of the mids.
    lo = rerank(base, range_point="high", primary_only=True)
    hi = rerank(base, range_point="low", primary_only=True)
    items.append(
        item(
            "mfu",
            "mid of range",
            "low MFU (slow end)",
            lo,
            "high MFU (fast end)",
            hi,
            "ranking on the pessimistic and optimistic ends of every time and cost range (cost: MFU and "
            "price spread)",
        )
    )
    # Price tier: established on-demand offers only.
    base_pricing = base.primary.offer.pricing if base.primary else ""
    od = rerank(base, on_demand_only=True, primary_only=True)
    items.append(
        item("pricing tier", base_pricing, "any tier (as ranked)", base, "on-demand, established tiers", od)
    )
    for name, base_txt, (lo_txt, lo_ch), (hi_txt, hi_ch) in _variants(workload):
        items.append(
            item(name, base_txt, lo_txt, outcome_for(lo_ch, quiet), hi_txt, outcome_for(hi_ch, quiet))
        )
    del base_cost
    items.sort(key=lambda i: not i.changes_primary)
    return items
