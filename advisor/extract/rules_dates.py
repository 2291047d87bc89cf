"""Deadlines written around an event or a calendar phrase, and dates that are not deadlines (issue 12: a
deadline said as "the Friday before the kickoff" was read as this Friday, "the end of January is fine"
was dropped, and a review date was taken as the cut-off).

- `event_date`: "the quarterly review is on 15 January", "the kickoff with legal is on 1 December",
  "Tenders close at 12:00 on Monday 7 December", "... because the annotators start reviewing on 4 January":
  a date an event falls on, with no word in its clause that says the work must be done by then.
- `rule_deadline_phrases` (after rule_deadline; a fuller reading of the same words wins, so its findings
  sit at the end of the words they read):
  - "before the Series A announcement on Jan 12": the start of that day;
  - "by the end of 31 December", "the end of January is fine", "end of March at the latest": the end of
    that day or month;
  - "finished by the Friday before" a date named just before: that weekday before the date;
  - "the rebuttal window closes Tuesday 8 December, 23:59 AoE": that time (AoE is UTC-12);
  - "before Christmas", "by New Year": the holiday's date (before: its start);
  - a soft deadline said as a night or a morning (expert review 5, R01): "would love it done overnight
    (~10h)" (the hours in brackets, stated; else units_text.OVERNIGHT_HOURS, inferred), "ideally by
    tomorrow morning" (09:00 the next day, MORNING_HOUR). "our evals run overnight" is a schedule, not a
    deadline.
"""

from __future__ import annotations

import datetime as dt
import re

from advisor.extract import units_text as U
from advisor.extract.regex_keys import keyed
from advisor.extract.rules_ctx import Ctx, I, q
from advisor.extract.rules_text import Sentence

MORNING_HOUR = 9  # "by Monday morning": the start of a working day (09:00), the deadline's own time zone
NOON_HOUR = 12  # "by Friday noon" / "lunchtime"
_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
_MON = r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"  # noqa: E501
# a weekday before a date, also abbreviated ("Fri 4 Dec", "Tue. 8 December")
_WEEKDAY = (
    r"(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day|(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)\.?)"
)
_DATE = (
    rf"(?:{_WEEKDAY},?\s+)?(?:the\s+)?(?:(?P<mon>{_MON})\.?\s+(?P<d1>\d{{1,2}})(?:st|nd|rd|th)?"
    rf"|(?P<d2>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<mon2>{_MON}))\.?(?:,?\s+(?P<year>20\d\d))?\b"
)
# a word in the clause that makes a date the work's cut-off
_DONE_CUE = re.compile(
    r"\b(?:done|finish\w*|ready|complete\w*|deliver\w*|deadline|due|ship\w*|launch\w*|live|need\w*|must"
    r"|has\s+to|have\s+to|got\s+to|gotta|demo\w*|submit\w*|in\s+place|loaded|by)\b",
    I,
)
_BEFORE_THEN = re.compile(
    r"[^.;!?]{0,80}?\b(?:before|by|ahead\s+of)\s+(?:then|that(?:\s+(?:date|day))?|it)\b(?!\s+\w+\s+(?:on|by))",
    I,
)
_CLAUSE_START = re.compile(r"[,;(]|:(?!\d)|\b(?:because|since|as|and|but|while|when|whereas)\b", I)


def before_then(text: str, at: int) -> bool:
    """Whether the date at `at` is followed by "... has to be ready before then" (the start of that day)."""
    return _BEFORE_THEN.match(text, at) is not None


def event_date(text: str, at: int) -> bool:
    """Whether the "on <date>" at `at` dates an event rather than the work's cut-off: no word of its clause
    (back to the last comma, "because", "and" ...) says the work must be done by then."""
    head = text[max(0, at - 80) : at]
    cuts = list(_CLAUSE_START.finditer(head))
    clause = head[cuts[-1].end() :] if cuts else head
    if _BEFORE_THEN.match(text, at):
        return False  # "the pilot kicks off on 7 December, so the adapter has to be ready before then"
    return _DONE_CUE.search(clause) is None


def _month(name: str) -> int:
    return _MONTHS.index(name.lower()[:3]) + 1


def date_of(m: re.Match[str], ref: dt.date) -> dt.date | None:
    """The date a match of a day-and-month pattern names (groups mon/mon2, d1/d2, year): without a year, the
    next such date on or after `ref`; None for an impossible day ("31 June")."""
    mon = _month(m.group("mon") or m.group("mon2"))
    day = int(m.group("d1") or m.group("d2"))
    year = int(m.group("year")) if m.group("year") else ref.year
    try:
        d = dt.date(year, mon, day)
    except ValueError:
        return None
    return d.replace(year=ref.year + 1) if d < ref and not m.group("year") else d


def _midnight(d: dt.date, tz: dt.tzinfo | None) -> dt.datetime:
    return dt.datetime.combine(d, dt.time(0, 0), tzinfo=tz)


# a clock time and zone after a date: "Monday 7 December, 09:00 CET"
_AT = (
    r"(?:,?\s+(?:at\s+)?(?P<hh>\d{1,2}):(?P<mm>\d\d)"
    r"(?:\s*(?P<tz>cet|cest|utc|gmt|pst|pt|pdt|est|et|edt|aoe))?\b)?"
)
_ZONES = {"cet": 1, "cest": 2, "utc": 0, "gmt": 0, "pst": -8, "pt": -8, "pdt": -7, "est": -5, "et": -5,
          "edt": -4, "aoe": -12}  # fmt: skip
# a clock time before the date: "completed by 17:00 CET on Friday 29 January 2027"
_TIME_ON = keyed(
    r"\b(?:by|before|until|no\s+later\s+than)\s+(?P<hh>\d{1,2}):(?P<mm>\d\d)"
    rf"(?:\s*(?P<tz>cet|cest|utc|gmt|pst|pt|pdt|est|et|edt|aoe))?\s+on\s+{_DATE}",
    I,
)
_BEFORE_EVENT = keyed(rf"\bbefore\s+(?:the|our|a|an|their)\s+[^.;?!]{{1,60}}?\s+(?:on|of)\s+{_DATE}{_AT}", I)
_END_OF = keyed(
    rf"\b(?P<by>(?:by|before|until|till|due|deadline(?:\s+is)?:?)\s+)?(?:the\s+)?end\s+of\s+(?:{_DATE}"
    rf"|(?P<month>{_MON})(?:\s+(?P<myear>20\d\d))?\b)(?P<ok>\s+(?:is\s+(?:fine|ok|okay|good|enough)|works"
    r"|at\s+the\s+latest))?",
    I,
)
_WEEKDAY_BEFORE = keyed(
    r"\b(?:by|before|until|on)\s+the\s+(?P<day>monday|tuesday|wednesday|thursday|friday|saturday|sunday)\s+before"
    r"(?!\s+(?:last|next))\b",
    I,
)
_DATE_RX = re.compile(_DATE, I)
_CLOSES = keyed(
    rf"\b(?:window|submissions?|portal|deadline)\s+(?:closes|shuts|ends)\s+(?:on\s+|at\s+)?{_DATE}"
    r"(?:,?\s+(?:at\s+)?(?P<hh>\d{1,2}):(?P<mm>\d\d))?(?:\s*(?P<aoe>aoe|anywhere\s+on\s+earth|utc|gmt))?",
    I,
)
_HOLIDAYS = {"christmas eve": (12, 24), "christmas": (12, 25), "new year's eve": (12, 31), "new year": (1, 1)}
_HOLIDAY = keyed(
    r"\b(?P<cue>before|by|until|till|ahead\s+of)\s+(?:the\s+)?(?P<name>christmas\s+eve|christmas|xmas"
    r"|new\s+year'?s\s+eve|new\s+year(?:'?s(?:\s+day)?)?)\b"
    # the holiday itself, not an event named after it ("before the Christmas code freeze")
    r"(?=\s*(?:[,.;:!?)]|$|(?:and|or|but|because|so|since|as|when|if|we|i|it|that|which|please|pls|at|for)\b))",
    I,
)
_AOE = dt.timezone(dt.timedelta(hours=-12))


# a job done overnight: a completion word just before "overnight", the hours in brackets if given
_OVERNIGHT = keyed(
    r"\b(?:done|finish\w*|ready|complete\w*|trained|back|wrapped\s+up|turned\s+around)\s+(?:\w+\s+){0,2}?"
    r"overnight\b(?:\s*\(\s*(?:~|about\s+|approx\.?\s*|roughly\s+|≈)?\s*(?P<num>\d+(?:\.\d+)?)\s*"
    r"(?:h|hrs?|hours?)\s*\))?"
    r"|\bovernight\s+turn[\s-]?around\b"
    # the time granted, hedged (evals v10): "overnight is fine (12h?)", "overnight would be ok"
    r"|\bovernight\s+(?:is|would\s+be|'s|works)\s+(?:\w+\s+)?(?:fine|ok(?:ay)?|enough|acceptable|good)\b"
    r"(?:[.,]?\s*\(\s*(?:~|about\s+|maybe\s+)?(?P<num2>\d+(?:\.\d+)?)\s*(?:h|hrs?|hours?)\s*\??\s*\))?",
    I,
)
# "by tomorrow morning", "first thing tomorrow": that time of the next day (rule_deadline reads "by
# tomorrow" alone as its end; this fuller reading sits at the end of the words and wins)
_TOMORROW_AT = keyed(
    r"\b(?:by|before|until|till|for)\s+(?:tomorrow|tmrw|tmr)\s+(?P<when>morning|first\s+thing|am\b|noon"
    r"|midday|lunch(?:time)?)|\bfirst\s+thing\s+(?:tomorrow|tmrw|tmr)(?:\s+morning)?\b",
    I,
)


# the hours a vague deadline means, said in brackets after it: "done by tomorrow morning (~12h)", "by
# tonight (about 8 hours)", "before Monday (70h from now)": the figure the user gave wins over the phrase's
# calendar reading (expert review 16, R01 took "tomorrow morning" as 29 h beside "~12h")
_HOURS_ASIDE = keyed(
    r"\b(?:by|before|until|till|due)\b[^()\n]{1,40}?\(\s*(?:~|about\s+|approx\.?\s*|roughly\s+|around\s+|≈)?"
    r"\s*(?P<num>\d+(?:\.\d+)?)\s*(?:h|hrs?|hours?)(?:\s+from\s+now)?\s*\??\s*\)",
    I,
)


def _soft_deadlines(ctx: Ctx, s: Sentence) -> None:
    """deadline_hours from "done overnight (~10h)", "by tomorrow morning" and the hours said in brackets
    after a deadline (module docstring, _HOURS_ASIDE)."""
    t = s.text
    for m in _HOURS_ASIDE.finditer(t):
        ctx.add(s, "deadline_hours", float(m.group("num")), q(m), "stated", m.end() + 1)
    for m in _OVERNIGHT.finditer(t):
        if num := m.group("num") or m.group("num2"):
            ctx.add(s, "deadline_hours", float(num), q(m), "stated", m.end())
        else:
            how = f'"{q(m)}" read as {U.OVERNIGHT_HOURS:g} h (an evening to the next morning)'
            ctx.add(s, "deadline_hours", U.OVERNIGHT_HOURS, how, "inferred", m.end())
    for m in _TOMORROW_AT.finditer(t):
        when = (m.group("when") or "morning").lower()
        hour = NOON_HOUR if re.match(r"noon|midday|lunch", when) else MORNING_HOUR
        day = ctx.reference_time.date() + dt.timedelta(days=1)
        due = dt.datetime.combine(day, dt.time(hour), tzinfo=ctx.reference_time.tzinfo)
        _add(ctx, s, m, due, f"{hour:02d}:00 the next day")


def _add(ctx: Ctx, s: Sentence, m: re.Match[str], due: dt.datetime, said: str) -> None:
    if due <= ctx.reference_time:
        return
    conv = U.hours_until(ctx.reference_time, due, f'"{q(m)}" ({said})')
    ctx.add(s, "deadline_hours", conv.value, conv.how, "inferred", m.end())


def rule_deadline_phrases(ctx: Ctx) -> None:
    """deadline_hours from the phrasings in the module docstring."""
    ref = ctx.reference_time
    today = ref.date()
    previous = ""
    for s in ctx.sentences:
        if s.start in ctx.claim_sentences:
            previous = s.text
            continue
        t = s.text
        _soft_deadlines(ctx, s)
        for m in [*_BEFORE_EVENT.finditer(t), *_TIME_ON.finditer(t)]:
            if (d := date_of(m, today)) is None:
                continue
            if m.group("hh"):  # "before the freeze on Monday 7 December, 09:00 CET": that time
                zone = dt.timezone(dt.timedelta(hours=_ZONES[(m.group("tz") or "utc").lower()]))
                when = dt.time(int(m.group("hh")) % 24, int(m.group("mm")))
                _add(
                    ctx,
                    s,
                    m,
                    dt.datetime.combine(d, when, tzinfo=zone),
                    f"that time {m.group('tz') or ''}".strip(),
                )
            else:
                _add(ctx, s, m, _midnight(d, ref.tzinfo), "start of that day")
        for m in _END_OF.finditer(t):
            if not (m.group("by") or m.group("ok")):
                continue
            if m.group("month"):
                year = int(m.group("myear")) if m.group("myear") else today.year
                mon = _month(m.group("month"))
                if dt.date(year, mon, 1) < today.replace(day=1) and not m.group("myear"):
                    year += 1
                last = dt.date(year + (mon == 12), mon % 12 + 1, 1)
                _add(ctx, s, m, _midnight(last, ref.tzinfo), "end of that month")
            elif (d := date_of(m, today)) is not None:
                _add(ctx, s, m, _midnight(d + dt.timedelta(days=1), ref.tzinfo), "end of that day")
        for m in _WEEKDAY_BEFORE.finditer(t):
            named = [*_DATE_RX.finditer(previous), *_DATE_RX.finditer(t[: m.start()])]
            if not named or (d := date_of(named[-1], today)) is None:
                continue
            target = _WEEKDAYS.index(m.group("day").lower()[:3])
            back = (d.weekday() - target) % 7 or 7
            that = d - dt.timedelta(days=back)
            _add(ctx, s, m, _midnight(that + dt.timedelta(days=1), ref.tzinfo), f"end of {that:%a %d %b}")
        for m in _CLOSES.finditer(t):
            if (d := date_of(m, today)) is None:
                continue
            tz: dt.tzinfo | None = (
                _AOE if (m.group("aoe") or "").lower().startswith(("aoe", "anywhere")) else ref.tzinfo
            )
            if m.group("hh"):
                due = dt.datetime.combine(d, dt.time(int(m.group("hh")) % 24, int(m.group("mm"))), tzinfo=tz)
                due += dt.timedelta(minutes=1) if m.group("mm") == "59" else dt.timedelta()
                _add(ctx, s, m, due, "that time" + (" AoE (UTC-12)" if tz is _AOE else ""))
            else:
                _add(ctx, s, m, _midnight(d + dt.timedelta(days=1), tz), "end of that day")
        for m in _HOLIDAY.finditer(t):
            name = re.sub(r"\s+", " ", m.group("name").lower()).replace("xmas", "christmas")
            key = next(k for k in _HOLIDAYS if name.startswith(k))
            mon, day = _HOLIDAYS[key]
            d = dt.date(today.year, mon, day)
            d = d.replace(year=today.year + 1) if d < today else d
            start = m.group("cue").lower() in ("before", "ahead of")
            due = _midnight(d if start else d + dt.timedelta(days=1), ref.tzinfo)
            _add(ctx, s, m, due, "start of that day" if start else "end of that day")
        previous = t
