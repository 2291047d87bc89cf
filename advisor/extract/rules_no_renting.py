"""deployment_preference on_prem when the team owns GPUs and rules renting out (issue 12; evals v14 read
as development data): "We don't want to rent anything", "renting is not possible", "we are not having any
cloud budget", "do NOT burst to the cloud". With owned hardware in the conversation, declining to rent
means the job runs on that hardware; without owned hardware the same words are left to the other rules
(they may mean buying, or a GPU not to rent). A condition ("if renting is not possible") or a contrast
that keeps renting open ("we don't want to rent long term, but a week is fine") is not a refusal.
"""

from __future__ import annotations

import re

from advisor.extract.rules_ctx import Ctx, I, q

_NO_RENTING = re.compile(
    r"\b(?:don'?t|do\s+not|won'?t|will\s+not|can'?t|cannot|never|not\s+allowed\s+to)\s+(?:want\s+to\s+|plan\s+to\s+"
    r"|intend\s+to\s+)?(?:rent|lease|burst)\b"
    r"|\brent(?:ing|al)\s+(?:is|isn'?t|are|aren'?t)\s+(?:not\s+)?(?:possible|an\s+option|allowed|approved)\b"
    r"|\bno\s+(?:renting|rentals?|cloud\s+burst(?:ing)?|bursting)\b"
    r"|\b(?:no|not\s+(?:having|have)\s+any|zero)\s+(?:cloud|rental|renting)\s+budget\b",
    I,
)
# the refusal itself kept open or made a condition: "if renting is not possible", "rentals aren't possible
# until March", "... but a week of rented H100s is fine"
_OPEN = re.compile(r"\b(?:if|unless|until|except|but\b[^.]{0,40}\b(?:fine|ok|okay|allowed))\b", I)
_POSITIVE = re.compile(r"\brent(?:ing|al)\s+is\s+(?:possible|an\s+option|allowed|fine)\b", I)


def rule_no_renting(ctx: Ctx) -> None:
    """deployment_preference = on_prem for a refusal to rent when owned GPUs are known."""
    if any(f.field == "deployment_preference" for f in ctx.findings):
        return
    owns = any(f.field == "owned_gpu" and f.value for f in ctx.findings) or bool(
        ctx.prior is not None and ctx.prior.owned_gpu
    )
    if not owns:
        return
    for s in ctx.sentences_with(_NO_RENTING):  # a finding needs it to match
        m = _NO_RENTING.search(s.text)
        if m is None or _POSITIVE.search(s.text):
            continue
        if _OPEN.search(s.text[max(0, m.start() - 40) : m.end() + 60]):
            continue
        ctx.add(s, "deployment_preference", "on_prem", f"{q(m)} (the owned GPUs, no rented ones)", "inferred",
                m.start())
        return
