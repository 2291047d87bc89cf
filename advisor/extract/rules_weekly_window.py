"""A service needed in a weekly window written as a day range and a clock range (issue 12; evals v16, read as
development data: a Slack Workflow Builder answer "Mon–Fri, 08:00–20:00 only; switch it off nights and
weekends" was dropped, and the GPUs were priced for all 730 hours of the month).

- utilization = days x hours / 168 h (advisor.extract.units_text.utilization_from_schedule), inferred, from
  "Mon–Fri, 08:00–20:00", "Monday to Friday 8am to 8pm", "weekdays 9:00-17:30", "Sat-Sun 10:00-18:00";
- serving_scheduled when the window is the only time it runs: "only", "switch it off nights", "shut down
  at weekends" in the same sentence (rented GPUs are stopped outside the window, tools/recommend/pricing.py).

A clock range needs a colon or am/pm on one end ("3-4 GPUs" is no time); a sentence saying 24/7 is left to
rule_utilisation; a peak's window ("traffic peaks Mon-Fri 09:00-17:00") is not the time in use.
"""

from __future__ import annotations

import re

from advisor.extract import units_text as U
from advisor.extract.rules_ctx import Ctx, I, q

_DAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
_DAY = r"(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?"
_TO = r"\s*(?:-|–|—|to|through|thru|until|till)\s*"
_DAY_RANGE = re.compile(
    rf"\b(?P<d1>{_DAY}){_TO}(?P<d2>{_DAY})(?![a-z])|\b(?P<wk>weekdays|work\s?days|business\s+days)\b", I
)
_CLOCK = r"(?P<h{n}>\d{{1,2}})(?::(?P<m{n}>[0-5]\d))?\s*(?P<ap{n}>[ap]\.?m\.?)?"
_CLOCK_RANGE = re.compile(rf"\b{_CLOCK.format(n=1)}{_TO}{_CLOCK.format(n=2)}(?![\d:])", I)
_ONLY = re.compile(
    r"\bonly\b|\b(?:switch|turn|shut|power|spin)(?:ed|s)?\s+(?:it\s+|them\s+|everything\s+)?(?:off|down)\b"
    r"|\boff\s+(?:at\s+|during\s+|on\s+)?(?:nights?|weekends?)\b",
    I,
)
_ALWAYS = re.compile(r"\b24\s*[/x×]\s*7\b|\baround the clock\b|\balways[\s-]on\b", I)
_PEAK_BEFORE = re.compile(r"\b(?:peaks?|peaking|busiest|rush)\b[^.;]{0,30}$", I)  # a peak, not the whole use
_NEAR_CHARS = 20  # the day range and the clock range within this many characters of each other


def _hour(h: str, m: str | None, ap: str | None) -> float:
    hour = float(h) % 12 if ap else float(h)
    if ap and ap.lower().startswith("p"):
        hour += 12
    return hour + (float(m) / 60 if m else 0.0)


def _hours(c: re.Match[str]) -> float | None:
    """Hours a day in a clock range, or None when it is not a time of day ("3-4")."""
    if not (c.group("m1") or c.group("m2") or c.group("ap1") or c.group("ap2")):
        return None
    ap1 = c.group("ap1") or (
        c.group("ap2") if c.group("ap2") and int(c.group("h1")) <= int(c.group("h2")) else None
    )
    start = _hour(c.group("h1"), c.group("m1"), ap1)
    end = _hour(c.group("h2"), c.group("m2"), c.group("ap2"))
    said_ap = c.group("ap1") or c.group("ap2")
    if not said_ap and start < 12 <= start + 12 and end < start and end + 12 > start:
        end += 12  # "9 to 5:30" with no am/pm: a working day, 09:00 to 17:30 (evals v18), not past midnight
    if start >= 24 or end > 24:
        return None
    span = end - start if end > start else end + 24 - start  # a window past midnight
    return span if 0 < span < 24 else None


def _days(d: re.Match[str]) -> float:
    if d.group("wk"):
        return 5.0
    a = _DAYS.index(d.group("d1")[:3].lower())
    b = _DAYS.index(d.group("d2")[:3].lower())
    return float((b - a) % 7 + 1)


def rule_weekly_window(ctx: Ctx) -> None:
    """utilization from a day range and a clock range said together; serving_scheduled when only then."""
    for s in ctx.sentences_with(_DAY_RANGE):  # a finding needs a day range
        t = s.text
        if _ALWAYS.search(t):
            continue
        for d in _DAY_RANGE.finditer(t):
            c = next(
                (
                    c
                    for c in _CLOCK_RANGE.finditer(t)
                    if -_NEAR_CHARS <= c.start() - d.end() <= _NEAR_CHARS
                    or 0 <= d.start() - c.end() <= _NEAR_CHARS
                ),
                None,
            )
            hours = _hours(c) if c is not None else None
            if c is None or hours is None or _PEAK_BEFORE.search(t, 0, min(d.start(), c.start())):
                continue
            conv = U.utilization_from_schedule(hours, _days(d))
            said = t[min(d.start(), c.start()) : max(d.end(), c.end())]
            ctx.add(
                s, "utilization", conv.value, f'"{said}": {conv.how}', "inferred", min(d.start(), c.start())
            )
            if ctx.workload == "inference" and (only := _ONLY.search(t)) is not None:
                ev = f'"{said}" ... "{q(only)}": needed only then, rented GPUs stopped outside those hours'
                ctx.add(s, "serving_scheduled", True, ev, "inferred", only.start())
            return
