"""More ways to bound the time to the first token (ttft_target_s), read when advisor/extract/rules_ttft.py
found none: the first token as the subject of a verb of arriving ("first token has to land under 300ms",
"the first token must show within 1.5 s") and an answer that has to start within a time ("a line has to
start within half a second", "replies must begin streaming in under a second"). A time said in words
("half a second", "a second", "two seconds") counts as its number."""

from __future__ import annotations

import re

from advisor.extract.rules_ctx import Ctx, I, q
from advisor.extract.rules_text import NUMBER, parse_number

_WORD_SECONDS: dict[str, float] = {
    "half a": 0.5, "a half": 0.5, "a": 1.0, "one": 1.0, "two": 2.0, "three": 3.0, "a quarter of a": 0.25,
}  # fmt: skip
_AMOUNT = (
    rf"(?:(?P<num>{NUMBER})\s*(?P<unit>ms|milliseconds?|msecs?|s|secs?|seconds?)\b"
    r"|(?P<words>half\s+a|a\s+half|a\s+quarter\s+of\s+a|a|one|two|three)\s+(?:sec(?:ond)?s?)\b)"
)
_MUST = r"(?:has\s+to|have\s+to|must|should|needs?\s+to|is\s+expected\s+to|ought\s+to)"
_WITHIN = r"(?:in\s+under|within|under|below|in\s+less\s+than|in)\s*[~≈]?\s*"
_ARRIVE = r"(?:land|show(?:\s+up)?|appear|arrive|come(?:\s+back)?|be\s+(?:back|out|there|on\s+screen)|hit)"
_FIRST_VERB = re.compile(rf"\bfirst[\s-]+token\s+(?:{_MUST}\s+)?{_ARRIVE}s?\s+{_WITHIN}{_AMOUNT}", I)
# what starts is the answer, said as the thing served: a reply, a response, an answer, a line, a message
_STARTS = re.compile(
    rf"\b(?:reply|replies|response|responses|answer|answers|line|lines|message|messages|output|generation"
    rf"|completion|completions|audio|speech)\s+{_MUST}\s+(?:start|begin)(?:\s+(?:streaming|speaking|to\s+stream"
    rf"|appearing|arriving))?\s+{_WITHIN}{_AMOUNT}",
    I,
)


def _seconds(m: re.Match[str]) -> float:
    if m.group("words"):
        return _WORD_SECONDS[" ".join(m.group("words").lower().split())]
    value = parse_number(m.group("num"))
    return value / 1000.0 if m.group("unit").lower().startswith("m") else value


def rule_first_token(ctx: Ctx) -> None:
    """ttft_target_s from an arriving first token or an answer that has to start within a time."""
    if ctx.has("ttft_target_s"):
        return
    for s in ctx.sentences:
        if s.start in ctx.claim_sentences:
            continue
        m = _FIRST_VERB.search(s.text) or _STARTS.search(s.text)
        if m is None:
            continue
        seconds = _seconds(m)
        if seconds > 0:
            said = m.group("num") is not None and not m.group("unit").lower().startswith("m")
            ev = q(m) if said else f'"{q(m)}" = {seconds:g} s to the first token'
            ctx.add(s, "ttft_target_s", seconds, ev, "stated" if said else "inferred", m.start())
            return
