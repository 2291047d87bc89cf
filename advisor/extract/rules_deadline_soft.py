"""A deadline said as a wish is a preference, not a limit (expert review 20, R14: "Time isn't critical but
under 3 days would be nice" was read as a hard 72 h deadline, which the recommender enforces by ruling out
every option that misses it).

deadline_soft True when each sentence a deadline was read from words it softly: "would be nice / great /
ideal / good", "ideally", "if possible", "if we can", "preferably", "we'd prefer", "nice to have", "we'd
love", "hoping", "no rush", "(time is) not critical / not urgent", "no hard deadline", "soft deadline",
"best case". A hard word in the same sentence keeps it hard ("must finish within 3 days", "the deadline is
Friday", "no later than", "at the latest", "hard deadline", "strict", "non-negotiable", "has to"): "we must
finish by Friday, ideally Thursday" stays a limit. A later message's deadline without such words is hard
again (advisor/extract/base.py merge_findings clears the flag with it).

The recommender keeps options that miss a soft deadline and puts those that meet it first (tools/recommend/
rank.py); the reply says the deadline was read as a preference (the field's label, prompts/field_labels.md).
"""

from __future__ import annotations

import re

from advisor.extract.regex_keys import keyed
from advisor.extract.rules_ctx import QUOTED_PENALTY, Ctx, I
from advisor.extract.rules_text import Sentence

_SOFT = keyed(
    r"\bwould\s+be\s+(?:really\s+|very\s+)?(?:nice|great|ideal|good|lovely|preferable|preferred|a\s+plus|a\s+bonus)\b"
    r"|\b(?:it'?d|that'?d|which'?d)\s+be\s+(?:nice|great|ideal|good|lovely)\b"
    r"|\bideally\b|\bif\s+(?:at\s+all\s+)?possible\b|\bif\s+we\s+can\b|\bpreferabl[ey]\b"
    r"|\bpreferred\s+(?:deadline|timeline|target|date|turnaround)\b"
    r"|\b(?:we'?d|we\s+would|i'?d|i\s+would)\s+(?:prefer|love|like)\b|\bnice[\s-]to[\s-]have\b"
    r"|\bhoping\b|\bhope\s+(?:to|for|it)\b|\bno\s+(?:rush|hurry)\b|\bbest[\s-]case\b"
    r"|\b(?:is|are|isn'?t|'?s|not)\s+(?:really\s+|that\s+|super\s+)?(?:not\s+)?(?:critical|urgent|pressing)\b"
    r"|\bno\s+(?:hard|strict|firm)\s+deadline\b|\bsoft\s+(?:deadline|target)\b|\b(?:is|are)\s+flexible\b",
    I,
)
_NOT_SOFT = re.compile(r"\b(?:is|are|'s)\s+(?:really\s+|that\s+|super\s+)?(?:critical|urgent|pressing)\b", I)
_HARD = keyed(
    r"\bmust\b|\bhas\s+to\b|\bhave\s+to\b|\bno\s+later\s+than\b|\bat\s+the\s+latest\b"
    r"|(?<!no\s)\b(?:hard|strict|firm)\s+(?:deadline|limit|stop|cut-?off)\b|\bstrictly\b|\bnon-?negotiable\b"
    r"|\bdeadline\s+is\b(?!\s+(?:flexible|soft|not\s+(?:hard|strict|firm)))"
    r"|\bcannot\s+(?:slip|miss|go\s+over)\b|\bcan'?t\s+(?:slip|miss|go\s+over)\b|\bmandatory\b|\brequired\b",
    I,
)


NEAR_CHARS = 60
"""How far from the deadline's words a wish or a hard word is read as being about it (the clause around it:
"Time isn't critical but under 3 days would be nice"; not a wish elsewhere in a long sentence)."""


def _soft(s: Sentence, offset: int) -> bool:
    """Whether the sentence words its deadline (read at `offset`) as a wish, with no hard word near it."""
    near = s.text[max(0, offset - NEAR_CHARS) : offset + NEAR_CHARS]
    if _HARD.search(near) is not None:
        return False
    m = _SOFT.search(near)
    return m is not None and _NOT_SOFT.fullmatch(m.group(0)) is None


def _sentence_at(ctx: Ctx, position: int) -> tuple[Sentence, int] | None:
    """The sentence a finding at `position` was read from, and the finding's offset in it."""
    for s in ctx.sentences:
        lo = s.start - (QUOTED_PENALTY if s.quoted else 0)
        if lo <= position <= lo + len(s.text) + 1:
            return s, position - lo
    return None


def rule_deadline_soft(ctx: Ctx) -> None:
    """deadline_soft True for a deadline said only as a wish (module docstring)."""
    found = [f for f in ctx.findings if f.field == "deadline_hours" and not f.retract]
    if not found:
        return
    at = [_sentence_at(ctx, f.position) for f in found]
    if any(x is None or not _soft(*x) for x in at):
        return
    last = at[-1]
    assert last is not None
    s, offset = last
    lo = max(0, offset - NEAR_CHARS)
    m = _SOFT.search(s.text[lo : offset + NEAR_CHARS])
    assert m is not None
    said = f'"{m.group(0).strip()}": the deadline read as a preference, not a limit'
    ctx.add(s, "deadline_soft", True, said, "stated", lo + m.start())
