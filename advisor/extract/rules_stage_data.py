"""Two training stages with two data sizes in one message (expert review 20, problem 2).

R03 "continue pre-training Mistral-7B-v0.3 on 60B tokens ... followed by a short SFT stage of ~150M
tokens" was sized as a 150M-token job: the later statement won, as a correction would, and the 60B was
silently dropped (~400x low). A later, smaller size introduced as a following stage ("followed by",
"then", "afterwards", "a short SFT stage", "stage 2", "second phase") is another stage, not a revision: the
main (first, larger) stage is sized and the later stage's finding is dropped, so its words are listed as
not used (advisor/extract/accounting.py) rather than replacing the main one.
Near misses: a correction ("60B tokens, sorry, 6B"; the corrections rules own it), a larger later stage
("then pre-train on 1T tokens": the biggest stage stays the main one, as read), a per-run figure.
"""

from __future__ import annotations

import re

from advisor.extract.base import Finding
from advisor.extract.regex_keys import keyed
from advisor.extract.rules_ctx import Ctx, I

# words before a size that open a following stage, within the same or the next sentence
_NEXT_STAGE = keyed(
    r"\b(?:followed\s+by|then|afterwards|after\s+that|after\s+this|next|later|finally|and\s+then"
    r"|(?:second|2nd|final|last|follow[\s-]?up|subsequent)\s+(?:stage|phase|step|round)"
    r"|(?:stage|phase|step)\s+(?:2|two|ii|b)\b"
    r"|(?:short|small|brief|light|quick)\s+(?:\w+\s+){0,2}?(?:stage|phase|step|round|pass))\b",
    I,
)
_STAGE_WINDOW_CHARS = 80  # how far before a size its stage words are looked for


def rule_stage_datasets(ctx: Ctx) -> None:
    """Keep the main stage's dataset size when a later, smaller one opens a following stage."""
    sizes = [f for f in ctx.findings if f.field == "dataset_tokens" and not f.correction and f.position >= 0]
    if len(sizes) < 2:
        return
    main = max(sizes, key=lambda f: f.value)
    later = [
        f for f in sizes if f.position > main.position and f.value < main.value and _stage_before(ctx, f)
    ]
    if later:
        ctx.findings[:] = [f for f in ctx.findings if not any(f is x for x in later)]


def _stage_before(ctx: Ctx, f: Finding) -> bool:
    """Whether stage words stand shortly before finding `f` in the text."""
    for s in ctx.sentences:
        if s.start <= f.position < s.start + len(s.text) + 1:
            at = f.position - s.start
            before = s.text[max(0, at - _STAGE_WINDOW_CHARS) : at]
            return _NEXT_STAGE.search(before) is not None or _stage_opens(ctx, s.start)
    return False


_OPENS = re.compile(r"^\W*(?:then|afterwards|after\s+that|finally|next)\b", I)


def _stage_opens(ctx: Ctx, start: int) -> bool:
    """Whether the sentence at `start` opens with a following-stage word ("Then SFT on 150M tokens.")."""
    return any(s.start == start and _OPENS.match(s.text) for s in ctx.sentences)
