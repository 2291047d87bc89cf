"""A reserved-term price question on the work itself (expert review 20, R07/P07): "how does that compare
with paying for a year up front?", "and what with a 1-year reserved commitment?", "what if we prepay
annually?", "would a 3-year reservation be cheaper?". Read as reserved_months_asked (12 for a year,
annual or up front said alone; 36 for three years); tools.recommend.reserved_answer gives the term's figures
for the pick. The term is a price asked, not the plan's length: a horizon read from the same words is
dropped, and so is a pricing rule read from the question (on-demand or spot ruled out). Not a
reservation the team holds ("we hold a 1-year reservation of 16 H100s", rules_reservation), nor a
statement without a question ("we signed a 1-year commitment"), nor the fleet's own question
(rules_current_fleet reads that one)."""

from __future__ import annotations

import re

from advisor.extract.regex_keys import keyed
from advisor.extract.rules_ctx import QUOTED_PENALTY, Ctx, I, q
from advisor.extract.rules_text import NUMBER, parse_number

_YEAR = rf"(?P<num>{NUMBER}|an?|one|two|three)[\s-]*(?P<unit>years?|yrs?|months?)"
_TERM_ASKED = keyed(
    rf"\b{_YEAR}[\s-]+(?:reserv\w*|commit\w*|term|contract|prepa\w*|savings\s+plan)"
    rf"|\breserv\w*\s+(?:it\s+|them\s+|capacity\s+|instances?\s+)?(?:for\s+)?(?P<n2>{NUMBER}|an?|one|two|three)"
    r"[\s-]*(?P<u2>years?|yrs?|months?)\b"
    rf"|\b(?:pay\w*|prepay\w*|commit\w*)\s+(?:for\s+)?(?P<n3>{NUMBER}|an?|one|two|three)[\s-]*(?P<u3>years?|yrs?"
    r"|months?)\s+(?:up[\s-]?front|in\s+advance|ahead)"
    r"|\b(?P<annual>annual(?:ly)?|yearly)\s+(?:pre-?pa\w*|commit\w*|reserv\w*|up[\s-]?front|contract)"
    r"|\b(?:pre-?pa\w*|reserv\w*|commit\w*)\s+(?P<annual2>annual(?:ly)?|yearly|for\s+the\s+year)\b",
    I,
)
# a question about it: a question mark, or the words of a comparison or a price asked
_ASKING = re.compile(
    r"\?|\b(?:compare\w*|vs\.?|versus|what\s+(?:about|with|if)|how\s+much|would|could|cheaper|price"
    r"|quote)\b",
    I,
)
# a reservation held or signed, not asked about
_HELD = re.compile(r"\b(?:we\s+(?:hold|have|had|signed|bought|own)|our\s+(?:\w+\s+)?reserv\w*)\b", I)
_WORDS = {"a": 1.0, "an": 1.0, "one": 1.0, "two": 2.0, "three": 3.0}


def rule_reserved_question(ctx: Ctx) -> None:
    """reserved_months_asked from a reserved-term question on the work (module docstring)."""
    if ctx.has("reserved_months_asked") or ctx.has("current_gpu"):
        return  # the fleet's own question (rules_current_fleet) is read there
    for s in ctx.sentences:
        t = s.text
        m = _TERM_ASKED.search(t)
        if m is None or _ASKING.search(t) is None or _HELD.search(t) is not None:
            continue
        if m.group("annual") or m.group("annual2"):
            months, status = 12.0, "inferred"
        else:
            num = m.group("num") or m.group("n2") or m.group("n3") or "1"
            unit = (m.group("unit") or m.group("u2") or m.group("u3") or "year").lower()
            value = _WORDS.get(num.lower()) or parse_number(num)
            months = value * 12.0 if unit.startswith("y") else value
            status = "stated" if unit.startswith("mo") else "inferred"
        said = f'"{q(m)}": the reserved term asked about'
        ctx.add(s, "reserved_months_asked", months, said, status, m.start())
        lo = s.start - (QUOTED_PENALTY if s.quoted else 0)
        span = (lo + m.start() - 12, lo + m.end() + 12)
        hi = lo + len(t)
        # a price asked, not how long the plan runs, nor a rule against on-demand or spot
        ctx.findings[:] = [
            f
            for f in ctx.findings
            if not (f.field == "horizon_months" and span[0] <= f.position <= span[1])
            and not (f.field == "pricing_excluded" and lo <= f.position <= hi)
        ]
        return
