"""Horizon rules: how long the team will run or keep what it gets, in months (horizon_months).

How teams write it:
- a duration after a cue: "over 3 years", "for the next 2-3 years" (the upper end), "across 36 months",
  "in the next 24 mo", "amortised over 4 years", "pays off within 18 months", "keep the cards for 3
  years", "we'll run the service for 2 years" (a bare "for" unless it looks back: "we've been doing this
  for 2 years");
- a duration naming the horizon: "an 18-month horizon", "3-year TCO", "a 3-year lease", "2-year
  commitment", "5-year useful life";
- a horizon key: "Horizon: 3 years", "time horizon is 2 years", "planning horizon 24 months", "useful life
  of 5 years";
- an end date: "through 2027", "until the end of 2027", "till mid-2027", "for the rest of the year",
  "until year end" (months from the reference time to that date, inferred).
A deadline ("within 3 months", "need it in 2 weeks") is not a horizon: advisor/extract/rules_money_time.py.
"""

from __future__ import annotations

import datetime as dt
import re

from advisor.extract import units_text as U
from advisor.extract.rules_ctx import Ctx, Gated, I, q
from advisor.extract.rules_text import APPROX, NUMBER, RANGE_FROM, parse_number
from advisor.extract.sentence_memo import read_once
from tools.recommend.buy_rent import DEFAULT_HORIZON_MONTHS  # the tools' own default, not a copy

_UNIT = r"(?P<unit>years?|yrs?|y(?=\b)|months?|mos?\b|mo\b)"
_DURATION = rf"{APPROX}{RANGE_FROM}(?P<num>{NUMBER})[\s-]*{_UNIT}"
_CUE_BEFORE = (
    r"\b(?:over|across|during|throughout|for\s+the\s+(?:next|coming)|in\s+the\s+(?:next|coming)"
    r"|the\s+next|next|horizon\s*(?:of|is|:|=|-)?|outlook\s*(?:of|is|:)?|pays?\s+(?:itself\s+)?off\s+"
    r"(?:with)?in|break[\s-]?even\s+(?:with)?in|amorti[sz](?:e|ed|ing)\s+(?:it\s+|them\s+)?(?:over|across)"
    r"|keep\s+(?:it|them|this|that|the\s+(?:\w+\s+)?(?:service|endpoint|model|deployment))\s+(?:running|up|live|online"
    r"|alive|going)(?:\s+for)?"
    r"|depreciat\w+\s+(?:over|across)|(?:writ(?:e|ten|ing)|wrote)\s+(?:it\s+|them\s+|\w+\s+)?off\s+(?:over|across|in)|(?:useful\s+)?life(?:time|span)?\s*(?:of|is|:)"
    # "we'd keep them 3 years", "we'll run the boxes 4 years" (expert review 10, R19 turn 3)
    r"|(?:keep|run|use|operate|hold)\s+(?:them|it|those|these|the\s+(?:gpus|cards|servers|hardware|nodes|boxes"
    r"|machines|cluster))"
    r"|(?:contract|commitment|lease|term|agreement|reservation)\s+(?:runs?|of|for|is|lasts?|covers?)"
    # a tender's term: "1 cluster, reserved for 6 months"
    r"(?:\s+for)?|reserved\s+for|for(?:\s+at\s+least)?)\s+(?:a\s+|an\s+|the\s+)?"
)
# "an 18-month horizon", "3-year TCO", "a 3-year lease", "5-year useful life"
_NOUN_AFTER = (
    r"[\s-]+(?:(?:planning|time|investment|useful|expected|depreciation|amorti[sz]ation|ownership|total)\s+)?"
    r"(?P<noun>horizon|tco|total cost|lease|contract|commitment|term|reservation|plan|life(?:time|span)?"
    r"|depreciation|amorti[sz]ation|period|outlook|payback|roadmap|pilot|trial|poc|proof[\s-]of[\s-]concept"
    r"|project|engagement|programme|program)\b"
)
_HORIZON = Gated(
    re.compile(
        rf"{_CUE_BEFORE}{_DURATION}\b|(?P<num2>{NUMBER})[\s-]*(?P<unit2>years?|yrs?|months?|mos?)"
        rf"{_NOUN_AFTER}",
        I,
    ),
    "year", "yr", "month", "mo",
)  # fmt: skip
_LOOKS_BACK = re.compile(
    r"\b(?:been|past|last|ago|had|since|previous|prior|already|spent|took|experience|collected|gathered"
    r"|accumulated|logged|scraped|written|built up)\b[^.;]{0,30}$",
    I,
)
_BARE_FOR = re.compile(r"^for\s+(?:at\s+least\s+)?(?:a\s+|an\s+|the\s+)?(?!next|coming)", I)
# a bare "for N months" in a sentence about training time is how long a run takes, not a horizon
_RUN_TIME = re.compile(r"\b(?:train(?:ing)?|takes?|took|runs? for|finish|deadline|due|within)\b", I)
# ... unless what runs is the service: "we expect the serving to run for 9 months" (no training word)
_SERVICE_RUNS = re.compile(
    r"\b(?:serv(?:e|ing|ice)|endpoint|deployment|api|inference)\b[^.;]{0,30}\bruns?\s+for\b", I
)
_END_DATE = Gated(
    re.compile(
        r"\b(?:through(?:out)?|thru|until|till|to|into|up\s+to)\s+(?:the\s+)?(?:(?P<mid>mid|middle\s+of)[\s-]+"
        r"|(?:the\s+)?end\s+of\s+)?(?P<year>20\d\d)\b"
        r"|\bfor\s+the\s+rest\s+of\s+(?:the|this)\s+year\b|\b(?:until|till|through|to)\s+(?:the\s+)?year[\s-]end\b",
        I,
    ),
    "20", "year",
)  # fmt: skip
# a term the team already holds, with what is left of it said, is a commitment, not the planning horizon
# (evals v16: "We have a 3-year reservation at Azure ..., 14 months remaining" was read as a 36-month
# horizon); a term being weighed or tendered ("a 3-year lease", "for the full 24-month term") stays the
# horizon, and so does a held term with nothing said about what is left ("We have a 1-month reservation":
# its window, expert review 12 R12)
_TERM_NOUNS = ("reservation", "commitment", "contract", "lease", "term", "agreement", "subscription")
_LEFT_SAID = re.compile(
    r"\b(?:months?|years?|weeks?|days?)\s+(?:remaining|left|to\s+go)\b|\b(?:months?|years?)\s+into\b"
    r"|\b(?:remaining|left)\s+on\s+(?:it|the|our)\b|\b(?:expires?|ends?|runs?\s+out)\s+(?:in|on|at)\b",
    I,
)
_HELD_BEFORE = re.compile(
    r"\b(?:we\s+(?:have|hold|own|got|signed|bought|pay\s+for)|we(?:'ve|\s+have)\s+(?:got|signed|bought)|our"
    r"|existing|current|already|into)\s+(?:an?\s+|the\s+|one\s+)?(?:existing\s+|current\s+)?$",
    I,
)
_MIN_MONTHS, _MAX_MONTHS = 1.0, 120.0  # outside: not a planning horizon (a typo, a model's age)


def rule_horizon(ctx: Ctx) -> None:
    """horizon_months from a duration with a horizon cue or noun, or from an end date."""
    _horizons(ctx, any(_LEFT_SAID.search(s.text) for s in ctx.sentences))


@read_once
def _horizons(ctx: Ctx, left_said: bool) -> None:
    """rule_horizon's reading of each sentence (`left_said`: the text says how long a term has left)."""
    ref = ctx.reference_time
    for s in ctx.sentences_with(_HORIZON, _END_DATE):  # a finding needs one of them to match
        t = s.text
        for m in _HORIZON.finditer(t):
            num = m.group("num") or m.group("num2")
            unit = (m.group("unit") or m.group("unit2")).lower()
            if _LOOKS_BACK.search(t[max(0, m.start() - 40) : m.start()]):
                continue  # "logs collected over 3 years", "we've been doing this for 2 years"
            if _held_term(t, m) and left_said:
                continue  # "We have a 3-year reservation": a commitment held, not the horizon
            bare = m.group("num") is not None and _BARE_FOR.match(m.group(0)) is not None
            service = _SERVICE_RUNS.search(t) is not None and not re.search(r"\btrain", t, I)
            if bare and unit.startswith("mo") and _RUN_TIME.search(t) and not service:
                continue  # "training for 3 months" is how long a run takes
            conv = U.months_from(parse_number(num), "year" if unit.startswith("y") else "month")
            if not _MIN_MONTHS <= conv.value <= _MAX_MONTHS:
                continue
            status = "stated" if unit.startswith("mo") else "inferred"
            ctx.add(s, "horizon_months", conv.value, q(m) if status == "stated" else f'"{q(m)}": {conv.how}',
                    status, m.start())  # fmt: skip
        for m in _END_DATE.finditer(t):
            if m.group("year"):
                year = int(m.group("year"))
                end = (
                    dt.datetime(year, 7, 1, tzinfo=ref.tzinfo)
                    if m.group("mid")
                    else dt.datetime(year + 1, 1, 1, tzinfo=ref.tzinfo)
                )
            else:
                end = dt.datetime(ref.year + 1, 1, 1, tzinfo=ref.tzinfo)
            conv = U.months_until(ref, end, f'"{q(m)}"')
            if _MIN_MONTHS / 2 <= conv.value <= _MAX_MONTHS:
                ctx.add(s, "horizon_months", round(conv.value, 1), conv.how, "inferred", m.start())


def _held_term(t: str, m: re.Match[str]) -> bool:
    """Whether the duration names a term the team already holds ("we have a 3-year reservation", "our
    reservation runs for 3 years", "7 months into a 12-month commitment")."""
    noun = (m.group("noun") or "").lower()
    if noun in _TERM_NOUNS:
        return _HELD_BEFORE.search(t[max(0, m.start() - 40) : m.start()]) is not None
    said = m.group(0).lower()
    if any(said.startswith(n) for n in _TERM_NOUNS):  # "reservation runs for 3 years"
        return _HELD_BEFORE.search(t[max(0, m.start() - 40) : m.start()]) is not None
    return False


# "Should we buy or rent?" with no horizon (expert review 12, R05: listed as 'a question I could not answer'
# while the same request "over 3 years" got its buy-versus-rent line): buying is weighed over the default
# horizon for a purchase, tools.recommend.buy_rent.DEFAULT_HORIZON_MONTHS, which the reply then names
_BUY_OR_RENT = re.compile(
    r"\b(?:buy\w*|purchas\w*|own(?:ing)?)\s+(?:\w+\s+){0,3}?(?:or|vs\.?|versus)\s+(?:just\s+|keep\s+|still\s+"
    r"|continue\s+(?:to\s+)?|stick\s+(?:to|with)\s+|carry\s+on\s+|go\s+on\s+)?"
    r"(?:rent\w*|leas\w*|(?:use\s+|stay\s+(?:in|on)\s+)?(?:the\s+)?cloud)\b"
    r"|\b(?:rent\w*|leas\w*)\s+(?:\w+\s+){0,3}?(?:or|vs\.?|versus)\s+(?:buy\w*|purchas\w*|own(?:ing)?)\b",
    I,
)
BUY_OR_RENT_DEFAULT_HOW = "no horizon given: the default horizon for weighing a purchase (say yours)"
"""Evidence of the default horizon read from a buy-or-rent question; the reply names it (templates)."""


def rule_buy_or_rent_horizon(ctx: Ctx) -> None:
    """horizon_months = the buy-versus-rent default (36 months) for a buy-or-rent question said with no
    horizon, in this text or an earlier turn; an estimate, so it is asked about when it changes the pick."""
    if ctx.has("horizon_months"):
        return
    prior = ctx.prior
    said = prior is not None and prior.horizon_months is not None
    if said and prior is not None and prior.status_of("horizon_months") != "assumed":
        return
    for s in ctx.sentences:
        if (m := _BUY_OR_RENT.search(s.text)) is not None:
            ev = f'"{q(m)}": {DEFAULT_HORIZON_MONTHS:g} months, {BUY_OR_RENT_DEFAULT_HOW}'
            ctx.add(s, "horizon_months", DEFAULT_HORIZON_MONTHS, ev, "inferred", m.start(), estimate=True)
            return
