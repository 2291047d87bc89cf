"""Count bounds in a claim about GPUs: the count is the fewest that do it ("at least 4x A100", "16 H100s
minimum", "do we really need 8x H100?") or too few ("one L40S won't cut it", "2x A100 is not enough").
Split out of advisor/extract/rules_claims.py, which uses it."""

from __future__ import annotations

import re

from advisor.extract.rules_ctx import I

# a claim that a count is the fewest that do it: "at least 4x A100", "a minimum of 8 H100s", "no fewer than
# two A100s" (before the card); "16 H100s minimum", "4x A100 as a bare minimum", "8 H100s at the very least"
_MIN_BEFORE = re.compile(
    r"\b(?:at\s+(?:the\s+)?(?:very\s+)?least|(?:a|the)\s+(?:bare\s+)?minimum\s+of|minimum(?:\s+of)?|min\.?"
    r"|no\s+(?:fewer|less)\s+than|not\s+(?:fewer|less)\s+than|(?:with|on)\s+(?:fewer|less)\s+than"
    # "do we really need 8x H100?": the count doubted as the one needed
    r"|\b(?:do|would|will)\s+(?:we|i|you)\s+(?:really|actually|truly)\s+need)\s+(?:\S+\s*){0,2}$",
    I,
)
_MIN_AFTER = re.compile(
    r"\s*(?:gpus?\s+|cards?\s+)?(?:\(?(?:as\s+(?:an?|the)\s+|at\s+(?:an?\s+|the\s+)?|(?:(?:is|are|be)\s+(?:really\s+)?)?"
    r"(?:the|our)\s+)?(?:bare\s+|absolute\s+)?(?:minimum|min\b)|at\s+(?:the\s+)?(?:very\s+)?least\b"
    # "is 8x H100 overkill?", "8 H100s is more than we need": fewer might do
    r"|(?:(?:is|are|be|seems?)\s+)?(?:a\s+bit\s+|way\s+|total\s+)?(?:overkill|more\s+than\s+(?:we|i)\s+need))",
    I,
)
# a claim that a count is too few: "one L40S won't cut it", "2x A100 is not enough", "a single 4090 can't
# handle it", "4 H100s are too few", "won't be sufficient"
_TOO_FEW_AFTER = re.compile(
    r"\s*(?:\([^)]{0,20}\)\s*)?(?:alone\s+|by\s+itself\s+|on\s+its\s+own\s+)?"
    r"(?:(?:won['’]?t|will\s+not|wouldn['’]?t|would\s+not|can['’]?t|cannot|can\s+not|couldn['’]?t|isn['’]?t"
    r"|is\s+not|aren['’]?t|are\s+not|(?:is|are|be)\s+(?:probably\s+|surely\s+)?not|not)\s+(?:be\s+)?"
    r"(?:nearly\s+|quite\s+)?(?:enough|sufficient|cut\s+it|do\s+it|do\s+the\s+(?:job|trick)|handle|fit|hold"
    r"|run|serve|keep\s+up)"
    r"|(?:is|are|be|seems?)\s+(?:way\s+|far\s+|much\s+)?too\s+(?:few|small|little|weak))\b",
    I,
)


def count_bound(t: str, gpu: re.Match[str]) -> tuple[str, str] | None:
    """('minimum' | 'too_few', the words) when the claim says its GPU count is the fewest that do it or
    too few; None for a plain claim that the count suffices."""
    if (m := _TOO_FEW_AFTER.match(t, gpu.end())) is not None:
        return "too_few", t[gpu.start() : m.end()].strip()
    if (m := _MIN_AFTER.match(t, gpu.end())) is not None:
        return "minimum", t[gpu.start() : m.end()].strip()
    if (b := _MIN_BEFORE.search(t[max(0, gpu.start() - 40) : gpu.start()])) is not None:
        return "minimum", (b.group(0) + gpu.group(0)).strip()
    return None
