"""The length of a held reservation as the time left on it, when the text asks whether the job fits in it.

"We hold a 30-day reservation on 8x H200 at Lambda. Is that enough to do ... within the reservation?",
"We have 8x H200 reserved at Lambda for 30 days. Is that enough ...?" (expert review 14, R10 and P10: the
hardware was read, the 30 days were not, so the reply gave hours but no yes/no against the term). A term
said with the reservation ("a 30-day reservation", "reserved ... for 30 days") is the window the question
weighs the job against: owned_months_left, which the reply compares with the job's hours
(tools/recommend/owned_first.py window_line). Not read without such a question: "a 1-year reservation"
alone may be half used (advisor/extract/rules_reservation.py).
"""

from __future__ import annotations

from advisor.extract.regex_keys import keyed
from advisor.extract.rules_ctx import Ctx, I, q
from advisor.extract.rules_text import NUMBER, parse_number
from advisor.extract.units_text import term_months

_UNIT = r"(?P<unit>months?|mos?|weeks?|wks?|days?)"
# the term said with the reservation: "a 30-day reservation", "reserved at Lambda for 30 days"
_TERM = keyed(
    rf"\b(?P<num>{NUMBER})[\s-]{_UNIT}\s+(?:reservation|reserved\s+(?:block|node|cluster|capacity)|booking"
    rf"|lease|commitment)\b"
    rf"|\breserved\b[^.;?!]{{0,40}}?\bfor\s+(?:(?:the\s+)?next\s+)?(?P<num2>{NUMBER})\s+"
    r"(?P<unit2>months?|mos?|weeks?|wks?|days?)\b",
    I,
)
# the question weighs the job against that window
_FITS_IN = keyed(
    r"\b(?:within|during|inside|in|before\s+the\s+end\s+of)\s+(?:the|that|this|our|its)\s+"
    r"(?:reservation|booking|lease|term|window|period|time)\b"
    r"|\b(?:is|are|would|will)\s+(?:that|it|this|they|those|these)\s+(?:be\s+)?(?:enough|sufficient)\b"
    r"|\b(?:enough|sufficient)\s+(?:time|days|weeks)\b",
    I,
)


def rule_reservation_term(ctx: Ctx) -> None:
    """owned_months_left from the held reservation's stated length, when the text asks whether the job
    fits in it and no term left was read."""
    if not ctx.has("owned_reserved") or ctx.has("owned_months_left"):
        return
    if not any(_FITS_IN.search(s.text) for s in ctx.sentences):
        return
    for s in ctx.sentences:
        if (m := _TERM.search(s.text)) is None:
            continue
        num, unit = (
            (m.group("num"), m.group("unit")) if m.group("num") else (m.group("num2"), m.group("unit2"))
        )
        months = term_months(parse_number(num), unit)
        if months <= 0:
            continue
        status = "stated" if unit.lower().startswith("mo") else "inferred"
        ev = f'"{q(m)}": the reservation\'s window, which the question weighs the job against'
        ctx.add(s, "owned_months_left", months, ev, status, m.start())
        return
