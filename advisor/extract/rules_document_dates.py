"""A document's due date is no deadline for the job (issue 12; evals v16, read as development data): "From our
camera-ready draft (due 9 December), Appendix C — Compute: ..." was read as a job due on 9 December. A date
said as "(due ...)" or ", due ...," right after a document noun (draft, camera-ready, paper, manuscript,
thesis, slides, report, proposal, deck, submission) belongs to that document; the deadline read from it is
dropped, unless the same sentence ties the job to it ("the run must finish before the paper, due 9 Dec").
The job's own date, said elsewhere, stands."""

from __future__ import annotations

import re

from advisor.extract.rules_ctx import QUOTED_PENALTY, Ctx, Gated, I

_DOCUMENT_DUE = Gated(
    re.compile(
        r"\b(?:camera[\s-]?ready|draft|paper|manuscript|thesis|dissertation|slides|slide\s+deck|deck|report"
        r"|proposal|write-?up|submission|rebuttal|poster|preprint)\s*(?:\(|,|—|–|-)\s*(?P<due>due\b)",
        I,
    ),
    "due",
)
# the job tied to the document's date in the same sentence: then the date is the job's too
_JOB_TIED = re.compile(
    r"\b(?:before|ahead\s+of|in\s+time\s+for|for)\s+(?:the\s+|our\s+)?(?:camera|draft|paper|manuscript|thesis"
    r"|dissertation|slides|deck|report|proposal|submission|rebuttal|poster|preprint)",
    I,
)
_REACH = 40  # characters after "due" the date's words may end


def rule_document_due_dates(ctx: Ctx) -> None:
    """Drop deadline_hours findings read from a document's own due date (module docstring)."""
    for s in ctx.sentences_with(_DOCUMENT_DUE):  # a finding is dropped only where it matches
        if _JOB_TIED.search(s.text):
            continue
        shift = s.start - (QUOTED_PENALTY if s.quoted else 0)
        for m in _DOCUMENT_DUE.finditer(s.text):
            lo, hi = shift + m.start("due"), shift + m.end("due") + _REACH
            ctx.findings[:] = [
                f for f in ctx.findings if not (f.field == "deadline_hours" and lo <= f.position <= hi)
            ]
