"""How long money lasts is no deadline (issue 12; evals v13, read as development data): "Grant money left:
$3,400 for the whole group until the end of the year" was read as a job due on 31 December. A date after
"until" / "till" / "through" in the same clause as an amount of money or a funding word ("grant", "budget",
"credits", "funding") says when the money runs out; the deadline read from it is dropped (the job's own
date, said elsewhere, stands). "Finish by the end of the year; budget $3k" and "Budget $3k, and the job must
run until the end of next week" keep their deadlines."""

from __future__ import annotations

import re

from advisor.extract.rules_ctx import QUOTED_PENALTY, Ctx, Gated, I

_MONEY_UNTIL = Gated(
    re.compile(
        r"(?:[$€£¥₹]\s*\d[\d,.]*(?:\s*[km]\b)?|\b\d[\d,.]*\s*(?:k|m)?\s*(?:usd|eur|euros?|dollars?|gbp|chf)\b"
        r"|\b(?:grant|budget|credits|funding|funds|money)\b)"
        # one clause, about the money: no comma, and no word about the job ("..., and the job must run until")
        r"(?:(?!\b(?:job|run|runs|must|need|needs|finish\w*|done|ready|deliver\w*)\b)[^.;:!?,]){0,60}?"
        r"\b(?P<until>(?:until|till|through|thru)\s+(?:the\s+)?(?:end\s+of\s+)?)",
        I,
    ),
    "until", "till", "through", "thru",
)  # fmt: skip
_REACH = 40  # characters after "until" the date's words may end


def rule_money_period(ctx: Ctx) -> None:
    """Drop deadline_hours findings read from the period an amount of money lasts (module docstring)."""
    for s in ctx.sentences_with(_MONEY_UNTIL):  # a finding is dropped only where it matches
        shift = s.start - (QUOTED_PENALTY if s.quoted else 0)
        for m in _MONEY_UNTIL.finditer(s.text):
            lo, hi = shift + m.start("until"), shift + m.end("until") + _REACH
            ctx.findings[:] = [
                f for f in ctx.findings if not (f.field == "deadline_hours" and lo <= f.position <= hi)
            ]
