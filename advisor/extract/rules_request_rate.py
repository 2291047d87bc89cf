"""Request rates and per-response latency targets of a serving request (split from rules_serving_io).

- A request RATE is read as a rate, never as requests in flight (expert review 19, R09/P11): "100 requests
  per minute at peak", "peaks of 3 requests per second", "~50 req/s", "2 million requests a month", "40k
  queries per day", "3 rps". With the answer length it becomes target_tokens_per_s (requests/s x output
  tokens each, units_text.rate_from_requests); tools/recommend/rate_load.py turns that rate into the
  requests in flight on each replica (Little's law). A stated peak wins over an average.
- A volume per day, week or month, or a rate called an average, is the average over the whole period;
  with no peak stated it is sized at units_text.PEAK_TO_AVERAGE_REQUESTS times the average (a named
  assumption in the evidence; expert review 19, R11: 2M requests a month was dropped and the pick ran
  under even the average load).
- A token rate per minute, hour or day ("2M output tokens an hour") is target_tokens_per_s at once.
- A whole answer's latency ("p95 end-to-end latency 2 s", "p95 latency under 1.5 s per response", "each
  response within 15 s at p95") is response_target_s, and over the answer length latency_ms_per_token.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from advisor.extract import units_text as U
from advisor.extract.base import Finding
from advisor.extract.rules_ctx import Ctx, Gated, I, q
from advisor.extract.rules_text import MULT, NUM, NUMBER, Sentence, parse_number, parse_scaled
from tools.units import MS_PER_S, ms_to_seconds


class RequestRate(NamedTuple):
    """One request rate said in the text."""

    per_s: float
    evidence: str
    position: int
    peak: bool  # called a peak ("at peak", "peaks of")
    average: bool  # an average over its period: a volume per day/week/month, or "on average"


_REQ_RATE = Gated(
    re.compile(
        rf"(?P<num>{NUMBER})\s*(?P<mult>{MULT})?\s*(?:(?:requests?|reqs?|queries|calls|prompts)\s*(?:/\s*"
        r"(?P<u1>s|sec|second|m|min|minute|h|hr|hour|day|wk|week|mo|month)\b|per\s+(?P<u2>s|sec|second|min|minute"
        r"|hour|day|week|month)\b|an?\s+(?P<u3>second|minute|hour|day|week|month)"
        r"\b)|(?P<qps>qps|rps|req/s)\b|(?P<rpm>rpm|req/min)\b)",  # "~600 rpm avg, 1.5k rpm peak"
        I,
    ),
    "req", "quer", "call", "prompt", "qps", "rps", "rpm",
)  # fmt: skip
_TOKEN_RATE = Gated(
    re.compile(
        rf"(?P<num>{NUMBER})\s*(?P<mult>{MULT})?\s*(?:output\s+|generated\s+|new\s+)?tokens?\s*(?:/|per|an?|each)"
        r"\s*(?P<per>minute|min|hour|hr|day)\b",
        I,
    ),
    "minute", "min", "hour", "hr", "day",
)  # fmt: skip
_SECONDS_PER = {"minute": 60.0, "hour": 3600.0, "day": 86400.0}
_PER_SECOND = {"s": 1.0, "sec": 1.0, "second": 1.0, "m": 60.0, "min": 60.0, "minute": 60.0, "h": 3600.0,
               "hr": 3600.0, "hour": 3600.0, "day": 86400.0,
               "wk": U.SECONDS_PER_WEEK, "week": U.SECONDS_PER_WEEK, "mo": U.SECONDS_PER_MONTH,
               "month": U.SECONDS_PER_MONTH}  # fmt: skip
_LONG_PERIODS = frozenset({"day", "wk", "week", "mo", "month"})  # a volume over a day or more: an average
_PEAK = re.compile(r"\b(?:at\s+(?:the\s+)?peak|peak|peaks?\s+(?:of|at)|busiest|spikes?\s+(?:of|to))\b", I)
_CLAUSE = re.compile(r"[,;:()]|\band\b|\bbut\b", I)
_AVERAGE = re.compile(r"\b(?:on\s+average|average|avg|typical(?:ly)?|mean)\b", I)

# a whole answer's latency: "p95 end-to-end latency target 2 s", "responses within 3 seconds"
_UNIT = r"(?:ms|milliseconds?|s|secs?|seconds?)"
_ANSWER = r"(?:response|answer|reply|request|completion)"
END_TO_END = re.compile(
    rf"\b(?:(?:p\d\d|average|mean|median)\s+)?(?:end[\s-]to[\s-]end|e2e|response|total|request|full[\s-]answer)"
    rf"\s+(?:latency|time)\s+(?:target\s+|sla\s+|budget\s+|goal\s+)?(?:of\s+|under\s+|below\s+|within\s+"
    rf"|<\s*|:\s*|is\s+|=\s*)*(?:~\s*|about\s+)?(?P<num>{NUM})\s*(?P<unit>{_UNIT})\b"
    # the answer named after the figure: "p95 latency budget 3s for the full response"
    rf"|\b(?:(?:p\d\d|average|mean|median)\s+)?latency\s+(?:target|sla|budget|goal|limit)\s+(?:of\s+|is\s+|:\s*)?"
    rf"(?:~\s*|about\s+|under\s+|<\s*)?(?P<num2>{NUM})\s*(?P<unit2>{_UNIT})\s+"
    rf"(?:for|on|per)\s+(?:the\s+|a\s+|each\s+)?(?:full|whole|entire|complete)\s+{_ANSWER}"
    # a percentile latency, or a latency in seconds: a request's, not a token's (expert review 7, R07: "keeps
    # p95 latency under 2 s"); not "latency 50 ms per token", not "under 2 s to the first token"; "per
    # response" names the answer (expert review 19, P09a: "p95 latency under 1.5 s per response")
    rf"|\b(?:p\d\d\s+latency|latency)\s*(?:(?:should|must|needs?\s+to)\s+(?:be|stay)\s+|(?:of|is|at)\s+"
    rf"|[:=]\s*)?"
    rf"(?:under|below|within|less\s+than|<=?|at\s+most|of|sub)?\s*(?:~\s*)?(?P<num3>{NUM})\s*"
    # in ms only from U.REQUEST_LATENCY_MIN_MS up ("p95 latency under 800 ms"; checked in _derived)
    rf"(?P<unit3>{_UNIT})\b(?!\s*(?:(?:per|/)(?!\s*(?:each\s+|a\s+|one\s+)?{_ANSWER}s?\b)"
    r"|to\s+(?:the\s+)?first|between))"
    # the answer as the subject: "responses must come back within 2 seconds", "requests complete in 1.5 s",
    # "each response must take under 15 s"
    rf"|\b(?:responses?|answers?|replies|requests?)\s+(?:must|should|need\s+to|have\s+to|has\s+to)?\s*"
    rf"(?:complete|come\s+back|return|finish|take|be\s+(?:back|served|answered|returned|ready|done))\s+(?:in\s+under"
    rf"|within|under|in\s+less\s+than|less\s+than|at\s+most|no\s+more\s+than|in)\s+(?:~\s*)?(?P<num4>{NUM})\s*"
    rf"(?P<unit4>{_UNIT})\b"
    # a bare percentile with the answer named after it: "p95 under 4 s per response" (not "TTFT p95 < 2 s")
    rf"|(?<!ttft\s)(?<!token\s)\bp\d\d\s+(?:under|below|within|<=?|of|at\s+most)?\s*(?:~\s*)?(?P<num5>{NUM})\s*"
    rf"(?P<unit5>{_UNIT})\s+(?:per|for\s+(?:each|a|the|every))\s+(?:full\s+|whole\s+)?{_ANSWER}\b",
    I,
)
# "p95" said beside an answer's latency that END_TO_END matched without it ("... under 15 s at p95")
_PERCENTILE_NEAR = re.compile(r"\b(?:at\s+)?p(?P<p>\d\d)\b|\b(?P<p2>\d\d)(?:th)?\s+percentile\b", I)


TOKEN_RATE = _TOKEN_RATE  # token_rates adds nothing where it may not match


def request_rates(ctx: Ctx) -> list[RequestRate]:
    """The request rates of the text's sentences, in order."""
    return [rate for s in ctx.sentences_with(_REQ_RATE) for rate in _rates_in(s)]


def _rates_in(s: Sentence) -> list[RequestRate]:
    """Request rates in `s`."""
    t = s.text
    out: list[RequestRate] = []
    for m in _REQ_RATE.finditer(t):
        unit = (m.group("u1") or m.group("u2") or m.group("u3") or ("min" if m.group("rpm") else "s")).lower()
        per_s = parse_scaled(m.group("num"), m.group("mult")) / _PER_SECOND[unit]
        if per_s > 0:
            # the words of its own clause: "peaks of 3 requests per second, avg 800 prompt tokens" is a peak
            before = _CLAUSE.split(t[max(0, m.start() - 15) : m.start()])[-1]
            after = _CLAUSE.split(t[m.end() : m.end() + 15])[0]
            peak = _PEAK.search(before + after) is not None and _AVERAGE.search(after) is None
            average = not peak and (unit in _LONG_PERIODS or _AVERAGE.search(before + after) is not None)
            out.append(RequestRate(per_s, q(m), s.start + m.start(), peak, average))
    return out


def token_rates(ctx: Ctx, s: Sentence) -> None:
    """A token rate per minute, hour or day in `s`, read at once (target_tokens_per_s); not a claim's."""
    if s.start in ctx.claim_sentences:
        return
    t = s.text
    for m in _TOKEN_RATE.finditer(t):
        per = m.group("per").lower()
        per = "hour" if per.startswith("h") else "day" if per == "day" else "minute"
        seconds = _SECONDS_PER[per]
        if per == "day" and ctx.workload != "inference":
            continue  # "we add 2B tokens a day to the corpus": not a serving rate
        rate = parse_scaled(m.group("num"), m.group("mult")) / seconds
        ev = f'"{q(m)}": / {seconds:g} s = {rate:,.0f} tokens/s'
        ctx.add(s, "target_tokens_per_s", rate, ev, "inferred", m.start())
        if per == "day":  # a daily volume served at the average rate: the GPUs work around the clock
            ev = f'"{q(m)}": a daily volume at its average rate keeps the GPUs busy around the clock'
            ctx.add(s, "utilization", 1.0, ev, "inferred", rank=-1)  # any other reading of use wins


def rate_target(ctx: Ctx, rates: list[RequestRate], output: Finding | None) -> None:
    """target_tokens_per_s from the request rate to size for (the last peak said, else the last rate; an
    average raised by the named peak factor) and the answer length, unless a token rate was read."""
    if not rates or output is None or any(f.field == "target_tokens_per_s" for f in ctx.findings):
        return
    peaks = [r for r in rates if r.peak]
    rate = (peaks or rates)[-1]
    per_s, said = rate.per_s, f'"{rate.evidence}"'
    if rate.average:  # no peak stated: the average raised by the assumed peak-to-average ratio
        conv = U.peak_from_average(per_s)
        per_s, said = conv.value, f"{said}: {conv.how}"
    conv = U.rate_from_requests(per_s, float(output.value))
    ev = f'{said}; with "{output.evidence}": {conv.how}'
    ctx.add(ctx.sentences[0], "target_tokens_per_s", conv.value, ev, "inferred", rank=rate.position)


def response_target(ctx: Ctx, output: Finding | None) -> None:
    """response_target_s (and latency_ms_per_token over the answer length) from a whole answer's latency."""
    for s in ctx.sentences:
        if (e2e := END_TO_END.search(s.text)) is None or s.start in ctx.claim_sentences:
            continue
        key = next(k for k in ("", "2", "3", "4", "5") if e2e.group("num" + k))
        num, unit = e2e.group("num" + key), e2e.group("unit" + key)
        ms = parse_number(num) * (1.0 if unit.lower().startswith("m") else MS_PER_S)
        if ms <= 0 or (key == "3" and unit.lower().startswith("m") and ms < U.REQUEST_LATENCY_MIN_MS):
            continue  # "latency 50 ms": a token's (rules_context)
        ctx.add(s, "response_target_s", ms_to_seconds(ms), q(e2e), "stated", e2e.start())  # answer checks it
        if not any(f.field == "latency_percentile" for f in ctx.findings) and (
            pm := _PERCENTILE_NEAR.search(s.text, e2e.end(), e2e.end() + 12)
        ):  # "each response must take under 15 s at p95"
            pct = float(pm.group("p") or pm.group("p2"))
            ctx.add(s, "latency_percentile", pct, q(pm), "stated", pm.start())
        if output is not None and not any(f.field == "latency_ms_per_token" for f in ctx.findings):
            conv = U.ms_per_token_from_latency(ms, float(output.value))
            ev = f'"{q(e2e)}" over "{output.evidence}": {conv.how}'
            ctx.add(s, "latency_ms_per_token", conv.value, ev, "inferred", e2e.start())
        break
