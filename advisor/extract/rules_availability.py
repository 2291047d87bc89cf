"""Availability rule: the uptime a serving deployment must reach, as a fraction (availability_target).

- "99.9% uptime", "99.95% availability", "an SLA of 99.9%", "uptime of 99.99 percent": stated.
- "three nines", "four nines": inferred (n nines = 1 - 10^-n).
- "high availability", "highly available", "HA", "no single point of failure": inferred as
  HA_AVAILABILITY (tools.recommend.serving_plan), the level at which the planner runs a spare replica.
- "public API", "customer-facing", "production endpoint / API / service / traffic", "in production", a bare
  "SLA" (expert review 16, R10: a public Mixtral API got one GPU with no spare): when nothing above states
  an uptime, HA_AVAILABILITY is taken as an assumption (PRODUCTION_ASSUMED in the evidence, which the reply
  names): a production endpoint is expected to stay up while a node fails or is upgraded. Not in a
  sentence that calls the service internal, nor for a batch generation job (serving_plan.needs_spare).
A negation before the words ("no need for HA", "not high availability") drops the finding. Every
pattern is linear (no nested repetition).
"""

from __future__ import annotations

import re

from advisor.extract.rules_ctx import Ctx, Gated, I, negated, q
from tools.recommend.serving_plan import HA_AVAILABILITY
from tools.recommend.serving_spare import PRODUCTION_ASSUMED

_NOUN = r"(?:up[- ]?time|availability|available|sla|slo)"
_PCT = r"(?P<num>9\d(?:\.\d+)?)\s*(?:%|percent\b)"
_PCT2 = _PCT.replace("num", "num2")
_PERCENT = Gated(
    re.compile(
        rf"{_PCT}\s*(?:(?:\w+\s+)?{_NOUN}\b)"
        rf"|\b{_NOUN}\s*(?:(?:target|goal|of|at|is|must\s+be|needs?\s+to\s+be|above|at\s+least|:|=)\s*)*{_PCT2}"
        # the promise named after the noun (evals v16): "Uptime commitment in the MSA: 99.9%"
        rf"|\b{_NOUN}\s+(?:commitment|guarantee|promise|requirement|obligation)(?:\s+(?:in|per|under|of)\s+"
        rf"(?:the\s+|our\s+|their\s+)?[\w-]+)?\s*(?:[:=]|is|of)?\s*{_PCT.replace('num', 'num3')}",
        I,
    ),
    "uptime", "up time", "up-time", "availab", "sla", "slo",
)  # fmt: skip
_NINES = Gated(re.compile(r"\b(?P<n>two|three|four|five|[2-5])\s+nines\b", I), "nines")
_HA = Gated(
    re.compile(
        r"\bhigh(?:ly)?[- ]availab(?:ility|le)\b|\bno\s+single\s+points?\s+of\s+failure\b|(?-i:\bHA\b)", I
    ),
    "availab", "single point", "ha",
)  # fmt: skip
_PRODUCTION = Gated(
    re.compile(
        r"\bpublic(?:[- ]facing)?\s+(?:api|endpoint|service|chat(?:bot)?)\b|\bcustomer[- ]facing\b"
        r"|\bproduction\s+(?:endpoint|api|service|traffic|deployment|chat(?:bot)?|app|application)\b"
        r"|\b(?:in|into|to)\s+production\b|(?-i:\bSLAs?\b)",
        I,
    ),
    "public", "customer", "production", "sla",
)  # fmt: skip
_INTERNAL = re.compile(r"\binternal(?:ly)?\b|\bin[- ]house\s+(?:tool|users?)\b", I)
_NINES_COUNT = {"two": 2, "three": 3, "four": 4, "five": 5}


def rule_availability(ctx: Ctx) -> None:
    """availability_target from a percentage, a count of nines or words asking for high availability."""
    for s in ctx.sentences_with(_PERCENT, _NINES, _HA):  # a finding needs one of them to match
        t = s.text
        for m in _PERCENT.finditer(t):
            pct = float(m.group("num") or m.group("num2") or m.group("num3"))
            if 90 <= pct < 100 and not negated(t, m.start()):
                ctx.add(s, "availability_target", round(pct / 100, 6), q(m), "stated", m.start())
        for m in _NINES.finditer(t):
            word = m.group("n").lower()
            n = _NINES_COUNT.get(word) or int(word)
            if not negated(t, m.start()):
                value = round(1 - 10.0**-n, 6)
                ctx.add(s, "availability_target", value, f'"{q(m)}" -> {value:.{n}%}', "inferred", m.start())
        for m in _HA.finditer(t):
            if not negated(t, m.start()) and not _HA_NOT_NEEDED.match(t, m.end()):
                ev = f'"{q(m)}" -> {HA_AVAILABILITY:.1%} (one replica may fail; tools.recommend.serving_plan)'
                ctx.add(s, "availability_target", HA_AVAILABILITY, ev, "inferred", m.start())
    if ctx.has("availability_target"):
        return  # an uptime the user gives outranks the production assumption
    for s in ctx.sentences_with(_PRODUCTION):
        t = s.text
        if _INTERNAL.search(t):
            continue
        for m in _PRODUCTION.finditer(t):
            if not negated(t, m.start()):
                ev = f'"{q(m)}" -> {HA_AVAILABILITY:.1%} ({PRODUCTION_ASSUMED})'
                ctx.add(s, "availability_target", HA_AVAILABILITY, ev, "inferred", m.start())
                return


_HA_NOT_NEEDED = re.compile(r"\s+(?:is\s+|are\s+)?(?:not\s+(?:needed|required|necessary)|optional)\b", I)
