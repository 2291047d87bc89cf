"""A token rate that is each reader's speed, not the service's total: latency per token, not throughput.

rule_serving (advisor/extract/rules_context.py) reads "30 tok/s per user" as a per-stream speed, but a
rate whose "per person" sits elsewhere in the sentence was read as the aggregate target:

- "people complain when it types slower than ~15 tokens a second" (who reads it, and how it appears);
- "Each session shall receive output at no less than 20 tokens per second" (the stream named first);
- "at least 12 words per second per call, call it 16 tokens/s" (the stream named by the other unit);
- ">= 60 tok/s per completion stream" (a stream with a qualifier between "per" and it).

Such a rate becomes latency_ms_per_token = 1000 / rate (inferred; the same conversion rule_serving uses
for "30 tok/s per user"), and the aggregate reading is withdrawn. A rate with a word of the whole
("aggregate", "total", "throughput", "across") stays the target, and so does one above
MAX_STREAM_TOKENS_PER_S.
"""

from __future__ import annotations

import re

from advisor.extract.rules_ctx import Ctx, I
from advisor.extract.rules_text import Sentence
from tools.units import tokens_per_s_to_ms_per_token

MAX_STREAM_TOKENS_PER_S = 250.0
"""A faster rate is a service's total (a judgement, not a measurement): the per-reader speeds requests ask
for in evals/cases_v2..v10 run 12-60 tokens/s, and 250 tokens/s is some 50x a person's reading speed
(Brysbaert 2019, "How many words do we read per minute?", J. Memory and Language 109: ~238 words/min
silent reading, ~5 tokens/s at ~1.3 tokens per English word)."""

_PERSON = (
    r"(?:user|person|session|call|caller|stream|chat|conversation|reader|agent|seat|listener|viewer|customer"
    r"|student|dev|developer|employee|request)s?"
)
_PER_STREAM_CUE = re.compile(
    rf"\b(?:each|every|per|a)\s+(?:[\w-]+\s+)?{_PERSON}\b"
    r"|\b(?:people|users|readers|customers|agents|they|folks)\s+(?:\w+\s+){0,2}?(?:complain|notice|read|see|feel"
    r"|wait|perceive|expect)\w*"
    r"|\b(?:it|the\s+(?:bot|model|assistant|answer|reply|response|text))\s+(?:types|streams|writes|prints|appears"
    r"|comes\s+out)\b"
    r"|\bahead\s+of\s+(?:speech|the\s+(?:speaker|reader|user|voice))|\breading\s+speed"
    r"|\bas\s+fast\s+as\s+(?:people|users|humans|someone|a\s+person)\s+(?:can\s+)?read",
    I,
)
_WHOLE = re.compile(
    r"\b(?:aggregate|total|overall|throughput|combined|in\s+total|across|altogether|cluster|fleet|system[\s-]wide"
    r"|in\s+sum)\b",
    I,
)


def rule_stream_speed(ctx: Ctx) -> None:
    """latency_ms_per_token from a token rate read as the target whose sentence names the reader."""
    if any(f.field == "latency_ms_per_token" for f in ctx.findings):
        return
    for f in list(ctx.findings):
        if f.field != "target_tokens_per_s" or f.status != "stated":
            continue
        rate = float(f.value)
        s = _sentence_at(ctx, f.position)
        if s is None or not 0 < rate <= MAX_STREAM_TOKENS_PER_S or s.start in ctx.claim_sentences:
            continue
        if _WHOLE.search(s.text) or not _PER_STREAM_CUE.search(s.text):
            continue
        ctx.findings.remove(f)
        ms = tokens_per_s_to_ms_per_token(rate)
        ev = f'"{f.evidence}" for each reader: 1000 ms / {rate:g} tokens/s = {ms:.1f} ms/token'
        ctx.add(s, "latency_ms_per_token", ms, ev, "inferred", f.position - s.start)
        return


# a per-user target waived (expert review 10, R09: "No per-user latency target" was "not understood", and the
# reply warned that 4-6 tokens/s per user is too slow): "no latency requirement", "latency doesn't matter",
# "we don't care about per-user speed", "throughput matters, not latency", "not latency-sensitive",
# "nobody waits on the answers"
_LATENCY = r"(?:(?:per[\s-]user|per[\s-]request|per[\s-]token|streaming|token)\s+)?(?:latency|speed)"
_NO_TARGET = re.compile(
    rf"\bno\s+(?:hard\s+|real\s+|specific\s+|particular\s+)?{_LATENCY}\s+(?:target|requirement|sla|slo|constraint"
    r"|budget|goal|floor)s?\b"
    rf"|\b{_LATENCY}\s+(?:doesn'?t|does\s+not|won'?t|will\s+not)\s+(?:really\s+)?matter\b"
    rf"|\b{_LATENCY}\s+(?:is\s+not|isn'?t|is\s+no)\s+(?:a\s+|an\s+|really\s+a\s+)?(?:concern|issue|priority"
    r"|important|critical|relevant|requirement)\b"
    rf"|\b(?:don'?t|do\s+not)\s+care\s+(?:much\s+)?about\s+{_LATENCY}"
    r"|\bnot\s+latency[\s-](?:sensitive|critical|bound)\b|\bthroughput\s+matters,?\s+not\s+latency\b"
    r"|\b(?:nobody|no\s+one|no\s+human)\s+(?:is\s+)?wait(?:s|ing)\s+(?:on|for)\b",
    I,
)


def rule_no_latency_target(ctx: Ctx) -> None:
    """no_latency_target from a sentence that waives the per-user speed."""
    for s in ctx.sentences:
        if (m := _NO_TARGET.search(s.text)) is not None:
            ctx.add(s, "no_latency_target", True, m.group(0), "stated", m.start())
            return


def _sentence_at(ctx: Ctx, position: int) -> Sentence | None:
    for s in ctx.sentences:
        if s.start <= position < s.start + len(s.text):
            return s
    return None


# "p95 latency under 4 s", "p99.9 TTFT", "95th percentile", "95% of requests under 2 s": the percentile a
# latency target is at (expert review 11, R08: a p95 target was checked in the middle of the range)
_PERCENTILE = re.compile(
    r"\bp(?P<p>9\d(?:\.9+)?)\b"
    r"|\b(?P<th>9\d(?:\.9+)?)(?:th|st|nd|rd)?[\s-]+percentile\b"
    r"|\b(?P<pct>9\d(?:\.9+)?)\s*%\s+of\s+(?:all\s+|the\s+)?(?:requests|answers|responses|replies|calls"
    r"|queries|users|completions)\b",
    I,
)
# "p50 latency", "median latency", "50th percentile": a median target (expert review 20, R04)
_MEDIAN = re.compile(r"\bp50\b|\bmedian\b|\b50(?:th)?[\s-]+percentile\b", I)
_LATENCY_TARGETS = ("response_target_s", "ttft_target_s", "latency_ms_per_token")
# "95% of requests under 4 s", "99% of answers must come back within 2 seconds": a whole answer's time at a
# percentile, in a form the per-answer rule (rules_serving_io._END_TO_END) does not read
_SHARE_IN_TIME = re.compile(
    r"\b(?P<pct>9\d(?:\.9+)?)\s*%\s+of\s+(?:all\s+|the\s+)?(?:requests|answers|responses|replies|calls|queries"
    r"|completions)\s+(?:(?:must|should|need\s+to|have\s+to)\s+)?(?:be\s+)?(?:(?:complete[sd]?|finish(?:ed)?"
    r"|answered|served|returned|come\s+back)\s+)?(?:in|under|within|below|<)\s*(?P<num>\d+(?:\.\d+)?)\s*"
    r"(?P<unit>ms|milliseconds?|s|secs?|seconds?)\b(?!\s*(?:per|/|to\s+(?:the\s+)?first))",
    I,
)


def rule_latency_percentile(ctx: Ctx) -> None:
    """latency_percentile from a percentile in a sentence that states a latency target (read before this
    rule: a time per answer, a time to first token or a per-token latency)."""
    if not ctx.has("response_target_s"):
        for s in ctx.sentences_with(_SHARE_IN_TIME):  # a finding needs it to match
            if (m := _SHARE_IN_TIME.search(s.text)) is not None and "first token" not in s.text.lower():
                seconds = float(m.group("num")) / (1000.0 if m.group("unit").lower().startswith("m") else 1.0)
                ctx.add(s, "response_target_s", seconds, m.group(0), "stated", m.start())
                break
    timed = [f.position for f in ctx.findings if f.field in _LATENCY_TARGETS]
    for s in ctx.sentences_with(_MEDIAN):  # "p50 latency under 400 ms": judged at the range's middle
        if any(s.start <= pos < s.start + len(s.text) for pos in timed) and (m := _MEDIAN.search(s.text)):
            ctx.add(s, "latency_median", True, m.group(0), "stated", m.start())
            break
    for s in ctx.sentences_with(_PERCENTILE):  # a finding needs it to match
        in_sentence = any(s.start <= pos < s.start + len(s.text) for pos in timed)
        if not in_sentence or (m := _PERCENTILE.search(s.text)) is None:
            continue
        value = float(m.group("p") or m.group("th") or m.group("pct"))
        ctx.add(s, "latency_percentile", value, m.group(0), "stated", m.start())
        return
