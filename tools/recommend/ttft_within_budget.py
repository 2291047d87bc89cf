"""What the budget buys when every serving option that meets the targets is over it and a time to first
token is stated (issue 12, gap 7; expert review 14, R03: "500 users, 25 tokens/s each, TTFT p95 < 2 s,
budget cap USD 600k" got 40x Gaudi 3 at $812,500 as the closest option, with nothing said about what
$600k does buy; the reviewer's answer: "nearest in budget 24x Gaudi 3 ($487.5k, 19.3-26.1 tok/s); TTFT
checked against 2 s").

The engine is run again with the TTFT target kept and the speed targets eased in the budget's proportion
(per-user tokens/s and aggregate tokens/s x budget / the closest option's cost: serving throughput grows
about linearly with replicas, so this is about the speed the budget buys); when nothing within the
budget holds the TTFT at that speed, once more with the speed targets left to their defaults (the reading
pace). Among the options within the budget, the one closest to the speed asked (the highest per-user
tokens/s at the slow end, then the lower cost) is named with its speed and its time to first token against
the target; when none within the budget meets the TTFT target, the note says so. A capex budget is held
against the purchase, a running budget against a month (tools.recommend.pricing, the same budget_status
the ranking uses).
"""

from __future__ import annotations

from tools import present
from tools.defaults import CatalogView, ResolvedWorkload, resolve_workload
from tools.errors import InputError
from tools.profile import WorkloadProfile
from tools.recommend.caches import Caches
from tools.recommend.candidates import Candidate
from tools.recommend.models import RecommendSettings
from tools.recommend.outcome import Outcome
from tools.recommend.run import run_engine
from tools.recommend.ttft_target import ttft_range
from tools.units import ms_per_token_to_tokens_per_s


def _price(c: Candidate, p: WorkloadProfile) -> str:
    if p.budget_capex and c.capex_usd is not None:
        return f"purchase {present.usd(c.capex_usd)}"
    return f"{present.usd_range(c.cost_usd)} per month"


def _holds_ttft(c: Candidate, p: WorkloadProfile) -> bool:
    """Whether the option's first token comes within the target even at the slow end of its range."""
    assert c.serving is not None and p.ttft_target_s is not None
    return ttft_range(c.serving.replica, p).high <= p.ttft_target_s


def ttft_within_budget_note(
    w: ResolvedWorkload,
    catalog: CatalogView,
    settings: RecommendSettings,
    out: Outcome,
    caches: Caches | None = None,
) -> str | None:
    """The line naming what the budget buys and its time to first token (module docstring); None unless
    serving with a TTFT target and a budget that every option meeting the targets exceeds."""
    p = w.profile
    c = out.primary
    if p.workload != "inference" or c is None or not p.budget_usd or p.ttft_target_s is None:
        return None
    if c.budget_status != "misses" or p.latency_ms_per_token is None and p.target_tokens_per_s is None:
        return None  # within the budget, or no speed target to relax: the ranking's own answer stands
    cost = c.capex_usd if p.budget_capex and c.capex_usd is not None else c.total_usd.low
    share = min(1.0, p.budget_usd / cost) if cost > 0 else 1.0
    ms, rate = p.latency_ms_per_token, p.target_tokens_per_s
    within: list[Candidate] = []
    holding: list[Candidate] = []
    for eased in (
        p.with_values("assumed", latency_ms_per_token=ms / share if ms else None,
                      target_tokens_per_s=rate * share if rate else None),
        p.with_values("assumed", latency_ms_per_token=None, target_tokens_per_s=None),
    ):  # fmt: skip
        try:
            out2 = run_engine(resolve_workload(profile=eased, catalog=catalog), catalog, settings, caches)
        except InputError:
            continue
        within = [
            x
            for x in out2.all_feasible
            if x.budget_status == "meets" and x.serving is not None and not x.serving.why_not
        ]
        holding = [x for x in within if _holds_ttft(x, p)]
        if holding:
            break
    budget, target = present.usd(p.budget_usd), f"{p.ttft_target_s:g} s"
    if not holding and within:
        return (
            f"Within your {budget} budget nothing meets the {target} time to first token ({len(within)} "
            "option(s) within it, each over it at the slow end of its range)."
        )
    if not holding:
        return (
            f"Within your {budget} budget no option serves this load even at a reading pace, so none meets "
            f"the {target} time to first token either."
        )
    best = max(holding, key=lambda x: (x.serving.per_user_tokens_per_s.low, -x.cost_mid, x.key))
    speed = present.tokens_per_s_range(best.serving.per_user_tokens_per_s)
    first = ttft_range(best.serving.replica, p)
    asked = ms_per_token_to_tokens_per_s(p.latency_ms_per_token) if p.latency_ms_per_token else None
    wanted = (
        f", short of the {present.number(asked)} tokens/s asked at the slow end"
        if asked is not None and best.serving.per_user_tokens_per_s.low < asked
        else ""
    )
    return (
        f"Within your {budget} budget: {best.total_gpus}x {best.gpu.name} at {best.offer.provider} "
        f"({_price(best, p)}) meets the {target} time to first token ({present.sig2_span(first)} s) "
        f"and gives {speed} per user{wanted}."
    )
