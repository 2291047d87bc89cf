"""The term left on held capacity said as the date it ends: "a reserved block of 64 H200s on Lambda that
runs out on 4 December" (evals/cases_v7 `v7-hw-reservation-lapses-dec-4`; expert review 12 policy: held
capacity is owned, answered on first, and judged against the time left on it).

owned_months_left is the time from the reference time to the start of that day (the capacity may be gone
during it), in price-sheet months (advisor.extract.units_text.months_until, 730 h). Read only in the
sentence the owned GPUs were read from, when it has reservation or lease wording; "the demo is on 4 December"
is no term.
"""

from __future__ import annotations

import datetime as dt

from advisor.extract import units_text as U
from advisor.extract.regex_keys import keyed
from advisor.extract.rules_ctx import Ctx, I, q
from advisor.extract.rules_dates import _DATE, date_of

_ENDS_ON = keyed(
    rf"\b(?:runs?\s+out|expires?|ends?|lapses?|is\s+up|finish(?:es)?)\s+(?:on\s+)?{_DATE}",
    I,
)
_TERM_WORD = keyed(r"\b(?:reserv(?:ation|ed)|lease[ds]?|commit(?:ment|ted)|pre-?paid|contract|booking)\b", I)


def term_until_date(ctx: Ctx, at: int) -> bool:
    """owned_months_left from "... that runs out on 4 December" in sentence `at` (module docstring)."""
    s = ctx.sentences[at]
    m = _ENDS_ON.search(s.text)
    if m is None or _TERM_WORD.search(s.text) is None:
        return False
    ref = ctx.reference_time
    day = date_of(m, ref.date())
    if day is None:
        return False
    end = dt.datetime.combine(day, dt.time(0, 0), tzinfo=ref.tzinfo)
    if end <= ref:
        return False
    conv = U.months_until(ref, end, f'"{q(m)}" (the start of that day)')
    ctx.add(s, "owned_months_left", conv.value, conv.how, "inferred", m.start())
    return True
