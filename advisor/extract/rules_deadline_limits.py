"""A time budget said as a limit, read as the deadline (deadline_hours) when the other deadline rules read
none (expert review 18, R15 turn 3 in other words: "10 hours is our limit", "we can't go over 10 h" were
listed as constraints not understood, so the pick ignored the time budget).

The forms, each with a duration in hours, days or weeks:
- the duration named the limit: "10 hours is our limit", "12 h is the hard cap", "two days is our max";
- the limit named with the duration: "our limit is 12 hours", "the time budget is 3 days", "our cap: 10 h",
  "we have a 10-hour limit", "a strict 2-day cap";
- the job may not pass it: "we can't go over 10 h", "it cannot take longer than 10 hours", "the run must not
  exceed 8 hours", "we don't want it to run more than 6 hours";
- a longer run refused: "anything over 10h is too long", "anything beyond 2 days won't work";
- a bound before the duration: "no more than 10 hours", "no longer than 8 h", "at most 10 hours", "a maximum
  of 10 hours" ("10 hours max" is rules_deadline_forms).

Not these: another party's limit ("Colab's 12-hour limit", "spot instances can't run longer than 6 hours":
the subject is not the team or its job), a rate ("we can't go over 10 hours per week", "at most 4 hours a
day": a schedule, rules_weekly_window), GPU-hours ("no more than 500 GPU-hours": a compute budget), and a
claim's hours (rules_claims marks those sentences).
"""

from __future__ import annotations

import re

from advisor.extract import units_text as U
from advisor.extract.regex_keys import keyed
from advisor.extract.rules_ctx import Ctx, I, q
from advisor.extract.rules_text import NUMBER, Sentence, parse_number

_DUR = (
    rf"(?:~\s*|about\s+|around\s+|roughly\s+|approx\.?\s*)?(?P<num>{NUMBER})\s*-?\s*"
    r"(?P<unit>hours?|hrs?|h|days?|weeks?)\b"
)
# not a rate, nor GPU-hours: "10 hours per week", "4 hours a day", "10 h of GPU time", "500 GPU-hours"
_NOT_AFTER = re.compile(
    r"\s*(?:per\b|a\s+(?:day|week|month|night)\b|an?\s+(?:run|job)\b|each\b|every\b|/|of\s+(?:gpu|compute|cluster)"
    r"|(?:of\s+)?gpu[\s-]?hours?)",
    I,
)
_LIMIT_NOUN = (
    r"(?:hard\s+|absolute\s+|strict\s+|firm\s+|upper\s+|time\s+|wall[\s-]?clock\s+|run[\s-]?time\s+)*"
    r"(?:limit|cap|ceiling|max(?:imum)?|bound|time\s*budget|budget)"
)
# the team or its job as the subject of a refusal (not "spot instances can't run longer than 6 hours")
_SUBJECT = (
    r"(?:^|\b(?:we|it|this|that|training|the\s+(?:job|run|training|fine[\s-]?tune|finetune|whole\s+thing|thing"
    r"|pipeline|experiment)|(?:the|our|this)\s+\w+\s+(?:job|run))\s+)"
)
_NEG = (
    r"(?:can['’]?t|cannot|can\s+not|mustn['’]?t|must\s+not|shouldn['’]?t|should\s+not|won['’]?t|will\s+not|may\s+not"
    r"|(?:is|are)\s+not\s+allowed\s+to|(?:are|is)\s+unable\s+to|don['’]?t\s+want\s+(?:it\s+|this\s+)?to"
    r"|do\s+not\s+want\s+(?:it\s+|this\s+)?to)"
)
_FORMS = (
    # "10 hours is our limit", "two days is the hard cap"
    keyed(rf"\b{_DUR}\s+(?:is|are)\s+(?:our|the|my)\s+{_LIMIT_NOUN}\b", I),
    # "our limit is 12 hours", "the time budget is 3 days", "our cap: 10 h"
    keyed(rf"\b(?:our|the|my)\s+{_LIMIT_NOUN}\s*(?:is|=|:|of)\s*{_DUR}", I),
    # "we have a 10-hour limit", "a strict 2-day cap", "with a hard 12 h ceiling"
    keyed(
        rf"\b(?:our|my|(?:we\s+have|there['’]?s|with|under)\s+an?)\s+(?:hard\s+|strict\s+|firm\s+|absolute\s+)?"
        rf"{_DUR}\s+(?:hard\s+|strict\s+)?(?:limit|cap|ceiling|time\s*budget|max(?:imum)?)\b",
        I,
    ),
    # "we can't go over 10 h", "it cannot take longer than 10 hours", "the run must not exceed 8 hours"
    keyed(
        rf"{_SUBJECT}{_NEG}\s+(?:afford\s+to\s+)?(?:(?:go|run|take|last|be|wait|stretch|spend)\s+(?:any\s+|much\s+)?"
        rf"(?:over|beyond|past|longer\s+than|more\s+than|above)|exceed|pass|overrun)\s+{_DUR}",
        I,
    ),
    # "anything over 10h is too long", "anything beyond 2 days won't work"
    keyed(
        rf"\banything\s+(?:over|beyond|above|past|longer\s+than|more\s+than)\s+{_DUR}\s+(?:is|would\s+be|will\s+be)?"
        r"\s*(?:too\s+(?:long|slow|late)|unacceptable|a\s+no[\s-]?go|not\s+(?:ok|okay|acceptable|an\s+option)|out"
        r"|won['’]?t\s+(?:work|do|fly)|doesn['’]?t\s+work)\b",
        I,
    ),
    # "no more than 10 hours", "no longer than 8 h", "at most 10 hours", "a maximum of 10 hours"
    keyed(rf"\b(?:no\s+(?:more|longer)\s+than|at\s+most|(?:a\s+)?max(?:imum)?\s+of)\s+{_DUR}", I),
)


def _limit(ctx: Ctx, s: Sentence) -> bool:
    for rx in _FORMS:
        for m in rx.finditer(s.text):
            if _NOT_AFTER.match(s.text, m.end()):
                continue
            unit = m.group("unit").lower()
            unit = "hour" if unit in ("h", "hr", "hrs") else unit.rstrip("s")
            conv = U.hours_from(parse_number(m.group("num")), unit)
            ctx.add(s, "deadline_hours", conv.value, f'"{q(m)}": {conv.how}', "inferred", m.end())
            return True
    return False


def rule_deadline_limits(ctx: Ctx) -> None:
    """deadline_hours from a time limit (module docstring), when no other deadline rule read one."""
    if ctx.has("deadline_hours"):
        return
    for s in ctx.sentences:
        if s.start not in ctx.claim_sentences and _limit(ctx, s):
            return
