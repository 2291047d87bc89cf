"""The time to the first token a serving request may take (ttft_target_s): "p95 TTFT under 800 ms",
"time-to-first-token below 1.5 s", "first token within 2 seconds", "under 500 ms to first token". A
percentile said with it (p95) is kept in the evidence; the serving model compares its mean time to first
token with the target and says so (tools/recommend/enumerate.py)."""

from __future__ import annotations

from advisor.extract.regex_keys import keyed
from advisor.extract.rules_ctx import Ctx, I, q
from advisor.extract.rules_text import NUMBER, parse_number

_FIRST = (
    r"(?:ttft|time[\s-]+to[\s-]+(?:the\s+)?first[\s-]+(?:token|byte|word)|first[\s-]+token(?:\s+latency)?)"
)
_BOUND = (
    r"(?:\s*(?:should|must|needs?\s+to|has\s+to|to)\s+be|\s+(?:is|of|at|target(?:\s+of)?|budget(?:\s+of)?"
    r"|matters\s+too:?)|\s*[:=])?\s*(?:(?:well\s+)?(?:under|below|within|less\s+than|at\s+most|max(?:imum)?"
    r"|no\s+more\s+than|<=?|≤|sub|in\s+under|in)\s*)?[~≈]?\s*"
)
_UNIT = r"(?P<unit>ms|milliseconds?|msecs?|s|secs?|seconds?)\b"
_TTFT = keyed(
    rf"\b(?:p\d{{2}}(?:\.\d)?\s+)?{_FIRST}{_BOUND}(?P<num>{NUMBER})\s*{_UNIT}"
    rf"|(?:under|below|within|less\s+than|at\s+most|<)\s*[~≈]?\s*(?P<num2>{NUMBER})\s*"
    rf"(?P<unit2>ms|milliseconds?|s|secs?|seconds?)\s+(?:p\d{{2}}\s+)?(?:to\s+(?:the\s+)?first\s+token|ttft)\b"
    rf"|\bfirst\s+token\s+(?:(?:has\s+to|must|should|needs?\s+to)\s+)?(?:show(?:s|ing)?\s+up|appears?|arrives?"
    rf"|comes?\s+back|streams?)\s+(?:in\s+under|within|under|in\s+less\s+than|in)\s*[~≈]?\s*(?P<num3>{NUMBER})\s*"
    rf"(?P<unit3>ms|milliseconds?|s|secs?|seconds?)\b",
    I,
)


def rule_ttft(ctx: Ctx) -> None:
    """ttft_target_s from the first phrase that bounds the time to the first token."""
    for s in ctx.sentences:
        if s.start in ctx.claim_sentences:
            continue
        m = _TTFT.search(s.text)
        if m is None:
            continue
        num = m.group("num") or m.group("num2") or m.group("num3")
        unit = (m.group("unit") or m.group("unit2") or m.group("unit3")).lower()
        value = parse_number(num)
        if value <= 0:
            continue
        if unit.startswith("m"):
            seconds = value / 1000.0
            ctx.add(s, "ttft_target_s", seconds, f'"{q(m)}" = {seconds:g} s', "inferred", m.start())
        else:
            ctx.add(s, "ttft_target_s", value, q(m), "stated", m.start())
        return
