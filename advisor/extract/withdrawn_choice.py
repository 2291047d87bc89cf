"""A choice taken back by naming it (issue 12, gap 6): "Scratch the Nebius preference: it has to be GCP",
"Forget the AWS requirement, we must use Azure", "drop the Lambda idea".

The provider named inside the withdrawal is no preference, requirement or exclusion of the sentence
(rules_corrections._withdrawn takes it off the earlier turns' lists), and the cue words of the withdrawal
("scratch", "preference") do not reach the providers after it: what follows the withdrawal is read on its
own ("it has to be GCP" is a requirement). "Scratch Lambda" with no choice word stays an exclusion
(rules_provider_cues._EXCLUDE).
"""

from __future__ import annotations

import re

from advisor.extract.base import Finding
from advisor.extract.rules_ctx import Ctx

_WITHDRAWN_CHOICE = re.compile(
    r"\b(?:scratch|forget(?:\s+about)?|drop|ignore|disregard|strike|cancel|withdraw|scrap)\s+(?:the\s+|that\s+"
    r"|my\s+|our\s+|your\s+)?(?:[\w.-]+\s+){1,2}?(?:preference|requirement|idea|suggestion|wish|choice|bit|part"
    r"|thing|option|plan|constraint|restriction|exclusion)s?\b[^,;:.!?]{0,30}?(?:\s*[,;:.!?–—-]|$)",
    re.I,
)


def withdrawn_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of each withdrawal of a named choice in `text`, its closing punctuation included."""
    if not re.search(r"scratch|forget|drop|ignore|disregard|strike|cancel|withdraw|scrap", text, re.I):
        return []
    return [m.span() for m in _WITHDRAWN_CHOICE.finditer(text)]


def inside(spans: list[tuple[int, int]], at: int) -> bool:
    """Whether position `at` lies inside one of `spans`."""
    return any(a <= at < b for a, b in spans)


def after_withdrawal(spans: list[tuple[int, int]], start: int, at: int) -> int:
    """Where the cue words before position `at` begin: `start`, or the end of the last withdrawal between
    them (its words are about the choice taken back, not the provider at `at`)."""
    return max((b for a, b in spans if start <= a and b <= at), default=start)


def _values(value: object) -> list[str]:
    return [value] if isinstance(value, str) else [str(v) for v in value] if isinstance(value, list) else []


def rule_required_over_preferred(ctx: Ctx) -> None:
    """A requirement replaces a contradicting earlier preference (ext22 gap 6): "We'd prefer Nebius." then
    "It has to be GCP." kept Nebius preferred beside GCP required. A provider preferred before (earlier in
    the text, or in the earlier turns' profile) that the requirement leaves out is taken off the
    preferences; one the requirement includes ("AWS or GCP" after "we prefer GCP") stays, and a
    preference stated after the requirement is the user's last word and stays."""
    reqs = [f for f in ctx.findings if f.field == "providers_required" and not f.retract and f.value]
    for s in ctx.sentences:
        here = [f for f in reqs if s.start <= f.position < s.start + len(s.text)]
        if not here:
            continue
        required = {p for f in here for p in _values(f.value)}  # "from runpod": both of its offers
        said = [f for f in ctx.findings if f.field == "providers_preferred" and not f.retract]
        earlier = [p for f in said if f.position < s.start for p in _values(f.value)]  # an earlier sentence
        before = list(dict.fromkeys([*(ctx.prior.providers_preferred if ctx.prior else []), *earlier]))
        gone = [p for p in before if p not in required]
        if gone:
            at = min(f.position for f in here)
            ev = f"{here[0].evidence} (a requirement): replaces the earlier preference for {', '.join(gone)}"
            ctx.findings.append(Finding(field="providers_preferred", value=gone, status="stated", evidence=ev,
                                        position=at, correction=True, retract=True))  # fmt: skip
