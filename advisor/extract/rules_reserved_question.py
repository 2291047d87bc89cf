"""A reserved-term price question on the work itself (expert review 20, R07/P07): "how does that compare
with paying for a year up front?", "and what with a 1-year reserved commitment?", "what if we prepay
annually?", "would a 3-year reservation be cheaper?". Read as reserved_months_asked (12 for a year,
annual or up front said alone; 36 for three years); tools.recommend.reserved_answer gives the term's figures
for the pick. The term is a price asked, not the plan's length: a horizon read from the same words is
dropped, and so is a pricing rule read from the question (on-demand or spot ruled out). Not a
reservation the team holds ("we hold a 1-year reservation of 16 H100s", rules_reservation), nor a
statement without a question ("we signed a 1-year commitment"), nor the fleet's own question
(rules_current_fleet reads that one).

The set-up the term would be signed for, when the question names one ("a 3-year reservation for 8x H100",
"reserve 16 H200s for a year", "a 1-year commitment on 4x A100"), is a claim the answer sizes and prices
(claimed_gpu, claimed_gpu_count; tools.recommend.reserved_answer prices it reserved and on demand). The
other side of the choice ("... or stay on demand?", "or keep paying as we go", "vs on-demand") is part of
the question, read with it: it is not a rule against reserved capacity nor one against on-demand."""

from __future__ import annotations

import re

from advisor.extract.regex_keys import keyed
from advisor.extract.rules_ctx import QUOTED_PENALTY, Ctx, I
from advisor.extract.rules_models import GPU_RE, resolve_gpu
from advisor.extract.rules_text import NUMBER, parse_number
from tools.profile import RESERVED_SETUP_HOW

_YEAR = rf"(?P<num>{NUMBER}|an?|one|two|three)[\s-]*(?P<unit>years?|yrs?|months?)"
_TERM_ASKED = keyed(
    rf"\b{_YEAR}[\s-]+(?:reserv\w*|commit\w*|term|contract|prepa\w*|savings\s+plan)"
    rf"|\breserv\w*\s+(?:it\s+|them\s+|capacity\s+|instances?\s+)?(?:for\s+)?(?P<n2>{NUMBER}|an?|one|two|three)"
    r"[\s-]*(?P<u2>years?|yrs?|months?)\b"
    rf"|\b(?:pay\w*|prepay\w*|commit\w*)\s+(?:for\s+)?(?P<n3>{NUMBER}|an?|one|two|three)[\s-]*(?P<u3>years?|yrs?"
    r"|months?)\s+(?:up[\s-]?front|in\s+advance|ahead)"
    rf"|\breserv\w*\s+(?:[\w×.-]+\s+){{1,4}}?for\s+(?P<n4>{NUMBER}|an?|one|two|three)[\s-]*(?P<u4>years?|yrs?"
    r"|months?)\b"
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
# the set-up it is for, its count before the cards: "for 8x H100", "on 4 x A100s", "of 16 H200s"
_SETUP_COUNT = re.compile(r"(?P<num>\d+)\s*(?:x|×)?\s*(?:nvidia\s+)?$", I)
_SETUP_FIELDS = ("claimed_gpu", "claimed_gpu_count")
SETUP_NEAR_CHARS = 40
"""How far from the term's words the set-up it is for is looked for ("a 3-year reservation for 8x H100")."""
# the other side of the choice: "or stay on demand", "or keep paying as we go", "vs on-demand"
_OTHER_SIDE = re.compile(
    r"\s*,?\s*(?:or|vs\.?|versus)\s+(?:should\s+we\s+|do\s+we\s+|just\s+|we\s+)?"
    r"(?:(?:stay|keep|remain|continue|go|stick)\s+(?:on|with|paying|using)?\s*)?(?:pay(?:ing)?\s+)?"
    r"(?:on[\s-]?demand|as\s+(?:we|you)\s+go|pay[\s-]as[\s-](?:we|you)[\s-]go|hourly)\b(?:\s+(?:pricing|rates?|instances?))?",
    I,
)


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
            num = m.group("num") or m.group("n2") or m.group("n3") or m.group("n4") or "1"
            unit = (m.group("unit") or m.group("u2") or m.group("u3") or m.group("u4") or "year").lower()
            value = _WORDS.get(num.lower()) or parse_number(num)
            months = value * 12.0 if unit.startswith("y") else value
            status = "stated" if unit.startswith("mo") else "inferred"
        lo = s.start - (QUOTED_PENALTY if s.quoted else 0)
        begin, end = m.start(), m.end()
        setup = _setup(t, m.start(), m.end())
        if setup is not None:
            gpu, count, begin, end = setup
            said = f'"{t[begin:end].strip()}": {RESERVED_SETUP_HOW}'
            # the set-up as a claim read from these words by the claim rules ("16 H200s") is this one
            ctx.findings[:] = [
                f for f in ctx.findings
                if not (f.field in _SETUP_FIELDS and lo + begin - 1 <= f.position <= lo + end + 1)
            ]  # fmt: skip
            if not ctx.has("claimed_gpu"):
                ctx.add(s, "claimed_gpu", gpu, said, "stated", m.start())
                ctx.add(s, "claimed_gpu_count", count, said, "stated", m.start())
        other = _OTHER_SIDE.match(t, end)
        end = other.end() if other is not None else end
        said = f'"{t[begin:end].strip()}": the reserved term asked about'
        ctx.add(s, "reserved_months_asked", months, said, status, m.start())
        span = (lo + begin - 12, lo + end + 12)
        hi = lo + len(t)
        # a price asked, not how long the plan runs, nor a rule against on-demand or spot
        ctx.findings[:] = [
            f
            for f in ctx.findings
            if not (f.field == "horizon_months" and span[0] <= f.position <= span[1])
            and not (f.field == "pricing_excluded" and lo <= f.position <= hi)
        ]
        return


def _setup(t: str, start: int, end: int) -> tuple[str, int, int, int] | None:
    """(catalog GPU id, count, where the term and the set-up's words begin and end) of the set-up named
    with the term, or None."""
    for g in GPU_RE.finditer(t, max(0, start - SETUP_NEAR_CHARS), min(len(t), end + SETUP_NEAR_CHARS)):
        before = t[max(0, g.start() - 12) : g.start()]
        count = _SETUP_COUNT.search(before)
        if count is None or int(count.group("num")) < 1:
            continue
        at = g.start() - len(before) + count.start()
        return resolve_gpu(g.group("gpu")), int(count.group("num")), min(start, at), max(end, g.end())
    return None
