"""The time to the first token a serving request may take (ttft_target_s): "p95 TTFT under 800 ms",
"time-to-first-token below 1.5 s", "first token within 2 seconds", "under 500 ms to first token"; else a
first token that arrives or an answer that starts within a time ("first token has to land under 300ms",
"replies must begin streaming in under a second"). A percentile said with it (p95) is kept in the
evidence. A time said as today's measurement ("our current TTFT is 3 s, which is too slow") is no target;
the bound said after it is ("TTFT was 3 s, needs to be under 1 s"); a bound in words ("first token within
half a second") and an answer the users see start ("users should see the answer start within 2 seconds")
count. The serving model compares its mean time to first token with the target and says so
(tools/recommend/enumerate.py)."""

from __future__ import annotations

import re

from advisor.extract.regex_keys import keyed
from advisor.extract.rules_ctx import Ctx, I, q
from advisor.extract.rules_text import NUMBER, parse_number

_FIRST = (
    r"(?:ttft|time[\s-]+to[\s-]+(?:the\s+)?first[\s-]+(?:token|byte|word)|first[\s-]+token(?:\s+latency)?)"
)
_BOUND = (
    r"(?:\s*(?:should|must|needs?\s+to|has\s+to|to)\s+be|\s+(?:is|of|at|target(?:\s+of|\s*:)?|budget(?:\s+of)?"
    r"|matters\s+too:?)|\s*[:=])?\s*(?:(?:well\s+)?(?:under|below|within|less\s+than|at\s+most|max(?:imum)?"
    r"|no\s+more\s+than|<=?|≤|sub|in\s+under|in)\s*)?[~≈]?\s*"
)
_UNIT = r"(?P<unit>ms|milliseconds?|msecs?|s|secs?|seconds?)\b"
_TTFT = keyed(
    # the percentile before or after: "p95 TTFT under 800 ms", "TTFT p95 < 2 s" (expert review 14, R03)
    rf"\b(?:p\d{{2}}(?:\.\d)?\s+)?{_FIRST}(?:\s*\(?p\d{{2}}(?:\.\d)?\)?)?{_BOUND}(?P<num>{NUMBER})\s*{_UNIT}"
    rf"|(?:under|below|within|less\s+than|at\s+most|<)\s*[~≈]?\s*(?P<num2>{NUMBER})\s*"
    rf"(?P<unit2>ms|milliseconds?|s|secs?|seconds?)\s+(?:p\d{{2}}\s+)?(?:to\s+(?:the\s+)?first\s+token|ttft)\b"
    # "the first word must come out in 0.5 second" (evals v16): the first word seen is the first token
    rf"|\bfirst\s+(?:token|word)\s+(?:(?:has\s+to|must|should|needs?\s+to)\s+)?(?:show(?:s|ing)?\s+up|appears?"
    rf"|arrives?|comes?\s+(?:back|out)|streams?)\s+(?:in\s+under|within|under|in\s+less\s+than|in)\s*[~≈]?\s*(?P<num3>{NUMBER})\s*"
    rf"(?P<unit3>ms|milliseconds?|s|secs?|seconds?)\b",
    I,
)


def rule_ttft(ctx: Ctx) -> None:
    """ttft_target_s from the first phrase that bounds the time to the first token."""
    # a sentence none of these may match goes on to the next (speed8: Ctx.sentences_with)
    for s in ctx.sentences_with(_TTFT, _NOW_THEN, _FIRST_WORDS, _WORDS_TO_FIRST, _SEE_START, _ALERT_ABOVE):
        if s.start in ctx.claim_sentences:
            continue
        m = next((m for m in _TTFT.finditer(s.text) if not _measured(s.text, m)), None)
        if m is None:
            # "TTFT was 3 s, needs to be under 1 s" (the bound after the measurement); "first token within
            # half a second"; "users should see the answer start within 2 seconds"
            m2 = _NOW_THEN.search(s.text) or next(
                (
                    x
                    for rx in (_FIRST_WORDS, _WORDS_TO_FIRST, _SEE_START, _ALERT_ABOVE)
                    if (x := rx.search(s.text)) and not _measured(s.text, x)
                ),
                None,
            )
            if m2 is not None:
                seconds = _seconds(m2)
                if seconds > 0:
                    ctx.add(s, "ttft_target_s", seconds, f'"{q(m2)}" = {seconds:g} s to the first token',
                            "inferred", m2.start())  # fmt: skip
                    return
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
    _first_token_arrives(ctx)


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


# a figure measured today, not the target: "our current TTFT is 3 s, which is too slow", "TTFT was 3 s"
_MEASURED_BEFORE = re.compile(
    r"\b(?:current(?:ly)?|today'?s?|right\s+now|measured|observed|we\s+see|we're\s+seeing|existing|old)\b"
    r"[^.;]{0,25}$",
    I,
)
_MEASURED_AFTER = re.compile(
    r"^[^.;]{0,30}?\b(?:today|currently|right\s+now|at\s+the\s+moment|too\s+slow|which\s+is\s+(?:too|way)"
    r"|is\s+(?:too|way)\s+(?:slow|long|high))\b",
    I,
)
_WAS = re.compile(rf"{_FIRST}\s+(?:was|is\s+now|sits\s+at|runs\s+at|averages?)\b", I)
# the target said after the figure measured: "TTFT was 3 s, needs to be under 1 s"
_NOW_THEN = re.compile(
    rf"{_FIRST}\b[^.;]{{0,40}}?\b(?:needs?\s+to|must|should|has\s+to|want\s+it|target\s+is|goal\s+is)\s+"
    rf"(?:be\s+|get\s+|come\s+down\s+)?(?:to\s+)?{_WITHIN}{_AMOUNT}",
    I,
)
# the bound in words, or an answer that starts: "first token within half a second", "users should see
# the answer start within 2 seconds"
_FIRST_WORDS = re.compile(rf"{_FIRST}{_BOUND}(?:{_AMOUNT})", I)
# the bound in words before the first token: "under half a second to first token" (review 13, R08)
_WORDS_TO_FIRST = re.compile(
    rf"\b(?:under|below|within|less\s+than|at\s+most|in\s+under)\s*[~≈]?\s*{_AMOUNT}\s+"
    r"(?:to\s+(?:the\s+)?first\s+(?:token|word|byte)|ttft)\b",
    I,
)
_SEE_START = re.compile(
    rf"\b(?:see|get|have)\s+(?:the\s+|an\s+|a\s+|their\s+)?(?:answer|reply|response|text|output)\s+"
    rf"(?:start|begin)(?:\s+(?:streaming|appearing|to\s+appear|to\s+stream))?\s+{_WITHIN}{_AMOUNT}",
    I,
)


# an alert's threshold on the time to the first token (evals v18 Prometheus rules): "p95 time to first token
# above 1.5 s" fires when the bound is broken, so the bound is the target; a percentile or an alert word
# marks it as a threshold, not a measurement ("TTFT is above 3 s today" is measured: _measured)
_ALERT_ABOVE = re.compile(
    rf"(?:\bp\d{{2}}(?:\.\d)?\s+|\b(?:alert|alarm|page|fires?|breach\w*|violat\w*)\b[^.;]{{0,40}}?){_FIRST}\s+"
    rf"(?:is\s+|goes\s+)?(?:above|over|exceeds?|exceeding|>)\s*{_AMOUNT}",
    I,
)


def _measured(text: str, m: re.Match[str]) -> bool:
    """Whether the time `m` reads is today's measurement rather than the target."""
    return bool(
        _MEASURED_BEFORE.search(text, max(0, m.start() - 40), m.start())
        or _MEASURED_AFTER.match(text[m.end() : m.end() + 40])
        or _WAS.match(text, m.start())
    )


def _seconds(m: re.Match[str]) -> float:
    if m.group("words"):
        return _WORD_SECONDS[" ".join(m.group("words").lower().split())]
    value = parse_number(m.group("num"))
    return value / 1000.0 if m.group("unit").lower().startswith("m") else value


def _first_token_arrives(ctx: Ctx) -> None:
    """ttft_target_s from an arriving first token or an answer that has to start within a time (evals
    v11): "first token has to land under 300ms", "a line has to start within half a second", "replies must
    begin streaming in under a second"; a time in words ("half a second") counts as its number."""
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
