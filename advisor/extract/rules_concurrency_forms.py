"""Concurrency written in the general ways rule_serving's patterns miss (advisor/extract/rules_context.py).

rule_serving reads "150 concurrent users", "60 of them at the same time", "concurrency: 80" and a share
said right after its population. Requests also say it as:

- any noun, or one in another language, before the words that mean "at once": "~300 ppl at once",
  "60-80 folks simultaneously", "70 usuarios concurrentes" (a range gives its upper end, as elsewhere);
- a share with words between it and "at once", its population said earlier in the sentence or in the one
  before: "We're about 2,000 employees and I'd guess at most 10% would be using it at the same moment",
  "About 400 devs are onboarded ... at most a quarter of them triggering completions at the same moment";
- the people served, by any job title: "for our 40 researchers", "to 25 radiologists", "40 seats";
- a peak above the figure read: "120 concurrent conversations on an average afternoon, but Monday
  mornings spike to around 400" (sizing is for the peak);
- a label and its value: "concurrent users: 80", "Sessions at peak: 120", "300 CCU", "peaks at 300 sessions";
- a change log: "peak concurrency 80 -> 120" (the right-hand side is the figure now);
- a figure called stale and the one to use: "sorry, 60 was last year's number - plan for 140" (the stale one
  must be the figure read, here or in an earlier turn).

The first four fill concurrency only when no rule read one, and only for a serving workload. The peak, the
change and the stale figure replace the figure read: they are the user's own later word on it.
"""

from __future__ import annotations

import re

from advisor.extract.rules_ctx import Ctx, I, q
from advisor.extract.rules_text import (
    NUM,
    NUMBER,
    PER_PERIOD_COUNT,
    Sentence,
    parse_count,
    parse_number,
    share_fraction,
)

_AT_ONCE = (
    r"(?:at\s+once|(?:at|in)\s+(?:the\s+)?same\s+(?:time|moment)|simultaneous(?:ly)?|concurrent(?:ly|e?s)?|in\s+parallel"
    r"|at\s+any\s+(?:one\s+|given\s+)?(?:time|moment))"
)
# what a count "at once" may not be: resources, volumes, times
_NOT_PEOPLE = (
    r"(?:gpus?|nodes?|cards?|servers?|machines?|jobs?|runs?|experiments?|models?|tokens?|toks?|gb|tb|hours?"
    r"|days?|weeks?|months?|years?|min(?:ute)?s?|s|secs?|seconds?|ms|%|k?w|clusters?|layers?|files?|documents?"
    r"|docs?|steps?|epochs?|batches|replicas?|instances?|pods?|workers?)"
)
_COUNT_AT_ONCE = re.compile(
    rf"(?:(?P<lo>{NUM})\s*(?:-|–|to)\s*)?(?P<num>{NUMBER})\s*(?P<k>k)?\+?\s+"
    rf"(?P<nouns>(?:[^\W\d]+\s+){{0,4}}?){_AT_ONCE}\b",
    I,
)
_SESSIONS = (
    r"(?:(?:concurrent|simultaneous|parallel|active|open|live)\s+)?(?:users|sessions|chats|conversations|streams"
    r"|connections|requests)"
)
# a label, then its value: "concurrent users: 80", "Sessions at peak: 120", "CCU - 300", "concurrency ~ 50"
_LABELLED = re.compile(
    rf"\b(?:concurrency|ccu|(?:peak\s+|max(?:imum)?\s+)?(?:concurrent|simultaneous|parallel)\s+(?:users|sessions"
    rf"|requests|streams|chats|conversations|sequences|seqs)|(?:peak\s+)?{_SESSIONS}\s+at\s+peak|peak\s+{_SESSIONS})"
    rf"(?:\s*\([^()]{{0,20}}\))?"  # a table row's note: "concurrent users (peak): 350"
    rf"\s*(?:[:=~≈\-–—]|is|of|at)?\s*(?:~\s*|about\s+|around\s+)?(?P<num>{NUM})\s*(?P<k>k)?(?!\s*[%\w])"
    # the count before its abbreviation or at a named peak: "300 CCU", "peaks at 300 sessions", "at peak there
    # are about 250 open sessions"
    rf"|(?P<num2>{NUM})\s*(?P<k2>k)?\s+ccu\b"
    rf"|\bpeak(?:s|ing)?\b[^.;]{{0,25}}?(?:at|of|to|are|is|around|about|~)\s*(?P<num3>{NUM})\s*(?P<k3>k)?\s+"
    # not "peaks of 3 requests per second": an arrival rate (expert review 19, P11), read by rules_serving_io
    rf"{_SESSIONS}\b(?!{PER_PERIOD_COUNT})",
    I,
)
_SHARE = re.compile(
    r"\b(?P<share>a\s+fifth|a\s+quarter|a\s+third|a\s+tenth|half|\d{1,2}(?:\.\d+)?\s*%|one\s+in\s+"
    r"(?:three|four|five|ten|\d+))(?:(?<=%)|\b)(?P<gap>[^.;!?]{0,60}?)\b" + _AT_ONCE + r"\b",
    I,
)
_PEOPLE = (
    r"(?:users|devs|developers|engineers|employees|staff|people|ppl|folks|persons|clinicians|students|agents"
    r"|analysts|seats|licen[cs]es|customers|members|colleagues|researchers|scientists|[a-z]{3,}(?:ists|ians)"
    # open sessions of which a share is generating (expert review 9, R15: "500 open sessions but ~10% ...")
    r"|sessions|conversations|chats|connections)"
)
_POPULATION = re.compile(rf"(?P<num>{NUMBER})\s*(?P<k>k)?\+?\s+(?:[a-z-]+\s+)?{_PEOPLE}\b", I)
_SERVED = re.compile(
    rf"\b(?:for|serve|serving|support|supporting|to)\s+(?:all\s+)?(?:of\s+)?(?:our|the|its|their)?\s*"
    rf"(?:~\s*|about\s+|around\s+|roughly\s+)?(?P<num>{NUMBER})\s*(?P<k>k)?\+?\s+(?:[a-z-]+\s+)?"
    rf"(?P<who>{_PEOPLE}|[a-z]{{3,}}(?:ers|ors))\b(?!{PER_PERIOD_COUNT})"
    rf"|(?P<num2>{NUMBER})\s+(?:licensed\s+|paid\s+)?(?:seats|licen[cs]es)\b",
    I,
)
_NOT_SERVED = re.compile(
    r"^(?:clusters|layers|containers|servers|parameters|characters|letters|chapters|papers|numbers|orders|filters"
    r"|headers|adapters|transformers|providers|vendors|errors|sensors|vectors|tensors|workers|others|centers"
    r"|centres|meters|quarters|markers|folders|computers|monitors|processors|accelerators|routers|users)$",
    I,
)
_PEAK = re.compile(
    rf"\b(?:spik(?:e|es|ing)|peak(?:s|ing)?|burst(?:s|ing)?|jump(?:s|ing)?|climb(?:s|ing)?|goes\s+up|go\s+up)"
    rf"\s+(?:up\s+)?(?:to|at|of)\s+(?:around\s+|about\s+|roughly\s+|~\s*)?(?P<num>{NUM})\s*(?P<k>k)?\b"
    rf"(?!\s*(?:%|ms|s\b|secs?|seconds?|tok|tokens|gb|req\w*|rps|qps|rpm|per\b|/|a\s+(?:day|minute|second)))",
    I,
)
_ABOUT_CONCURRENCY = re.compile(r"concurren|simultan|at once|sessions|conversations|chats|users|streams", I)
_CHANGE = re.compile(
    rf"\bconcurren\w*[^.\n;]{{0,25}}?(?P<old>{NUM})\s*(?:->|→|=>|⇒)\s*(?P<num>{NUM})\s*(?P<k>k)?\b", I
)


def _count(num: str, k: str | None) -> int:
    value = parse_number(num) if k or num.isalpha() else parse_count(num)
    return int(value * 1000 if k else value)


def rule_concurrency_forms(ctx: Ctx) -> None:
    """concurrency from the general forms above (after rule_serving)."""
    if ctx.workload in ("inference", None) and not any(f.field == "concurrency" for f in ctx.findings):
        _fill(ctx)  # a workload not yet known: only the forms that say "at once" (not "for 40 ...")
    _peak_or_change(ctx)  # a figure already read as concurrency says the text serves


def _fill(ctx: Ctx) -> None:
    prev: Sentence | None = None
    for s in ctx.sentences:
        t = s.text
        for m in _COUNT_AT_ONCE.finditer(t):
            if re.search(rf"\b{_NOT_PEOPLE}\s*$", m.group("nouns") or "", I) or re.match(
                rf"\s*{_NOT_PEOPLE}\b", t[m.end("k") if m.group("k") else m.end("num") :], I
            ):
                continue
            n = _count(m.group("num"), m.group("k"))
            if n >= 1:
                ctx.add(s, "concurrency", n, q(m), "stated", m.start())
                return
        if (lab := _LABELLED.search(t)) is not None:
            key = next(k for k in ("", "2", "3") if lab.group("num" + k))
            n = _count(lab.group("num" + key), lab.group("k" + key))
            if n >= 1:
                ctx.add(s, "concurrency", n, q(lab), "stated", lab.start("num" + key))
                return
        if share := _SHARE.search(t):
            where = [(s, p) for p in _POPULATION.finditer(t, 0, share.start())]
            if not where and prev is not None:
                where = [(prev, p) for p in _POPULATION.finditer(prev.text)]
            if where:
                ps, pop = where[-1]
                total = _count(pop.group("num"), pop.group("k"))
                n = max(1, round(total * share_fraction(share.group("share"))))
                ev = f'"{q(pop)}" x "{q(share)}" = {n:,} at once'
                ctx.add(s, "concurrency", n, ev, "inferred", share.start())
                return
        for m in _SERVED.finditer(t) if ctx.workload == "inference" else ():
            if m.group("who") and _NOT_SERVED.match(m.group("who")):
                continue
            num = m.group("num") or m.group("num2")
            n = _count(num, m.group("k") if m.group("num") else None)
            if n >= 1:
                ctx.add(s, "concurrency", n, f'"{q(m)}" read as concurrent users', "inferred", m.start())
                return
        prev = s


# a figure called stale and the one to use: "sorry, 60 was last year's number - plan for 140", "Last year it
# was 60 concurrent, now plan for 140"
_STALE = re.compile(
    rf"(?P<old>{NUM})\s+(?:[a-z]+\s+){{0,2}}?(?:was|were|is)\s+(?:last\s+year'?s|an?\s+old|outdated|the\s+old|old"
    rf"|wrong|a\s+typo|out\s+of\s+date)\b[^.;]{{0,30}}?\b(?:plan\s+for|use|make\s+it|it'?s|now|should\s+be"
    rf"|go\s+with|size\s+(?:it\s+)?for)\s+(?:~\s*|about\s+|around\s+)?(?P<num>{NUM})\b"
    rf"|\blast\s+year\b[^.;]{{0,20}}?(?P<old2>{NUM})\b[^.;]{{0,30}}?\b(?:now|this\s+year|plan\s+for|size\s+for)\b"
    rf"[^.;\d]{{0,15}}?(?P<num2>{NUM})\b"
    rf"|(?P<old3>{NUM})\s+(?:[a-z]+\s+){{0,3}}?last\s+year\b[^.\d]{{0,30}}?\b(?:now|this\s+year|plan\s+for"
    rf"|size\s+for)\b[^.\d]{{0,15}}?(?P<num3>{NUM})\b",
    I,
)


def _stale(ctx: Ctx) -> None:
    """A concurrency figure (read, or known from an earlier turn) called stale, and the figure to use."""
    known = {int(f.value) for f in ctx.findings if f.field == "concurrency"}
    if ctx.prior is not None and ctx.prior.concurrency is not None:
        known.add(ctx.prior.concurrency)
    if not known:
        return
    for s in ctx.sentences:
        for m in _STALE.finditer(s.text):
            key = next(k for k in ("", "2", "3") if m.group("old" + k))
            if _count(m.group("old" + key), None) in known:
                n = _count(m.group("num" + key), None)
                said = [f.position for f in ctx.findings if f.field == "concurrency"]
                rank = max([*said, s.start + m.start()])
                ctx.add(s, "concurrency", n, f'"{q(m)}": the figure to use', "stated", rank=rank + 1)
                return


def _peak_or_change(ctx: Ctx) -> None:
    _stale(ctx)
    read = [f for f in ctx.findings if f.field == "concurrency"]
    if not read:
        return
    current = max(read, key=lambda f: f.position)
    for s in ctx.sentences:
        for m in _CHANGE.finditer(s.text):
            n = _count(m.group("num"), m.group("k"))
            if n >= 1 and s.start + m.start("num") > current.position:
                ctx.add(s, "concurrency", n, q(m), "stated", m.start("num"))
        for m in _PEAK.finditer(s.text):
            n = _count(m.group("num"), m.group("k"))
            near = s.text[max(0, m.start() - 120) : m.start()]
            if n > int(current.value) and _ABOUT_CONCURRENCY.search(near + s.text[m.end() : m.end() + 30]):
                ev = f'"{q(m)}": the peak, above "{current.evidence}"'
                ctx.add(s, "concurrency", n, ev, "stated", rank=max(f.position for f in read) + 1)
                return
