"""Deadlines written against the calendar (evals v10, read as development):

- working days: "within 10 business days", "5 working days" -> the calendar days from now to the Nth
  weekday after the reference day (weekends skipped; public holidays are not known and not skipped);
- a British "<weekday> week": "by Friday week", "a week on Friday" -> that weekday of the following week;
- a named period followed by its date: "by end of next sprint, which is Dec 2", "the milestone (i.e. 4
  December)" -> the end of that date;
- a window from one weekday's clock time to another's: "it can run from Saturday 00:00 to Monday 06:00"
  -> the hours between them (the job must fit in it), as "the window is 00:00-06:00" reads a daily one.
"""

from __future__ import annotations

import datetime as dt
import re

from advisor.extract import units_text as U
from advisor.extract.regex_keys import keyed
from advisor.extract.rules_ctx import Ctx, I, q
from advisor.extract.rules_dates import _DATE, _WEEKDAYS, _add, date_of
from advisor.extract.rules_money_time import _end_of_day
from advisor.extract.rules_text import NUMBER, parse_number

_DAY = r"(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?"
_WORKING_DAYS = keyed(
    rf"\b(?P<num>{NUMBER})\s+(?:business|working|work)[\s-]+days?\b", I
)
_WEEKDAY_WEEK = keyed(
    rf"\b(?:by|before|until|till|due|on|for)\s+(?P<day>{_DAY})\s+week\b"
    rf"|\ba\s+week\s+(?:on|from)\s+(?P<day2>{_DAY})\b",
    I,
)
_PERIOD_THEN_DATE = keyed(
    r"\b(?:sprint|milestone|iteration|release|phase|quarter|term|deadline|cut-?off|freeze)\b[^.;?!]{0,30}?"
    rf"(?:,?\s*which\s+is|\s*\(\s*(?:i\.e\.,?\s*|that'?s\s+|=\s*)?|,?\s*i\.e\.,?|,?\s*that'?s|\s*[:=-])\s*(?:on\s+)?{_DATE}",
    I,
)
_WEEKDAY_WINDOW = keyed(
    # "from Saturday 00:00 to Monday 06:00"; after a colon or comma the "from" may go unsaid (rd12)
    rf"(?:\b(?:from|between)\s+|(?<=[,:(]\s)|(?<=\bis\s))(?P<d1>{_DAY})\s+(?:at\s+)?(?P<h1>\d{{1,2}}):(?P<m1>\d\d)\s+(?:to|until|till|and|-|–)\s+"
    rf"(?P<d2>{_DAY})\s+(?:at\s+)?(?P<h2>\d{{1,2}}):(?P<m2>\d\d)\b",
    I,
)
_DEADLINE_WORD = re.compile(
    r"\b(?:by|before|until|till|due|within|in|deadline|done|finish\w*|ready|takes?"
    # a labelled time: "Completion window: 10 business days", "turnaround 5 working days" (rd12)
    r"|window|turnaround|time\s?line|time\s?frame|lead\s+time|sla|time\s+available)\b",
    I,
)
_GRANTED_AFTER = re.compile(r"\s+(?:is|are|max|tops|at\s+most)\b", I)


def _weekday(name: str) -> int:
    return _WEEKDAYS.index(name.lower()[:3])


def _after_working_days(start: dt.date, n: int) -> dt.date:
    """The Nth weekday after `start` (Saturday and Sunday skipped)."""
    d, left = start, n
    while left > 0:
        d += dt.timedelta(days=1)
        if d.weekday() < 5:
            left -= 1
    return d


def rule_calendar_deadlines(ctx: Ctx) -> None:
    """deadline_hours from the calendar phrasings of the module docstring."""
    ref = ctx.reference_time
    # a finding needs one of these to match
    for s in ctx.sentences_with(_WORKING_DAYS, _WEEKDAY_WEEK, _PERIOD_THEN_DATE, _WEEKDAY_WINDOW):
        if s.start in ctx.claim_sentences:
            continue
        t = s.text
        for m in _WORKING_DAYS.finditer(t):
            head = t[max(0, m.start() - 40) : m.start()]
            if not _DEADLINE_WORD.search(head) and not _GRANTED_AFTER.match(t, m.end()):
                continue  # "we ran it for 10 working days last year": a past span, not a deadline
            n = int(parse_number(m.group("num")))
            if n >= 1:  # a span from now, as "within 10 days" reads: the calendar days N working days take
                day = _after_working_days(ref.date(), n)
                days = (day - ref.date()).days
                conv = U.hours_from(days, "day")
                how = f'"{q(m)}": {n} working days from {ref:%a %d %b} end on {day:%a %d %b}, {conv.how}'
                ctx.add(s, "deadline_hours", conv.value, how, "inferred", m.end())
        for m in _WEEKDAY_WEEK.finditer(t):
            target = _weekday(m.group("day") or m.group("day2"))
            days = (target - ref.weekday()) % 7 or 7
            day = ref.date() + dt.timedelta(days=days + 7)
            _add(ctx, s, m, _end_of_day(day, ref.tzinfo), f"that day of the following week, {day:%a %d %b}")
        for m in _PERIOD_THEN_DATE.finditer(t):
            if (named := date_of(m, ref.date())) is not None:
                _add(ctx, s, m, _end_of_day(named, ref.tzinfo), f"the end of {named:%a %d %b}")
        for m in _WEEKDAY_WINDOW.finditer(t):
            d1, d2 = _weekday(m.group("d1")), _weekday(m.group("d2"))
            start = d1 * 24 + int(m.group("h1")) + int(m.group("m1")) / 60
            end = d2 * 24 + int(m.group("h2")) + int(m.group("m2")) / 60
            hours = (end - start) % (7 * 24) or 7 * 24
            how = f'"{q(m)}": {m.group("d1")} {m.group("h1")}:{m.group("m1")} to {m.group("d2")} ' \
                  f'{m.group("h2")}:{m.group("m2")} = {hours:g} h'
            ctx.add(s, "deadline_hours", hours, how, "inferred", m.end())
