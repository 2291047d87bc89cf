"""A job to be done over a weekend: "Cheapest option that finishes over a weekend please" (expert review 6,
R02: the words were dropped and a 48-72 h pick overshot the weekend).

A weekend, as a window for a run, is Friday evening to Monday morning: WEEKEND_HOURS (60 h,
advisor/extract/units_text.py); a long weekend adds a day (LONG_WEEKEND_HOURS). The deadline is inferred
and its evidence names the assumption. A claim ("two A100s would do it over the weekend") is read by the
claim rules, and a schedule ("our evals run over the weekend", "we only work on it on weekends") states no
deadline.
"""

from __future__ import annotations

from advisor.extract.regex_keys import keyed
from advisor.extract.rules_ctx import Ctx, I, q
from advisor.extract.units_text import LONG_WEEKEND_HOURS, WEEKEND_HOURS

# a completion word, then "over a/the (long) weekend" within a few words: "finishes over a weekend",
# "done over the weekend", "can be trained over a long weekend", "has to complete over the weekend";
# or the weekend granted: "a weekend is all we have", "we have (just) the weekend"
_WEEKEND = keyed(
    r"\b(?:finish\w*|done|complete[sd]?|completing|ready|trained|wrapped\s+up|turned\s+around|fit\w*)\s+"
    r"(?:\w+\s+){0,2}?(?:over|during|within|in|by\s+the\s+end\s+of)\s+(?:a|the|one|this|next|one\s+single)\s+"
    r"(?P<long>long\s+)?weekend\b"
    r"|\b(?:we\s+have|we'?ve\s+got|we\s+get)\s+(?:only\s+|just\s+)?(?:a|the|one)\s+(?P<long2>long\s+)?weekend\b"
    r"|\b(?:an?|one)\s+(?P<long3>long\s+)?weekend\s+is\s+(?:all\s+we\s+have|what\s+we\s+have|the\s+deadline)\b",
    I,
)


def rule_weekend(ctx: Ctx) -> None:
    """deadline_hours from a job to be done over a weekend (module docstring)."""
    for s in ctx.sentences_with(_WEEKEND):  # a finding needs it to match
        if s.start in ctx.claim_sentences:
            continue
        for m in _WEEKEND.finditer(s.text):
            long_ = bool(m.group("long") or m.group("long2") or m.group("long3"))
            hours = LONG_WEEKEND_HOURS if long_ else WEEKEND_HOURS
            span = "Friday evening to Tuesday morning" if long_ else "Friday evening to Monday morning"
            kind = "long weekend" if long_ else "weekend"
            how = f'"{q(m)}" read as {hours:g} h (a {kind}: {span}; say if yours differs)'
            ctx.add(s, "deadline_hours", hours, how, "inferred", m.end())
