"""More ways a team writes how often a training job runs (runs_per_month), read when
advisor/extract/rules_context.py's rule_cadence read none (expert review 18, R17: "We do continual
pretraining of Llama 3.1 8B on domain text, 20B tokens, every quarter." lost its cadence, so buy-vs-rent
ran at 30% use and found a break-even that does not exist).

The forms: an adverb ("quarterly", "yearly", "annually", "half-yearly", "semi-annually"), "every / each /
once a <period>" ("every quarter", "each month", "once a year"), "every N <periods>" ("every 6 months",
"every two weeks"), "twice / N times a <period>" ("twice a year", "3 times a quarter"), and a sprint
("each sprint", "every sprint": SPRINT_WEEKS, an assumption the evidence names).

Where they count: in a sentence that names the job (a training word: pretrain, CPT, fine-tune, LoRA,
retrain, refresh, run, job), or, for a month or longer, in any sentence of a text that trains a model when
the sentence talks of nothing else that recurs ("We would redo this every quarter."; a day or a week there is
as likely the hardware's schedule, "the cluster is free every night"). A cadence that qualifies a budget, a
review, a report or a bill ("quarterly budget", "we review costs every quarter") is not the job's, nor is
one in a serving request, nor one placed in the past ("we tried it every quarter last year": _PAST).
"""

from __future__ import annotations

import re

from advisor.extract import units_text as U
from advisor.extract.regex_keys import keyed
from advisor.extract.rules_ctx import Ctx, I, q
from advisor.extract.rules_text import NUMBER, parse_number

SPRINT_WEEKS = 2.0
"""Weeks in a sprint when the text does not say: two weeks, the most common Scrum sprint length (the Scrum
Guide caps a sprint at one month; two weeks is the usual choice in its practice). Said in the evidence."""

_TRAINING_WORKLOADS = ("fine_tuning", "pretraining", "continual_pretraining")
_PERIOD = r"(?P<per>day|night|week|fortnight|month|quarter|year|sprint)"
_CADENCE = keyed(
    # "quarterly", "yearly", "annually", "half-yearly", "semi-annually", "bi-annually"
    r"\b(?P<adv>daily|nightly|weekly|bi-?weekly|fortnightly|monthly|quarterly|yearly|annually"
    r"|half[\s-]?yearly|semi[\s-]?annually|bi-?annually)\b"
    # "every other month", "every 6 months", "every two weeks"
    rf"|\bevery\s+(?:(?P<other>other)|(?P<n>{NUMBER}))\s+(?P<nper>days?|nights?|weeks?|months?|quarters?|years?"
    r"|sprints?)\b"
    # "every quarter", "each sprint", "once a year", "twice a year", "4 times a year" (not "tokens per day":
    # a volume's rate, rules_context)
    rf"|\b(?:(?P<times>once|twice|thrice|(?P<tn>{NUMBER})\s+times)\s+(?:a|an|per|each|every)"
    rf"|every|each)\s+(?:single\s+)?{_PERIOD}\b",
    I,
)
_ADVERB: dict[str, tuple[float, str]] = {
    "daily": (1, "day"), "nightly": (1, "day"), "weekly": (1, "week"), "biweekly": (0.5, "week"),
    "bi-weekly": (0.5, "week"), "fortnightly": (0.5, "week"), "monthly": (1, "month"),
    "quarterly": (1, "quarter"), "yearly": (1, "year"), "annually": (1, "year"), "half-yearly": (2, "year"),
    "half yearly": (2, "year"), "halfyearly": (2, "year"), "semi-annually": (2, "year"),
    "semi annually": (2, "year"), "semiannually": (2, "year"), "bi-annually": (2, "year"),
    "biannually": (2, "year"),
}  # fmt: skip
# the job itself named in the sentence
_JOB_WORD = keyed(
    r"\b(?:(?:re-?|pre-?)?train\w*|cpt|continu\w+\s+pre-?train\w*|fine[\s-]?tun\w*|finetun\w*|q?lora|sft"
    r"|refresh\w*|re-?run\w*|runs?|jobs?|experiments?|iterations?|checkpoints?|adapters?|update\s+(?:the|our)\s+model)\b",
    I,
)
# something else that recurs: "quarterly budget", "we review costs every quarter", "monthly invoice"
_OTHER_RECURRING = keyed(
    r"\b(?:budget\w*|spend\w*|cost\w*|bill\w*|invoic\w*|review\w*|report\w*|meeting\w*|planning|audit\w*"
    r"|payment\w*|subscription\w*|licen[cs]\w*|releases?|sync\w*|check-?ins?|board|price\w*|pric\w*)\b"
    r"|[$€£¥]\s*\d",
    I,
)
# the cadence qualifies a noun right after it: "quarterly budget", "monthly review"
_NOUN_AFTER = re.compile(
    r"\s+(?:\w+\s+)?(?:budget|spend|cost|bill|invoice|review|report|meeting|planning|audit|payment"
    r"|subscription|licen[cs]e|release|sync|check-?in|board|price|allowance|cap|quota|limit)s?\b",
    I,
)


# a cadence placed in the past is not the plan's: "we tried it every quarter last year, now it is a one-off",
# "last year we ran this every quarter", "we used to retrain monthly" (the sentence is left to the input's
# account, which lists it as not used)
_PAST = keyed(
    r"\b(?:last\s+(?:year|quarter|month|time)|in\s+the\s+past|previously|used\s+to|historically|until\s+now"
    r"|back\s+(?:then|in\s+\d{4})|the\s+(?:previous|prior)\s+(?:year|team|setup|set-up))\b",
    I,
)
_FUTURE = re.compile(
    r"\b(?:will|going\s+to|plan\w*|from\s+now\s+on|next\s+year|again|keep|continue)\b|'ll\b", I
)


def in_the_past(text: str) -> bool:
    """A sentence that places what it says in the past and says nothing of what comes ("like last year, we
    will retrain quarterly" is the plan)."""
    return _PAST.search(text) is not None and _FUTURE.search(text) is None


def _per_month(m: re.Match[str]) -> tuple[float, str, str]:
    """(runs per month, how the evidence converts it, the period) of one _CADENCE match."""
    if m.group("adv"):
        n, per = _ADVERB[" ".join(m.group("adv").lower().split())]
    elif m.group("nper"):
        per = m.group("nper").lower().rstrip("s")
        n = 1.0 / (2.0 if m.group("other") else parse_number(m.group("n")))
    else:
        per = m.group("per").lower()
        times = (m.group("times") or "once").lower()
        n = {"once": 1.0, "twice": 2.0, "thrice": 3.0}.get(times) or parse_number(m.group("tn"))
    return *_convert(n, per), per


def _convert(n: float, per: str) -> tuple[float, str]:
    """(runs per month, how) of n runs per `per`; nights are days, a fortnight two weeks, a sprint
    SPRINT_WEEKS weeks (units_text.runs_per_month_from does the month arithmetic)."""
    if per == "night":
        per = "day"
    if per in ("fortnight", "sprint"):
        weeks = 2.0 if per == "fortnight" else SPRINT_WEEKS
        conv = U.runs_per_month_from(n / weeks, "week")
        said = "a sprint assumed to be" if per == "sprint" else "a fortnight is"
        return conv.value, f"{said} {weeks:g} weeks: {conv.how}"
    conv = U.runs_per_month_from(n, per)
    return conv.value, conv.how


# periods a text that trains may name without naming the job in that sentence ("We'd do that every quarter."):
# a day or a week there is as likely the hardware's schedule ("the cluster is free every night")
_LONG_PERIODS = frozenset({"month", "quarter", "year", "sprint"})


def rule_cadence_forms(ctx: Ctx) -> None:
    """runs_per_month from the cadence forms of the module docstring, when no other rule read one."""
    if ctx.has("runs_per_month") or ctx.workload == "inference":
        return
    training = ctx.workload in _TRAINING_WORKLOADS
    for s in ctx.sentences:
        t = s.text
        job = _JOB_WORD.search(t) is not None
        if not job and not (training and _OTHER_RECURRING.search(t) is None):
            continue
        if in_the_past(t):
            continue
        for m in _CADENCE.finditer(t):
            if _NOUN_AFTER.match(t, m.end()):
                continue  # "quarterly budget", "every month's invoice": that thing's period, not the job's
            runs, how, per = _per_month(m)
            if not job and per not in _LONG_PERIODS:
                continue
            status = "stated" if how.endswith(" per month") else "inferred"
            ev = q(m) if status == "stated" else f'"{q(m)}": {how}'
            ctx.add(s, "runs_per_month", runs, ev, status, m.start())
            return
