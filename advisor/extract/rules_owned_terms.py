"""Cloud capacity held on a term, written the way finance and ops people write it (issue 12; evals v12 and
v15 dropped both):

- the term's own noun owns the GPUs, with its length and host before it: "Our 1-year AWS reservation of 8x
  H200", "my 3-year Azure commitment for 16 A100s" -> owned_gpu(_count); rules_reservation then reads
  owned_reserved, owned_provider and the term left from the same sentence;
- the time already used of a term: "We're 7 months into a 12-month commitment for 32 H100s on CoreWeave"
  -> the GPUs and owned_months_left = term - elapsed (tools.units.months_left_of_term);
- a question about finishing before the term ends ("Could we pretrain it on them before then?", "... before
  the reservation runs out?"): claimed_gpu(_count) = the held GPUs, claimed_hours = the term left
  (tools.units.months_to_hours).

Not held: a quote or an offer for a term ("AWS offered us a 1-year reservation of 8x H200"), which has no
"our"/"we're ... into" and so is not read here.
"""

from __future__ import annotations

import re

from advisor.extract.rules_ctx import Ctx, I, q
from advisor.extract.rules_models import GPU_RE, resolve_gpu
from advisor.extract.rules_text import NUMBER, Sentence, parse_number
from advisor.extract.units_text import term_months
from tools.units import HOURS_PER_MONTH, months_left_of_term, months_to_hours

_TERM_NOUN = r"(?:reservation|commitment|lease|contract|capacity\s+block|savings\s+plan)"
_UNIT = r"(?:years?|yrs?|months?|mos?)"
# what joins the term to the GPUs it holds: "of", "for", "on", or the GPUs set after it as an apposition,
# "the AWS reservation: 8x H100 (p5)", "our GCP committed-use reservation, 16x A100 80GB" (evals v17; the GPU
# name must follow the count, so "our reservation, 8 months left" holds no GPUs)
_HOLDS = r"(?:\s+(?:of|for|on)\s+|\s*[:,]\s*)"
# "Our 1-year AWS reservation of 8x H200", "our CoreWeave commitment for 32 H100s"
_OUR_TERM = re.compile(
    rf"\b(?:our|my)\s+(?:(?P<term>{NUMBER})[\s-]{_UNIT}\s+)?(?:[A-Z][\w.-]*\s+){{0,2}}?{_TERM_NOUN}{_HOLDS}"
    rf"(?:the\s+)?(?P<num>{NUMBER})\s*[x×]?\s*",
    I,
)
# the reservation said after "we have" with its host between ("We have a 3-year reservation at Azure for 16
# A100 80GB", evals v16); not a quote or a request for one ("we got a quote for a 1-year reservation")
_HAVE_TERM = re.compile(
    r"\b(?:we|i)(?:'ve|\s+have)?\s+(?:already\s+|currently\s+|still\s+|also\s+)?(?:have|hold|got)(?:\s+got)?\s+"
    rf"(?:an?|the|our)\s+(?:(?P<term>{NUMBER})[\s-]{_UNIT}\s+)?(?:[A-Z][\w.-]*\s+){{0,2}}?{_TERM_NOUN}"
    rf"(?:\s+(?:at|on|with|in|from)\s+[A-Z][\w.-]*)?(?:{_HOLDS}|\s+covering\s+)(?:the\s+)?(?P<num>{NUMBER})\s*[x×]?\s*",
    I,
)
# GPUs said to be the team's after naming them: "These four L40S are ours and mostly idle" (evals v16), "the
# 2 A100s in the closet are our own", "those 8 H100 belong to us"; not "these four L40S are ours to rent"
_ARE_OURS = re.compile(
    rf"\b(?:these|those|the|all)\s+(?P<num>{NUMBER})\s*[x×]?\s*",
    I,
)
_OURS_AFTER = re.compile(
    r"\s*(?:gpus?|cards?|boards?)?(?:\s+(?:in|at|on)\s+[^,.;]{1,30}?)?\s+(?:are|is)\s+(?:all\s+)?(?:ours"
    r"|our\s+own|owned\s+by\s+us)\b(?!\s+to\s+(?:rent|buy|use\s+for))|\s*(?:gpus?|cards?)?\s+belong\s+to\s+us\b",
    I,
)
# "We're 7 months into a 12-month commitment for 32 H100s", "we are 3 months into our 1-year reservation of"
_INTO_TERM = re.compile(
    rf"\b(?:we(?:'re|\s+are)|i(?:'m|\s+am))\s+(?:now\s+)?(?P<done>{NUMBER})\s+(?P<done_unit>months?|weeks?)\s+"
    rf"into\s+(?:a|an|our|the|my)\s+(?P<term>{NUMBER})[\s-](?P<term_unit>{_UNIT})\s+(?:\w+\s+)?{_TERM_NOUN}\s+"
    rf"(?:of|for|on)\s+(?:the\s+)?(?P<num>{NUMBER})\s*[x×]?\s*",
    I,
)
# a question about getting done before the held term ends
_BEFORE_END = re.compile(
    r"\bbefore\s+(?:then|it\s+(?:ends|runs\s+out|expires|lapses)|(?:the|our|that)\s+"
    rf"(?:{_TERM_NOUN}|term)\s+(?:ends|runs\s+out|expires|lapses|is\s+up))\b",
    I,
)
_REFERS = re.compile(r"\b(?:them|they|those|these|it|the\s+(?:gpus|cards|cluster|nodes?))\b", I)


def rule_owned_terms(ctx: Ctx) -> None:
    """owned_gpu(_count), and the term left when the time used is said (module docstring)."""
    if ctx.has("owned_gpu"):  # read by rules_gpus ("our 1-year reservation of 16 A100"): only the term left
        if not ctx.has("owned_months_left"):
            into = next(((s, m) for s in ctx.sentences if (m := _INTO_TERM.search(s.text))), None)
            if into is not None:
                _left(ctx, *into)
        return
    for s in ctx.sentences_with(_ARE_OURS, _INTO_TERM, _OUR_TERM, _HAVE_TERM):  # a finding needs one to match
        if (
            (m := _ARE_OURS.search(s.text))
            and (g := GPU_RE.match(s.text, m.end()))
            and (ours := _OURS_AFTER.match(s.text, g.end()))
        ):
            ev = s.text[m.start() : ours.end()].strip()
            ctx.add(s, "owned_gpu", resolve_gpu(g.group("gpu")), ev, "stated", g.start())
            ctx.add(s, "owned_gpu_count", int(parse_number(m.group("num"))), ev, "stated", g.start())
            return
        for rx in (_INTO_TERM, _OUR_TERM, _HAVE_TERM):
            m = rx.search(s.text)
            g = GPU_RE.match(s.text, m.end()) if m is not None else None
            if m is None or g is None:
                continue
            ev = s.text[m.start() : g.end()].strip()
            ctx.add(s, "owned_gpu", resolve_gpu(g.group("gpu")), ev, "stated", g.start())
            ctx.add(s, "owned_gpu_count", int(parse_number(m.group("num"))), ev, "stated", g.start())
            if rx is _INTO_TERM:
                _left(ctx, s, m)
            return


def _left(ctx: Ctx, s: Sentence, m: re.Match[str]) -> None:
    term = term_months(parse_number(m.group("term")), m.group("term_unit"))
    done = term_months(parse_number(m.group("done")), m.group("done_unit"))
    left = months_left_of_term(term, done)
    if left > 0:
        ev = f'"{q(m)}": {term:g} months - {done:g} months = {left:g} months left'
        ctx.add(s, "owned_months_left", left, ev, "inferred", m.start())


def rule_claim_before_term_ends(ctx: Ctx) -> None:
    """claimed_gpu(_count) and claimed_hours for a question about finishing on the held GPUs before their
    term ends, when no other claim was read (module docstring)."""
    if ctx.has("claimed_gpu"):
        return
    found = {
        f.field: f for f in ctx.findings if f.field in ("owned_gpu", "owned_gpu_count", "owned_months_left")
    }
    if "owned_gpu" not in found or "owned_months_left" not in found:
        return
    for s in ctx.sentences:
        if s.start + len(s.text) <= found["owned_gpu"].position or "?" not in s.text:
            continue
        if (m := _BEFORE_END.search(s.text)) is None or _REFERS.search(s.text) is None:
            continue
        months = float(found["owned_months_left"].value)
        hours = months_to_hours(months)
        ev = f'"{q(m)}": the term left, {months:g} months x {HOURS_PER_MONTH:g} h/month = {hours:,.0f} h'
        ctx.claim_sentences.add(s.start)
        ctx.add(
            s, "claimed_gpu", found["owned_gpu"].value, found["owned_gpu"].evidence, "inferred", m.start()
        )
        if "owned_gpu_count" in found:
            count = found["owned_gpu_count"]
            ctx.add(s, "claimed_gpu_count", count.value, count.evidence, "inferred", m.start())
        ctx.add(s, "claimed_hours", hours, ev, "inferred", m.start())
        return
