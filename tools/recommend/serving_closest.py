"""The closest serving configuration on the GPU types the user named when a stated per-token latency is out
of reach (issue 14: evals v13 "Qwen3 32B AWQ, 60 sessions at 16k, 30 tok/s each, L40S only, 4 GPUs max" got
39-53 ms per token on 4x L40S against 33 and "Nothing in the catalog fits"; v17 phi-4 on at most 2x L40S,
33-46 ms against 30, the same).

A stated per-token target is met at the fast end of the predicted range, with the slow end named as a risk
(tools.recommend.serving_plan). When the user named the GPU types (p.gpus_wanted) and capped the count, the
answer they need is what those GPUs do, not that nothing in the catalog fits: a replica count whose fast end
reaches LATENCY_SHORTFALL_KEPT of the per-user speed asked for is kept, the fastest one at its fast end,
ranked after every configuration that meets the target (tools.recommend.risk RISK_TARGET_FAST_MISS), with
the miss said in plain words (latency_short_risk). With the GPU type open, the catalog's faster GPUs are the
answer and nothing is kept (tools.recommend.latency_binds names the fastest)."""

from __future__ import annotations

from collections.abc import Callable

from tools import present
from tools.compute.serving import ServingTime
from tools.profile import WorkloadProfile
from tools.ranges import Range
from tools.recommend.ttft_target import ttft_range

LATENCY_SHORTFALL_KEPT = 0.8
"""The share of the stated per-user speed (1000 / ms per token) the fast end must reach to be kept, as
serving_plan's TARGET_SHORTFALL_KEPT keeps an aggregate target: within 20% is 'a little slower than asked',
which the user can weigh against the GPU they named; below it the pick would not be the workload asked for."""

KV_CACHE_SHORT = "exceed what the KV cache holds"
"""The words of a serving plan's rejection when the users do not fit the KV cache (serving_plan), which
tools.recommend.fp8_named reads to tell a load FP8 can hold from a speed it may not reach."""

ServeFn = Callable[[int], ServingTime]


def split_load(serve: ServeFn, total_conc: int, replicas: int) -> tuple[ServingTime, Range]:
    """`total_conc` requests spread as evenly as they go over `replicas`: the busiest replica's time and
    the total tokens/s (replicas with one request fewer deliver their own, lower, rate)."""
    q, rem = divmod(total_conc, replicas)
    busy = serve(q + 1) if rem else serve(q)
    if not rem:
        return busy, busy.output_tokens_per_s.scale(replicas)
    rest = serve(q).output_tokens_per_s.scale(replicas - rem) if q else Range(low=0.0, high=0.0)
    total = busy.output_tokens_per_s.scale(rem)
    return busy, Range(low=total.low + rest.low, high=total.high + rest.high)


def closest_replicas(
    serve: ServeFn, p: WorkloadProfile, max_replicas: int
) -> tuple[int, ServingTime, Range] | None:
    """(replicas, busiest replica's time, total tokens/s) of the replica count within the cap fastest at the
    fast end of its per-token range, when that end reaches LATENCY_SHORTFALL_KEPT of the per-user speed
    asked, the KV cache holds each replica's share and a stated TTFT holds at its fast end; None when none
    does."""
    latency = p.latency_ms_per_token
    if latency is None:
        return None
    total_conc = p.concurrency or 1
    best: tuple[float, int, ServingTime, Range] | None = None
    for r in range(1, max(1, min(max_replicas, total_conc)) + 1):
        t, total = split_load(serve, total_conc, r)
        if t.concurrency > max(t.max_concurrency, 1):
            continue
        fast_ms = t.ms_per_output_token.low
        if fast_ms * LATENCY_SHORTFALL_KEPT > latency:
            continue  # under 80% of the per-user speed even at the fast end
        if p.ttft_target_s and ttft_range(t, p).low > p.ttft_target_s:
            continue
        if best is None or fast_ms < best[0]:
            best = (fast_ms, r, t, total)
    return None if best is None else best[1:]


def latency_short_risk(ms_per_token: Range, per_user_tokens_per_s: Range, latency_ms: float) -> str:
    """The plain words for a configuration kept as the closest: the stated speed, what the replica gives at
    both ends, and what would meet it."""
    return (
        f"misses the {latency_ms:g} ms/token latency target even at the fast end of the range: "
        f"{ms_per_token.low:,.0f}-{ms_per_token.high:,.0f} ms per token, "
        f"{present.tokens_per_s_range(per_user_tokens_per_s)} per user against the "
        f"{present.count(1000.0 / latency_ms)} asked; the closest to it on the GPUs you named, within your "
        "cap (a faster GPU type, or FP8 or 4-bit weights where the model allows, would be needed to meet it)"
    )
