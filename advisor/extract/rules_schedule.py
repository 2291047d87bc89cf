"""A serving endpoint that runs only in stated hours (expert review 10, R11: "inference for about 20 chat
users during business hours only (10 h a day, weekdays)" was read as 30% utilisation but priced at all 730
hours of the month).

rule_utilisation (advisor/extract/rules_context.py) reads the share of time; this rule reads that the
service is needed ONLY then, so rented GPUs are stopped outside those hours and billed for the hours they run
(serving_scheduled, tools/recommend/pricing.py). Said as "business hours only", "only during office hours",
"during working hours", "weekdays only", "only 10 h a day", "we only need it 9 to 5". A load that is merely
low ("busy 30% of the time") or a pattern with no "only" ("peak during business hours") is no schedule.
"""

from __future__ import annotations

import re

from advisor.extract.regex_keys import keyed
from advisor.extract.rules_ctx import Ctx, I

_HOURS = r"(?:business|office|working|work)\s+hours|9\s*(?:-|–|to)\s*(?:5|6)|nine\s+to\s+(?:five|six)"
_DAILY = r"\d+(?:\.\d+)?\s*(?:h|hrs?|hours?)\s*(?:a|per|/)\s*day"
_ONLY_THEN = keyed(
    rf"\b(?:{_HOURS})\s+only\b|\bonly\s+(?:\w+\s+){{0,4}}?(?:during|in|within|for)?\s*(?:the\s+)?(?:{_HOURS})\b"
    rf"|\b(?:weekdays|work\s?days|business\s+days)\s+only\b|\bonly\s+(?:on\s+)?(?:weekdays|work\s?days)\b"
    rf"|\bonly\s+(?:\w+\s+){{0,3}}?{_DAILY}|\b{_DAILY}\s+only\b"
    rf"|\b(?:used|needed|up|online|running|open|available)\s+(?:only\s+)?during\s+(?:the\s+)?(?:{_HOURS})\b",
    I,
)
_ALWAYS = re.compile(r"\b24\s*[/x×]\s*7\b|\baround the clock\b|\balways[\s-]on\b", I)


def rule_serving_schedule(ctx: Ctx) -> None:
    """serving_scheduled (inferred) when a serving request says the service is needed only in set hours."""
    if ctx.workload != "inference" or not any(f.field == "utilization" for f in ctx.findings):
        return
    for s in ctx.sentences_with(_ONLY_THEN):  # a finding needs it to match
        m = _ONLY_THEN.search(s.text)
        if m is not None and _ALWAYS.search(s.text) is None:
            ev = f'"{m.group(0)}": needed only then, so rented GPUs are stopped outside those hours'
            ctx.add(s, "serving_scheduled", True, ev, "inferred", m.start())
            return
