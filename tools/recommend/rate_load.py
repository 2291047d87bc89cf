"""The load a stated rate puts on one serving replica (expert review 14, R11: "30 requests per minute, 1k in /
300 out" on one L40S was quoted at 155 streams in flight, the most its memory holds, while the rate keeps
about a dozen busy). Requests in flight = arrival rate x time each takes (Little's law, J. D. C. Little,
Operations Research 9(3), 1961); with tokens/s = requests in flight / seconds per output token, the load
is the fewest requests in flight whose tokens/s reach the rate, here at the slow end of the range."""

from __future__ import annotations

from collections.abc import Callable

from tools.compute.serving import ServingTime


def rate_load(serve: Callable[[int], ServingTime], target_tokens_per_s: float, cap: int) -> int:
    """The fewest requests in flight on one replica (at most `cap`) whose output tokens/s reach
    `target_tokens_per_s` at the slow end; `cap` when none below it does (tokens/s grows with the load)."""
    lo, hi = 1, max(1, cap)
    while lo < hi:
        mid = (lo + hi) // 2
        if serve(mid).output_tokens_per_s.low >= target_tokens_per_s:
            hi = mid
        else:
            lo = mid + 1
    return lo
