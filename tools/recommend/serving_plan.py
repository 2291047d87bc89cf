"""How many replicas of one serving configuration (GPU type x tensor-parallel count) a workload needs,
from tools.compute.serving: the fewest replicas that meet the stated throughput and latency at the
stated concurrency (split evenly over replicas, each within what its KV cache holds); for a batch
generation job (profile.generation_tokens), the fewest that finish by the deadline. The GPU filters
a user states (gpus_wanted, gpus_excluded, max_gpus) live here too, for serving and training alike.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from tools.compute.serving import ServingTime
from tools.profile import WorkloadProfile
from tools.ranges import Range

ServingFn = Callable[[int], ServingTime]
"""Per-replica serving time at a per-replica concurrency (the calculator, cached by the caller)."""

OFFLINE_CONCURRENCY = 4096
"""A batch job queues every request at once: the replica runs as many as its KV cache and server hold."""


@dataclass(frozen=True)
class ServingPlan:
    """Replicas of one configuration and what they deliver together; `why_not` when none works."""

    replicas: int
    per_replica_concurrency: int
    replica: ServingTime
    total_tokens_per_s: Range
    job_hours: Range | None = None
    why_not: str | None = None
    latency_at_risk: bool = False


def gpu_ruled_out(gpu_id: str, p: WorkloadProfile) -> str | None:
    """Why the user's own GPU filters rule this GPU type out ('on H100s', 'no consumer cards'), or None."""
    if p.gpus_wanted and gpu_id not in p.gpus_wanted:
        return f"not among the GPUs asked for ({', '.join(p.gpus_wanted)})"
    if gpu_id in p.gpus_excluded:
        return "ruled out by the request"
    return None


def within_max_gpus(total_gpus: int, p: WorkloadProfile) -> bool:
    """Whether a configuration's GPU count (replicas included) respects the user's max_gpus."""
    return p.max_gpus is None or total_gpus <= p.max_gpus


def _job(serve: ServingFn, p: WorkloadProfile, max_replicas: int) -> ServingPlan:
    assert p.generation_tokens is not None
    t = serve(OFFLINE_CONCURRENCY)
    deadline = p.deadline_hours
    best: ServingPlan | None = None
    for r in range(1, max_replicas + 1):
        total = t.output_tokens_per_s.scale(r)
        hours = Range(
            low=p.generation_tokens / total.high / 3600, high=p.generation_tokens / total.low / 3600
        )
        best = ServingPlan(r, t.live_sequences, t, total, job_hours=hours)
        if deadline is None or hours.high <= deadline:
            return best
    assert best is not None
    return best  # misses the deadline even at max_replicas: the deadline check says so


def _best_concurrency(serve: ServingFn, latency_ms: float | None) -> int:
    """No stated concurrency but a throughput target: the largest per-replica load the KV cache holds
    and the latency target allows (throughput grows with load)."""
    cap = max(1, serve(OFFLINE_CONCURRENCY).max_concurrency)
    if latency_ms is None or serve(cap).ms_per_output_token.high <= latency_ms:
        return cap
    lo, hi = 1, cap  # ms per token grows with load: bisect for the last load within the target
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if serve(mid).ms_per_output_token.high <= latency_ms:
            lo = mid
        else:
            hi = mid - 1
    return lo


def plan_serving(
    serve: ServingFn, p: WorkloadProfile, n_gpus: int, max_replicas: int, concurrency_stated: bool
) -> ServingPlan:
    """The fewest replicas of `n_gpus` GPUs that meet the profile's targets, or why none does."""
    if p.generation_tokens:
        return _job(serve, p, max_replicas)
    target, latency = p.target_tokens_per_s, p.latency_ms_per_token
    if target and not concurrency_stated:
        per = _best_concurrency(serve, latency)
        t = serve(per)
        replicas = max(1, math.ceil(target / t.output_tokens_per_s.low))
        if replicas > max_replicas:
            return _none(
                t, per, replicas, f"needs {replicas} replicas of {n_gpus} GPU(s) for {target:,.0f} tokens/s"
            )
        at_risk = bool(latency and t.ms_per_output_token.high > latency)
        return ServingPlan(replicas, per, t, t.output_tokens_per_s.scale(replicas), latency_at_risk=at_risk)
    total_conc = p.concurrency or 1
    why = ""
    for r in range(1, max_replicas + 1):
        per = math.ceil(total_conc / r)
        t = serve(per)
        if per > max(t.max_concurrency, 1):
            why = f"{per} requests per replica exceed what the KV cache holds ({t.max_concurrency})"
            continue
        if latency and t.ms_per_output_token.low > latency:
            why = (
                f"{t.ms_per_output_token.low:,.0f}-{t.ms_per_output_token.high:,.0f} ms per token at {per} "
                f"requests per replica of {n_gpus} GPU(s); the {latency:g} ms/token latency target needs "
                f"{1000 / latency:,.0f} tokens/s per user"
            )
            continue
        total = t.output_tokens_per_s.scale(r)
        if target and total.low < target:
            why = f"{r} replica(s) of {n_gpus} GPU(s) give {total.low:,.0f} tokens/s, target {target:,.0f}"
            continue
        at_risk = bool(latency and t.ms_per_output_token.high > latency)
        return ServingPlan(r, per, t, total, latency_at_risk=at_risk)
    t = serve(math.ceil(total_conc / max_replicas))
    return _none(t, t.concurrency, max_replicas, f"{why} (at up to {max_replicas} replicas)")


def _none(t: ServingTime, per: int, replicas: int, why: str) -> ServingPlan:
    return ServingPlan(replicas, per, t, t.output_tokens_per_s.scale(replicas), why_not=why)
