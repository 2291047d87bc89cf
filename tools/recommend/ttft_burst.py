"""The simultaneous arrivals a time-to-first-token check assumes, said, and what a cheaper GPU tolerates
(expert review 12, R15: "Llama 3.2 3B, 20 users, first token under 500 ms, cheapest single GPU" got a
$1,672/month GH200 with no word on why an L40S at about a third of that would not do).

The serving model's TTFT band (tools/compute/serving_steps.py `time_to_first_token`) runs from arrivals
spread over time (M/D/1 mean wait, its fast end) to a wave: every request of a replica arriving at once,
each waiting on average for half of the others' prefills (its slow end). With the assumed per-user speed
floor or a percentile target the recommender holds the TTFT target at the slow end
(tools/recommend/serving_plan.py `_plan_load`), so its pick assumes all of a replica's requests arrive
together. serving_plan.arrivals_words says that in the TTFT line; `burst_note`, for a "cheapest" request,
names the cheaper established on-demand offers of other GPUs that meet the target when fewer prompts arrive
at once (and how many), at the same GPUs per replica: the trade-off a buyer weighs against the pick.

k prompts arriving at once on a replica that carries `per` requests: the engine's slow-end TTFT at k
requests, plus the slower decode step at `per` live sequences than at k (one step of the wait is a decode
step; the prefills queued are the k prompts'): TTFT_k = ttft_high(k) + (step_high(per) - step_high(k)).
"""

from __future__ import annotations

from typing import Any

from tools import present
from tools.catalog.schema import PriceRecord
from tools.profile import WorkloadProfile
from tools.recommend.candidates import Layout, provider_matches
from tools.recommend.engine import Engine
from tools.recommend.outcome import Outcome
from tools.recommend.regions import allowed as region_allowed
from tools.recommend.risk import COMMUNITY_TIERS
from tools.recommend.serving_plan import gpu_ruled_out
from tools.recommend.ttft_target import at_percentile
from tools.units import HOURS_PER_MONTH, ms_to_seconds  # the price-sheet month, 730 h

MAX_SHOWN = 3
"""Cheaper options named in the note, at most (a buyer reads a short trade-off, not a table)."""


def _ttft_at_once(eng: Engine, gpu: Any, n: int, k: int, per: int, dp: int = 1) -> float:
    """Slow-end seconds to the first token when k of `per` live requests arrive together (module
    docstring); with `dp` engine copies the k split over them (tools.compute.serving_copies)."""
    at_k, at_per = eng.calc.serving(gpu, n, k, dp=dp), eng.calc.serving(gpu, n, per, dp=dp)
    step_extra_s = ms_to_seconds(at_per.ms_per_output_token.high - at_k.ms_per_output_token.high)
    return float(at_k.time_to_first_token_s.high + max(0.0, step_extra_s))


def _offer_allowed(r: PriceRecord, p: WorkloadProfile, n: int) -> bool:
    """An established on-demand offer the profile's provider rules allow, selling `n` GPUs per node."""
    return (
        r.pricing == "on_demand"
        and r.tier.lower() not in COMMUNITY_TIERS  # rule 2: an endpoint runs on an established tier
        and not r.reference_only
        and n in r.gpus_per_node
        and region_allowed(r.region, r.eu, r.areas, p)
        and not (p.providers_excluded and provider_matches(r.provider, p.providers_excluded))
        and (not p.providers_required or provider_matches(r.provider, p.providers_required))
    )


def _tolerated(eng: Engine, gpu: Any, layout: Layout, per: int, target: float) -> int:
    """The most of `per` requests that may arrive at once on `layout` with the slow-end TTFT within `target`;
    0 when it misses even with arrivals spread over time or is too slow per user at the full load."""
    n, dp = layout.n_gpus, layout.dp
    at_all = eng.calc.serving(gpu, n, per, dp=dp)
    if at_all.time_to_first_token_s.low > target:
        return 0  # misses even with arrivals spread over time
    p = eng.p
    if p.latency_ms_per_token and at_all.ms_per_output_token.high > p.latency_ms_per_token:
        return 0  # too slow per user at the full load
    return max((j for j in range(2, per) if _ttft_at_once(eng, gpu, n, j, per, dp) <= target), default=0)


def burst_note(out: Outcome) -> str | None:
    """For a cheapest serving request with a TTFT target: the cheaper other GPUs that meet it with fewer
    simultaneous arrivals than the pick assumes, and how many each tolerates (module docstring); else None."""
    eng, c = out.engine, out.primary
    p = eng.p
    if not eng.inference or c is None or c.serving is None or p.ttft_target_s is None:
        return None
    if p.objective != "cheapest" or c.serving.job_hours is not None or c.layout.nodes > 1:
        return None
    if at_percentile(p):
        return None  # a percentile target is judged under steady arrivals, not all at once (review 14, R13)
    per, n, target = c.serving.per_replica_concurrency, c.layout.n_gpus, p.ttft_target_s
    if per <= 1:
        return None
    found: list[tuple[float, str, PriceRecord, int]] = []
    for gpu in eng.catalog.gpus:
        if gpu.id == c.gpu.id or gpu.consumer or gpu_ruled_out(gpu.id, p):
            continue
        offers = [r for r in eng.catalog.prices_for(gpu.id) if _offer_allowed(r, p, n)]
        if not offers:
            continue
        rec = min(offers, key=lambda r: r.usd_per_gpu_hour)
        monthly_usd = rec.usd_per_gpu_hour * n * HOURS_PER_MONTH * c.serving.replicas
        if monthly_usd >= c.cost_mid:
            continue
        # each layout that fits, engine copies included, as the ranking serves them (srv14): the most arrivals
        k = max((_tolerated(eng, gpu, lay, per, target) for lay, _e, _f in eng.calc.fit_layouts(gpu, n, 1)),
                default=0)  # fmt: skip
        if k >= 2:  # one at a time is no burst
            found.append((monthly_usd, gpu.name, rec, k))
    # the trade-off frontier: by price, each option kept only when it tolerates more arrivals than every
    # cheaper one (at most MAX_SHOWN)
    shown: list[str] = []
    most = 0
    for monthly_usd, name, rec, k in sorted(found, key=lambda x: x[0]):
        if k > most and len(shown) < MAX_SHOWN:
            most = k
            shown.append(
                f"{n}x {name} at {rec.provider} (on demand, {present.usd(monthly_usd)} per month) "
                f"meets it if at most {k} arrive together"
            )
    if not shown:
        return None
    return (
        f"The {target:g} s first-token target is held with all {per} prompts arriving at once (the pick"
        + (f", {-(-per // c.layout.dp)} on each of its {c.layout.dp} engines" if c.layout.dp > 1 else "")
        + "). "
        "With fewer at once, cheaper GPUs meet it: " + "; ".join(shown) + "."
    )
