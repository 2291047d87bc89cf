"""The two counts of a "how many <GPU>?" answer against a deadline (expert review 16, R16).

"Pretrain a 7B model on 2T tokens ... 60 days. How many H100s" was answered "128 with margin" only: the count
whose slow end (low MFU) meets the deadline. A buyer computes the count at the expected MFU (6 x 7e9 x 2e12 =
8.4e22 FLOP = ~67k H100-hours at MFU 0.35: 48-64 H100 in 1,440 h) and wants to see the trade-off, so the
answer gives both, each priced:

- at the middle of the range: the fewest of the GPU whose time range has its middle within the deadline
  while its slow end misses it (deadline status "maybe", tools/recommend/risk.py), with by how many days;
- with margin: the fewest that meet it even at the slow end (status "meets").

When one count meets the deadline at both ends and no smaller count meets it at the middle, there is no pair:
that count alone. When no count meets it at the slow end, the middle count (if any) is given and the safe
count said to be out of the catalog's reach. The pick stays the objective's (tools/recommend/score.py); the
answer says which count it is and why.
"""

from __future__ import annotations

from dataclasses import dataclass

from tools import present
from tools.profile import WorkloadProfile
from tools.recommend.candidates import Candidate

HOURS_PER_DAY = 24.0
"""Hours in a day (the slow end's miss is said in days, as the deadline was: '60 days')."""


@dataclass(frozen=True)
class CountPair:
    """The counts of one GPU type against a deadline (module docstring); either may be None."""

    middle: Candidate | None
    """Fewest whose range's middle meets the deadline, its slow end missing it."""
    safe: Candidate | None
    """Fewest that meet the deadline at the slow end too."""
    tight: Candidate | None
    """Fewest that meet it only at the fast end (the middle misses too), when fewer than both above."""


def count_pair(cands: list[Candidate], deadline_hours: float, primary: Candidate) -> CountPair:
    """The pair of counts among `cands` (one GPU type, each with a deadline status). Each count is priced at
    the pick's provider where it sells that count, else the cheapest; spot only when the pick is spot, so
    the two are priced alike (review 12's R04 priced the 8 on spot beside the 16 on demand)."""
    spot = primary.offer.pricing == "spot"
    cands = [c for c in cands if (c.offer.pricing == "spot") == spot] or cands

    def fewest(among: list[Candidate]) -> Candidate | None:
        return min(
            among,
            key=lambda c: (c.total_gpus, c.offer.provider != primary.offer.provider, c.cost_mid),
            default=None,
        )

    safe = fewest([c for c in cands if c.deadline_status == "meets"])
    maybe = [c for c in cands if c.deadline_status == "maybe"]
    if safe is not None:
        maybe = [c for c in maybe if c.total_gpus < safe.total_gpus]
    middle = fewest([c for c in maybe if c.wall_hours.mid <= deadline_hours])
    tight = fewest([c for c in maybe if c.wall_hours.mid > deadline_hours])
    if tight is not None and middle is not None and tight.total_gpus >= middle.total_gpus:
        tight = None
    return CountPair(middle=middle, safe=safe, tight=tight)


def _span(c: Candidate) -> str:
    """The count's wall-clock range ('853 – 1,906 h')."""
    return present.hours_range(c.wall_hours, with_days=False)


def _priced(c: Candidate) -> str:
    """The count's cost range and where ('$170,063 – $380,141 at nebius')."""
    return f"{present.usd_range(c.cost_usd)} at {c.offer.provider}"


def middle_text(c: Candidate, deadline_hours: float) -> str:
    """The middle count in words, with its priced range and the slow end's miss in days."""
    late_days = (c.wall_hours.high - deadline_hours) / HOURS_PER_DAY
    return (
        f"{c.total_gpus} meets it at the middle of the range ({_span(c)}, middle "
        f"{present.hours(c.wall_hours.mid)}; {_priced(c)}), but at the slow end (low MFU) it misses "
        f"by {late_days:,.0f} days"
    )


def safe_text(c: Candidate) -> str:
    """The safe count in words, with its priced range."""
    return f"{c.total_gpus} with margin ({_span(c)}: meets it even at the low end; {_priced(c)})"


def tight_text(c: Candidate) -> str:
    """A count that meets the deadline only at the fast end of its range."""
    return (
        f"{c.total_gpus} is tight ({_span(c)}: meets it only at the high end of the MFU range; {_priced(c)})"
    )


def pick_reason(pair: CountPair, primary: Candidate, p: WorkloadProfile) -> str | None:
    """Which of the pair the pick is, and why under the objective; None without a pair."""
    middle, safe = pair.middle, pair.safe
    if middle is None or safe is None:
        return None
    objective = p.objective or "balanced"
    saving = safe.cost_mid - middle.cost_mid
    money = (
        f"{present.usd(abs(saving))} {'less' if saving > 0 else 'more'} at the middle of the cost range"
        if abs(saving) >= 1.0
        else "about the same (the same GPU-hours)"
    )
    if primary.total_gpus == safe.total_gpus:
        if objective == "balanced":
            why = (
                f"balanced: the {middle.total_gpus} costs {money}, but a deadline met only at the middle of "
                "the range ranks below one met at the slow end too"
            )
        else:
            why = f"{objective}: options meeting the deadline only at the fast end come after sure ones"
        return f"The pick is the {safe.total_gpus} ({why})."
    if primary.total_gpus == middle.total_gpus:
        why = (
            f"{objective}: {money} and {safe.layout.nodes - middle.layout.nodes} fewer nodes outweigh the "
            "risk of the slow end"
        )
        sure = f"ask for the {safe.total_gpus} to be sure of the date"
        return f"The pick is the {middle.total_gpus} ({why}); {sure}."
    return None
