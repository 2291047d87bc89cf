"""The load a stated rate puts on one serving replica (expert review 14, R11: "30 requests per minute, 1k in /
300 out" on one L40S was quoted at 155 streams in flight, the most its memory holds, while the rate keeps
about a dozen busy). Requests in flight = arrival rate x time each takes (Little's law, J. D. C. Little,
Operations Research 9(3), 1961). The time each request takes is the serving model's own: its first token
(one prompt's prefill, tools/compute/serving.py `prefill_s`) plus output tokens x ms per output token
(expert review 19, R09/P11: a request rate was read as that many requests in flight). Both depend on the
load, so the load is found by search: the fewest requests in flight L whose completions per second,
L / (TTFT + O x ms per token), reach the arrival rate (target tokens/s / O), at the slow end of the ranges.
Equivalently, the output tokens/s at L scaled by the decode share O x ms / (TTFT + O x ms) reach the target.
"""

from __future__ import annotations

from collections.abc import Callable

from tools.compute.serving import ServingTime
from tools.trace import TraceBuilder
from tools.units import ms_to_seconds


def request_seconds(t: ServingTime) -> tuple[float, float]:
    """(seconds to the first token, seconds of decode) one request takes at the load `t`, slow end: one
    prompt's prefill (the first-token figure without a queue when the model gave none) and O x ms/token."""
    first = t.prefill_s.high if t.prefill_s is not None else t.time_to_first_token_s.low
    return first, ms_to_seconds(t.output_tokens * t.ms_per_output_token.high)


def served_tokens_per_s(t: ServingTime) -> float:
    """Output tokens/s the load `t` completes when each request also waits for its first token (slow end)."""
    first, decode = request_seconds(t)
    return t.output_tokens_per_s.low * decode / (first + decode) if first + decode > 0 else 0.0


def rate_load(serve: Callable[[int], ServingTime], target_tokens_per_s: float, cap: int) -> int:
    """The fewest requests in flight on one replica (at most `cap`) whose completed output tokens/s reach
    `target_tokens_per_s` at the slow end (Little's law, module docstring); `cap` when none below it does."""
    lo, hi = 1, max(1, cap)
    while lo < hi:
        mid = (lo + hi) // 2
        if served_tokens_per_s(serve(mid)) >= target_tokens_per_s:
            hi = mid
        else:
            lo = mid + 1
    return lo


def trace_rate_load(tb: TraceBuilder, t: ServingTime, target_tokens_per_s: float, replicas: int) -> None:
    """Record Little's law for the load `t` one of `replicas` replicas carries under a stated rate."""
    if t.output_tokens <= 0 or replicas < 1:
        return
    first, decode = request_seconds(t)
    arrivals = tb.step(
        "requests per second per replica",
        "target tokens/s / output tokens per request / replicas",
        target_tokens_per_s / t.output_tokens / replicas,
        "requests/s",
        target_tokens_per_s=target_tokens_per_s,
        output_tokens=t.output_tokens,
        replicas=replicas,
    )
    tb.step(
        "requests in flight per replica (Little's law)",
        "arrival rate x (TTFT + output tokens x ms per token / 1000)",
        arrivals * (first + decode),
        "requests",
        source="J. D. C. Little, Operations Research 9(3), 1961; TTFT = one prompt's prefill, slow end",
        arrival_rate_per_s=arrivals,
        ttft_s=first,
        output_tokens=t.output_tokens,
        ms_per_output_token=t.ms_per_output_token.high,
        sized_at_requests_in_flight=t.concurrency,
    )
