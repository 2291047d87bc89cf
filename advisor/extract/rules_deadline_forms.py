"""Deadlines in the general forms teams write them (rd12), read after the other deadline rules: each finding
sits at the end of the words it read, so a fuller reading of the same words wins over a part of them.

- A day with a time of day or a time zone: "by Friday EOD Pacific", "until Monday 9:00 our time (CET)",
  "due 26 Nov AoE", "by 5pm Friday", "by Monday 23 November 10:00 UTC". No time: the end of the day in
  that zone; "EOD" / "COB" / "end of day": the end of the day (as rule_deadline reads "by Friday EOD");
  "morning" 09:00, "noon" 12:00. A zone is a fixed offset from UTC (the November offsets; see _ZONE_HOURS).
- A weekday with a day of the month and no month: "deadline is fri the 27th" (the next 27th on or after
  today that is a Friday, else the next 27th): that day, read from its start to its end (a range).
- An offset before a date: "two weeks before that" (the conference deadline is March 5th), "a week before
  launch on December 10": the start of that date less the offset.
- A limit after a duration: "10 days max", "5 days tops", "3 weeks at the latest"; a labelled time:
  "Time available: 5 days", "Completion window 10 business days" (working days: rules_calendar).
- Calendar words: "by mid-December" (the 15th), "by EOW / EOM / EOQ / EOY", "by the end of Q1", "before
  Thanksgiving" (the fourth Thursday of November), "two weeks from Monday", "ten days from now".
- An event's end named apart from the deadline: "Sprint 47 (ends 2026-12-04)" ... "delivered before sprint
  end": before: the start of that day; by: its end.
"""

from __future__ import annotations

import datetime as dt
import re

from advisor.extract import units_text as U
from advisor.extract.regex_keys import keyed
from advisor.extract.rules_ctx import QUOTED_PENALTY, Ctx, I, q
from advisor.extract.rules_dates import _DATE, MORNING_HOUR, NOON_HOUR, date_of
from advisor.extract.rules_text import NUMBER, Sentence, parse_number

# UTC offsets in hours in November (standard time in the northern hemisphere); AoE ("anywhere on
# earth") is UTC-12 (IEEE / conference usage); IST is India.
_ZONE_HOURS: dict[str, float] = {
    "utc": 0, "gmt": 0, "z": 0, "cet": 1, "cest": 2, "bst": 1, "eet": 2, "msk": 3, "ist": 5.5, "sgt": 8,
    "jst": 9, "aest": 10, "aedt": 11, "pst": -8, "pt": -8, "pdt": -7, "pacific": -8, "mst": -7, "mt": -7,
    "mountain": -7, "cst": -6, "ct": -6, "central": -6, "est": -5, "et": -5, "edt": -4, "eastern": -5,
    "aoe": -12, "anywhere on earth": -12,
    # a place's time, as people write it ("by 07:00 UK time", "end of day their time (Singapore)"; evals
    # v12/v15): the same fixed November offsets (timeanddate.com zone tables, checked 2026-11-27)
    "uk": 0, "london": 0, "dublin": 0, "lisbon": 0, "berlin": 1, "paris": 1, "amsterdam": 1, "madrid": 1,
    "frankfurt": 1, "stockholm": 1, "warsaw": 1, "helsinki": 2, "athens": 2, "india": 5.5, "singapore": 8,
    "hong kong": 8, "tokyo": 9, "japan": 9, "seoul": 9, "korea": 9, "kst": 9, "sydney": 11,
    "new york": -5, "california": -8,
}  # fmt: skip
_ZONE = (
    r"(?:(?:our|local|their|my|his|her)\s+time\s*)?\(?\s*(?P<zone>utc|gmt|cest|cet|bst|eet|msk|ist|sgt|jst"
    r"|aedt|aest|pst|pdt|pt|mst|mt|cst|ct|est|edt|et|aoe|anywhere\s+on\s+earth|pacific|mountain|central|eastern|uk|london|dublin"
    r"|lisbon|berlin|paris|amsterdam|madrid|frankfurt|stockholm|warsaw|helsinki|athens|india|singapore"
    r"|hong\s+kong|tokyo|japan|seoul|korea|kst|sydney|new\s+york|california)\b\s*\)?"
    r"(?:\s+time)?"
)
_TIME = (
    r"(?:at\s+)?(?P<time>(?P<hh>\d{1,2})(?::(?P<mm>\d\d))?\s*(?P<ampm>am|pm|a\.m\.|p\.m\.)"
    r"|(?P<hh2>\d{1,2}):(?P<mm2>\d\d)|eod|cob|end\s+of\s+(?:the\s+)?(?:business\s+)?day|close\s+of\s+business"
    r"|noon|midday|midnight|morning)"
)
_WEEKDAY_ABBR = r"(?P<wd>mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?"
# "fri the 27th", "Friday 27th": a weekday and a day of the month without the month ("teh": a typo)
_NTH = (
    rf"{_WEEKDAY_ABBR.replace('?P<wd>', '?P<nwd>')},?\s+(?:t(?:he|eh)\s+)?(?P<nth>\d{{1,2}})(?:st|nd|rd|th)\b"
    r"(?!\s+(?:of\s+)?(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec))"
)
_CUE = (  # "the client wants it Thursday 18:00 CET" (evals v13): a wish for a day is its deadline
    r"\b(?:by|before|until|till|due(?:\s+(?:on|by))?|deadline(?:\s+is)?[:,]?|no\s+later\s+than|for"
    # a form's label: "Needed by:  Friday 4 December 2026, 18:00 CET" (evals v15)
    r"|(?:needed|required|wanted|ready|done|delivered|results?)\s+by\s*:"
    r"|(?:wants?|needs?)\s+(?:it|this|them|the\s+\w+)(?:\s+(?:done|ready|back|delivered|finished))?"
    r"(?:\s+(?:by|on))?)\s+"
)
_DAY = (  # a weekday before a full date is that date: "by Friday 4 December" (evals v15)
    rf"(?:(?:(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?,?\s+)?{_DATE}|{_NTH}"
    rf"|(?:this\s+|(?P<next>next)\s+)?{_WEEKDAY_ABBR}(?![a-z])|(?P<tmrw>tomorrow|tmrw))"
)
_DAY_AT = keyed(
    # the day first: "by Friday EOD Pacific", "until Monday 9:00 our time (CET)", "due 26 Nov AoE"
    rf"{_CUE}(?:the\s+)?{_DAY}(?:,?\s+{_TIME})?(?:,?\s+{_ZONE})?"
    # the time first: "by 5pm Friday", "by 17:00 CET on Friday"
    rf"|{_CUE}{_TIME.replace('?P<', '?P<t_')}(?:\s+{_ZONE.replace('?P<zone>', '?P<t_zone>')})?\s+(?:on\s+)?"
    rf"(?:the\s+)?{_DAY.replace('?P<', '?P<t_')}",
    I,
)
_FORM_LABEL = re.compile(r"\w+\s+by\s*:", I)  # "Needed by: Thursday 26 November 2026" (a form's field)
_NTH_ALONE = keyed(rf"\b(?P<cue>deadline|due|by|before|until|on)\b[^.;!?]{{0,12}}?\b{_NTH}", I)

_UNIT = r"(?P<unit>hours?|hrs?|h|days?|weeks?|months?)"
_OFFSET_BEFORE = keyed(
    rf"\b(?P<num>{NUMBER}|an?)\s*{_UNIT}\s+(?:before|ahead\s+of|prior\s+to)\s+(?P<what>that|then|it|this"
    rf"|the\s+deadline|[^.;!?]{{0,50}}?\b(?:on|of|is|:|\()\s*{_DATE})",
    I,
)
_LIMIT_AFTER = keyed(
    rf"\b(?P<num>{NUMBER})\s*{_UNIT}\s+(?:max(?:imum)?|tops|at\s+(?:the\s+)?most|at\s+the\s+latest|or\s+less)\b"
    r"(?!\s+(?:wall|per|a\s+|each|every|job|run\s?time))",
    I,
)
_LABEL = keyed(
    # "Compute window: 3 weeks", "training window of 10 days" (expert review 11, R04)
    r"\b(?:time\s+(?:available|budget|allowed|limit)|available\s+time|(?:completion|delivery|compute|training"
    r"|gpu|cluster|time)\s+window"
    r"|lead\s+time|time\s+to\s+(?:deliver|complete|finish))\b\s*(?:is\s+|of\s+)?[:|=\t-]*\s*"
    rf"(?:~|about\s+|approx\.?\s*)?(?P<num>{NUMBER})\s*(?P<cal>calendar\s+)?(?P<unit>hours?|hrs?|h|days?|weeks?"
    r"|months?)\b",
    I,
)
_EVENTS = r"sprint|quarter|semester|term|pilot|trial|freeze|fiscal\s+year|fy|contract|milestone|iteration"
_EVENT_ENDS = keyed(
    rf"\b(?P<ev>{_EVENTS})\b[^.;!?]{{0,40}}?\b(?:ends?|ending|closes?|finishes)\s+(?:on\s+)?"
    rf"(?:{_DATE}|(?P<iso>20\d\d-\d\d-\d\d))",
    I,
)
_BEFORE_EVENT_END = keyed(
    rf"\b(?P<cue>before|by|until|till|ahead\s+of)\s+(?:the\s+)?(?:end\s+of\s+(?:the\s+)?(?:this\s+|current\s+)?"
    rf"(?P<ev>{_EVENTS})|(?:this\s+|current\s+)?(?P<ev2>{_EVENTS})\s+end)\b",
    I,
)
_MONTH = r"(?P<mname>jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?"
_BY = (  # "deadline, Dec 3 23:59 UTC": a comma may set the date off (evals v13)
    r"\b(?P<cue>by|before|until|till|due|no\s+later\s+than|ahead\s+of|deadline(?:\s+is)?[:,]?)\s+(?:the\s+)?"
)
# "by mid-December" (the 15th), "by EOW / EOM / EOY / EOQ", "by the end of Q1", "before Thanksgiving"
_CALENDAR = keyed(
    rf"{_BY}(?:(?:mid|middle\s+of)[\s-]+{_MONTH}|(?P<eo>eow|eom|eoq|eoy)\b"
    rf"|end\s+of\s+(?:the\s+)?q(?P<q>[1-4])(?:\s+(?P<qy>20\d\d))?\b"
    rf"|(?:us\s+)?(?P<thanks>thanksgiving)\b)",
    I,
)
# "by this time next week", "this time tomorrow": the same hour that many days on
_THIS_TIME = keyed(r"\b(?:by\s+)?this\s+time\s+(?P<when>next\s+week|tomorrow)\b", I)
# "two weeks from Monday", "ten days from now", "3 weeks from kick-off"
_FROM = keyed(
    rf"\b(?P<num>{NUMBER}|an?)\s*(?P<unit>hours?|hrs?|days?|weeks?|wks?|months?)\s+from\s+(?:(?P<now>now|today"
    rf"|kick[\s-]?off|the\s+start)\b|(?:next\s+)?{_WEEKDAY_ABBR}(?![a-z]))",
    I,
)
_WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
# a sentence that asks for the work done by then ("the cluster arrives 3 weeks from now" does not)
_DONE_WORD = re.compile(
    r"\b(?:need\w*|done|due|deadline|ready|finish\w*|deliver\w*|complete\w*|must|has\s+to|have)\b", I
)
THANKSGIVING_WEEK = 4  # US Thanksgiving: the fourth Thursday of November
EOW_WEEKDAY = 4  # "end of the week": the end of Friday, as rule_deadline reads "by the end of the week"
_DATE_RX = re.compile(_DATE, I)


def _zone(name: str | None, default: dt.tzinfo | None) -> dt.tzinfo | None:
    if not name:
        return default
    hours = _ZONE_HOURS[re.sub(r"\s+", " ", name.lower())]
    return dt.timezone(dt.timedelta(hours=hours))


def _clock(m: re.Match[str], p: str) -> dt.time | None:
    """The time of day a match names (None: the end of the day)."""
    said = (m.group(p + "time") or "").lower()
    if not said or said.startswith(("eod", "cob", "end", "close", "midnight")):
        return None
    if said == "morning":
        return dt.time(MORNING_HOUR)
    if said in ("noon", "midday"):
        return dt.time(NOON_HOUR)
    if m.group(p + "hh2"):
        return dt.time(int(m.group(p + "hh2")) % 24, int(m.group(p + "mm2")))
    hour = int(m.group(p + "hh")) % 12 + (12 if m.group(p + "ampm").lower().startswith("p") else 0)
    return dt.time(hour, int(m.group(p + "mm") or 0))


def _nth_day(today: dt.date, nth: int, weekday: int | None) -> dt.date | None:
    """The next day `nth` of a month on or after `today`, one that falls on `weekday` when one does."""
    found: list[dt.date] = []
    for k in range(12):
        month0 = today.month - 1 + k
        try:
            d = dt.date(today.year + month0 // 12, month0 % 12 + 1, nth)
        except ValueError:
            continue
        if d >= today:
            found.append(d)
    match = [d for d in found if weekday is None or d.weekday() == weekday]
    return match[0] if match else (found[0] if found else None)


def _day(m: re.Match[str], p: str, ref: dt.datetime) -> dt.date | None:
    today = ref.date()
    if m.group(p + "nth"):
        wd = _WEEKDAYS.index(m.group(p + "nwd").lower()[:3]) if m.group(p + "nwd") else None
        return _nth_day(today, int(m.group(p + "nth")), wd)
    if m.group(p + "mon") or m.group(p + "mon2"):
        dm = _DATE_RX.search(m.group(0))  # the date read again under date_of's group names
        return date_of(dm, today) if dm is not None else None
    if m.group(p + "tmrw"):
        return today + dt.timedelta(days=1)
    if m.group(p + "wd"):
        target = _WEEKDAYS.index(m.group(p + "wd").lower()[:3])
        days = (target - today.weekday()) % 7 or 7
        # "next Friday": the Friday of next week, as rule_deadline reads it
        return today + dt.timedelta(days=days + (7 if m.group(p + "next") and days < 7 else 0))  # noqa: PLR2004
    return None


def _add_due(ctx: Ctx, s: Sentence, m: re.Match[str], due: dt.datetime, said: str) -> None:
    if due > ctx.reference_time:
        conv = U.hours_until(ctx.reference_time, due, f'"{q(m)}" ({said})')
        ctx.add(s, "deadline_hours", conv.value, conv.how, "inferred", m.end())


def _day_at(ctx: Ctx, s: Sentence) -> None:
    """A day with a time or a zone, or a weekday and a day of the month (module docstring)."""
    ref = ctx.reference_time
    read: list[tuple[int, int]] = []
    for m in _DAY_AT.finditer(s.text):
        p = "t_" if m.group("t_time") else ""
        zone_name = m.group(p + "zone")
        if not (m.group(p + "time") or zone_name or _FORM_LABEL.match(m.group(0))):
            continue  # a day alone: rule_deadline reads it ("fri the 27th": _NTH_ALONE below)
        if (day := _day(m, p, ref)) is None:
            continue
        tz = _zone(zone_name, ref.tzinfo)
        when = _clock(m, p)
        read.append(m.span())
        if when is None:
            due = dt.datetime.combine(day + dt.timedelta(days=1), dt.time(0), tzinfo=tz)
            _add_due(ctx, s, m, due, f"end of {day:%a %d %b}" + (f" {zone_name}" if zone_name else ""))
        else:
            due = dt.datetime.combine(day, when, tzinfo=tz)
            _add_due(ctx, s, m, due, f"{day:%a %d %b} {when:%H:%M}" + (f" {zone_name}" if zone_name else ""))
    for m in _NTH_ALONE.finditer(s.text):
        if any(a < m.end() and m.start() < b for a, b in read):
            continue  # read above with its time
        wd = _WEEKDAYS.index(m.group("nwd").lower()[:3])
        if (day := _nth_day(ref.date(), int(m.group("nth")), wd)) is None:
            continue
        # "by / until / due" the day: its end (as rule_deadline reads "by Friday"); "deadline is": its start
        end = m.group("cue").lower() in ("by", "until", "due")
        due = dt.datetime.combine(day + dt.timedelta(days=int(end)), dt.time(0), tzinfo=ref.tzinfo)
        _add_due(ctx, s, m, due, f"{'end' if end else 'start'} of {day:%a %d %b}")


def _offsets(ctx: Ctx, s: Sentence, earlier: str) -> None:
    """A duration before a date: "two weeks before that", "a week before launch on December 10"."""
    ref = ctx.reference_time
    t = s.text
    for m in _OFFSET_BEFORE.finditer(t):
        if m.group("mon") or m.group("mon2"):
            anchor = date_of(m, ref.date())
        else:
            named = [*re.finditer(_DATE, earlier, I), *re.finditer(_DATE, t[: m.start()], I)]
            anchor = date_of(named[-1], ref.date()) if named else None
        if anchor is None:
            continue
        num = m.group("num")
        amount = 1.0 if num.lower() in ("a", "an") else parse_number(num)
        said = m.group("unit").lower()
        unit = "hour" if said in ("h", "hr", "hrs") else said.rstrip("s")
        hours = U.hours_from(amount, unit).value
        due = dt.datetime.combine(anchor, dt.time(0), tzinfo=ref.tzinfo) - dt.timedelta(hours=hours)
        _add_due(ctx, s, m, due, f"{num} {m.group('unit')} before the start of {anchor:%a %d %b}")


def _durations(ctx: Ctx, s: Sentence) -> None:
    """A limit after a duration ("10 days max") and a labelled time ("Time available: 5 days")."""
    for m in [*_LIMIT_AFTER.finditer(s.text), *_LABEL.finditer(s.text)]:
        unit = m.group("unit").lower()
        if re.match(r"(?:business|working)", s.text[m.end() :].strip(), I):
            continue
        unit = "hour" if unit in ("h", "hr", "hrs") else unit.rstrip("s")
        conv = U.hours_from(parse_number(m.group("num")), unit)
        ctx.add(s, "deadline_hours", conv.value, f'"{q(m)}": {conv.how}', "inferred", m.end())


def _event_ends(ctx: Ctx) -> None:
    """An event's end date said apart from "before sprint end" (module docstring)."""
    ref = ctx.reference_time
    ends: dict[str, dt.date] = {}
    for s in ctx.sentences:
        for m in _EVENT_ENDS.finditer(s.text):
            day = dt.date.fromisoformat(m.group("iso")) if m.group("iso") else date_of(m, ref.date())
            if day is not None:
                ends[re.sub(r"\s+", " ", m.group("ev").lower())] = day
    if not ends:
        return
    for s in ctx.sentences:
        for m in _BEFORE_EVENT_END.finditer(s.text):
            ev = re.sub(r"\s+", " ", (m.group("ev") or m.group("ev2")).lower())
            if (day := ends.get(ev)) is None:
                continue
            start = m.group("cue").lower() in ("before", "ahead of")
            due = dt.datetime.combine(day + dt.timedelta(days=int(not start)), dt.time(0), tzinfo=ref.tzinfo)
            _add_due(ctx, s, m, due, f"{'start' if start else 'end'} of {day:%a %d %b}, when the {ev} ends")


# dates that are not the work's deadline: when to answer ("Let me know by Friday", "Questions by 30
# November"), a meeting ("we meet on 24/11", "for Tuesday's ops review", "before Thursday's pre-read"),
# and a deadline said to be gone ("the 3-day deadline is gone too")
_NOT_A_DEADLINE = keyed(
    r"\b(?:let\s+(?:me|us)\s+know|get\s+back\s+to\s+(?:me|us)|reply|respond|questions?|rsvp|feedback"
    r"|comments?|(?:we|i)\s+(?:meet|talk|speak|sync)|meeting\s+is)\s+(?:\w+\s+){0,2}?(?:by|before|until|on)\s"
    r"|\b(?:by|before|for|until)\s+(?:this\s+|next\s+)?(?:mon|tues|wednes|thurs|fri|satur|sun)day'?s\s+"
    r"(?:[\w-]+\s+){0,2}?(?:review|meeting|call|sync|pre-?read|committee|stand-?up|check-?in|1:1|offsite)\b"
    # time kept for something else: "to leave a week for evals", "allowing two days of buffer"
    r"|\b(?:leave|leaving|allow|allowing|keep|keeping|reserve|reserving)\s+(?=(?:a|an|one|two|three|\d+)\s+"
    r"(?:days?|weeks?)\s+(?:for|of|as)\b)"
    r"|\bdeadline\s+(?:is|was|has\s+been)\s+(?:\w+\s+)?(?:gone|lifted|dropped|removed|cancell?ed|scrapped|off"
    r"|no\s+longer)\b",
    I,
)
_NOT_A_DEADLINE_REACH = 40  # characters after the cue in which the date it dates is written


def _drop_non_deadlines(ctx: Ctx) -> None:
    """Remove the deadline findings read from dates that are not the work's deadline (above)."""
    spans: list[tuple[int, int]] = []
    for s in ctx.sentences:
        for m in _NOT_A_DEADLINE.finditer(s.text):
            gone = m.group(0).lower().startswith("deadline")
            base = s.start - (QUOTED_PENALTY if s.quoted else 0)  # as Ctx.add places a finding
            spans.append((base if gone else base + m.start(), base + m.end() + _NOT_A_DEADLINE_REACH))
    if spans:
        ctx.findings[:] = [
            f for f in ctx.findings
            if f.field != "deadline_hours" or not any(a <= f.position <= b for a, b in spans)
        ]  # fmt: skip


def _ahead(today: dt.date, month: int, day: int) -> dt.date:
    """`day` of `month` this year, or next year when it has passed."""
    d = dt.date(today.year, month, day)
    return d if d >= today else dt.date(today.year + 1, month, day)


def _month_end(year: int, month: int) -> dt.date:
    return dt.date(year + month // 12, month % 12 + 1, 1) - dt.timedelta(days=1)


def _calendar_day(m: re.Match[str], today: dt.date) -> dt.date | None:
    """The day a calendar phrase of _CALENDAR names (its last day for a period)."""
    if m.group("mname"):
        return _ahead(today, _MONTHS.index(m.group("mname").lower()[:3]) + 1, 15)
    if m.group("thanks"):
        for year in (today.year, today.year + 1):
            first = dt.date(year, 11, 1)
            day = first + dt.timedelta(days=(3 - first.weekday()) % 7 + 7 * (THANKSGIVING_WEEK - 1))
            if day >= today:
                return day
        return None
    if m.group("q"):
        year = int(m.group("qy")) if m.group("qy") else today.year
        end = _month_end(year, 3 * int(m.group("q")))
        return end if end >= today or m.group("qy") else _month_end(year + 1, 3 * int(m.group("q")))
    eo = m.group("eo").lower()
    if eo == "eow":
        return today + dt.timedelta(days=(EOW_WEEKDAY - today.weekday()) % 7)
    if eo == "eom":
        return _month_end(today.year, today.month)
    if eo == "eoq":
        return _month_end(today.year, 3 * ((today.month - 1) // 3 + 1))
    return dt.date(today.year, 12, 31)


def _calendar(ctx: Ctx, s: Sentence) -> None:
    """Mid-month, EOW / EOM / EOQ / EOY, the end of a quarter, Thanksgiving, "N days from Monday"."""
    ref = ctx.reference_time
    for m in _CALENDAR.finditer(s.text):
        if (day := _calendar_day(m, ref.date())) is None:
            continue
        cue = m.group("cue").lower()
        start = cue in ("before", "ahead of") or cue.startswith("deadline")
        due = dt.datetime.combine(day + dt.timedelta(days=int(not start)), dt.time(0), tzinfo=ref.tzinfo)
        _add_due(ctx, s, m, due, f"{'start' if start else 'end'} of {day:%a %d %b}")
    for m in _THIS_TIME.finditer(s.text):
        days = 7 if m.group("when").lower().startswith("next") else 1
        _add_due(ctx, s, m, ref + dt.timedelta(days=days), f"{days} x 24 h from now")
    for m in _FROM.finditer(s.text) if _DONE_WORD.search(s.text) else ():
        num = m.group("num")
        amount = 1.0 if num.lower() in ("a", "an") else parse_number(num)
        said = m.group("unit").lower()
        unit = "hour" if said.startswith("h") else "week" if said.startswith("w") else said.rstrip("s")
        span = dt.timedelta(hours=U.hours_from(amount, unit).value)
        if m.group("now"):
            _add_due(ctx, s, m, ref + span, "from now")
            continue
        target = _WEEKDAYS.index(m.group("wd").lower()[:3])
        day = ref.date() + dt.timedelta(days=(target - ref.weekday()) % 7 or 7)
        due = dt.datetime.combine(day, dt.time(0), tzinfo=ref.tzinfo) + span
        _add_due(ctx, s, m, due, f"{num} {m.group('unit')} from the start of {day:%a %d %b}")


def rule_deadline_forms(ctx: Ctx) -> None:
    """deadline_hours from the forms of the module docstring."""
    earlier = ""
    for s in ctx.sentences:
        if s.start in ctx.claim_sentences:
            earlier = s.text
            continue
        _day_at(ctx, s)
        _offsets(ctx, s, earlier)
        _durations(ctx, s)
        _calendar(ctx, s)
        earlier = s.text
    _event_ends(ctx)
    _drop_non_deadlines(ctx)
