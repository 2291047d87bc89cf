"""Deadlines said as a numeric date or a day of the month (moved from rules_money_time.py, module size):
"until 15.01.2027", "Deadline 03/12", "by the 30th"."""

from __future__ import annotations

import datetime as dt
import re

from advisor.extract.regex_keys import keyed
from advisor.extract.rules_ctx import I

# a numeric date after a deadline word: "until 15.01.2027", "Deadline 03/12", "by 3/12/2026"
NUMERIC_DATE = keyed(
    r"\b(?:by|before|until|till|due(?:\s+(?:on|by))?|deadline(?:\s+is)?:?|finish(?:ed)?\s+(?:until|by)|on"
    r"|no\s+later\s+than|(?:due|deadline)\s+date:?)\s+(?:the\s+)?"
    # a weekday or "at the latest" between (evals v18 form): "Deadline: spätestens Freitag, 11.12.2026"
    r"(?:(?:at\s+the\s+latest|spätestens|latest)\s+)?(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day,?\s+"
    r"|(?:montag|dienstag|mittwoch|donnerstag|freitag|samstag|sonntag),?\s+)?(?P<a>\d{1,2})(?P<sep>[./]|-(?=\d{1,2}-20\d\d\b))(?P<b>\d{1,2})(?:(?P=sep)(?P<y>(?:20)?\d\d))?\b"
    r"(?![./]\d)"  # a hyphen only with a 4-digit year: Dutch "30-11-2026" (dd-mm-jjjj), not "by 3-4 days"
    # not a quantity: "on 1.5 billion tokens", "on 2.5 TB of text", "on 1.5k pairs", "on 8.5 hours"
    r"(?!\s*(?:[kmbt]\b|bn\b|mn\b|mln\b|bln\b|thousand|million|billion|trillion|tokens?\b|toks?\b|[gtm]i?b\b"
    r"|%|x\b|h\b|hrs?\b|hours?\b|days?\b|weeks?\b|months?\b|epochs?\b|gpus?\b|nodes?\b|pairs?\b))",
    I,
)


def numeric_date(m: re.Match[str], today: dt.date) -> dt.date | None:
    """The date of a numeric deadline. Dots are day.month (European); with a slash both day/month and
    month/day are tried and the earliest date still ahead is taken (a deadline is near, not months off)."""
    a, b = int(m.group("a")), int(m.group("b"))
    year = m.group("y")
    years = [int(year) + (2000 if len(year) == 2 else 0)] if year else [today.year, today.year + 1]
    orders = [(b, a)] if m.group("sep") == "." else [(b, a), (a, b)]
    found: list[dt.date] = []
    for month, day in orders:
        for y in years:
            try:
                d = dt.date(y, month, day)
            except ValueError:
                continue
            if d >= today:
                found.append(d)
    return min(found) if found else None


# a day of the month with no month: "by the 30th" (this month's, or next month's when it has passed)
BY_ORDINAL = keyed(
    r"\b(?:by|before|until|till|due(?:\s+(?:on|by))?|on|no\s+later\s+than|deadline(?:\s+is)?:?)\s+the\s+"
    r"(?P<day>[1-9]|[12]\d|3[01])(?:st|nd|rd|th)\b"
    r"(?!\s+(?:of\s+)?(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|century|floor|percentile))",
    I,
)


def month_days(start: dt.date, day: int) -> list[dt.date]:
    """`day` of this month and of the next two (months that have it), in order."""
    out: list[dt.date] = []
    for k in range(3):
        month0 = start.month - 1 + k
        try:
            out.append(dt.date(start.year + month0 // 12, month0 % 12 + 1, day))
        except ValueError:
            continue
    return out
