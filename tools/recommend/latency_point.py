"""Where in a predicted range a stated latency target is judged (expert review 20, R04: "p50 latency must
be under 400 ms" got "0.25-0.49 s per answer: over at the slow end of your 0.4 s target", the median read
as no percentile at all).

- a percentile target ('p95 under 2 s', WorkloadProfile.latency_percentile) holds at the range's slow end
  (the busy moment: expert review 11, R08);
- a median target ('p50', 'median', WorkloadProfile.latency_median) at its middle, (low + high) / 2: half
  the answers take longer, the range's middle is the typical moment (MEDIAN_POINT, an assumption named in
  the words);
- a target with no percentile: within when the slow end holds, else over at the slow end, or over."""

from __future__ import annotations

from tools import present
from tools.profile import WorkloadProfile

MEDIAN_POINT = 0.5
"""Fraction of the way from the fast to the slow end a median target is judged at: the range's middle."""


def percentile_words(p: WorkloadProfile) -> str:
    """'p95 ' for a percentile target, 'p50 ' for a median one, '' without one."""
    if p.latency_median and p.latency_percentile is None:
        return "p50 "
    return "" if p.latency_percentile is None else f"p{present.number(p.latency_percentile)} "


def answer_verdict(p: WorkloadProfile, low: float, high: float, target: float) -> str:
    """The words before 'your ... target' for a predicted [low, high] against it (module docstring)."""
    if p.latency_percentile is not None:
        return "within" if high <= target else "misses (at the slow end of the range)"
    if p.latency_median:
        mid = low + (high - low) * MEDIAN_POINT
        where = f"{present.sig2(mid)} s, the middle of the range, taken as the median"
        if high <= target:
            return "within"
        return f"within at the middle ({where}; the slow end is over)" if mid <= target else f"over ({where})"
    return "within" if high <= target else ("over at the slow end of" if low <= target else "over")
