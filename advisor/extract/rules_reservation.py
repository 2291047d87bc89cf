"""Owned GPUs that are reserved cloud capacity, where they are, and how long the term has left.

- owned_reserved: the owned GPUs were said with reservation wording in the same sentence ("We hold a
  1-year reservation of 16 H100s on AWS", "our reserved 16x H100 at AWS", "16x H100 reserved until end
  of Q3", a prepaid or committed block, an AWS capacity block or savings plan).
- owned_provider: the provider named in that sentence ("on AWS"), the reservation's host.
- owned_months_left: the term left, in the same or the next sentence, for owned hardware or a
  reservation ("5 months left on it", "it expires in 10 weeks", "for another 3 months", "the lease runs
  out in 6 months"); weeks and days converted at the price sheet's month (advisor.extract.units_text).
"""

from __future__ import annotations

import re

from advisor.extract.instance_types import find_instances
from advisor.extract.regex_keys import keyed
from advisor.extract.rules_ctx import Ctx, I, q
from advisor.extract.rules_models import GPU_RE, find_providers, resolve_gpu
from advisor.extract.rules_term_date import term_until_date
from advisor.extract.rules_text import NUMBER, Sentence, parse_number
from advisor.extract.units_text import term_months

_RESERVED = keyed(
    r"\b(?:reserv(?:ation|ed)s?|commit(?:ment|ted)|pre-?paid|capacity\s+blocks?|savings\s+plan)\b", I
)
_UNIT = r"(?P<unit>months?|mos?|weeks?|wks?|days?|years?|yrs?)"
_LEFT = keyed(
    rf"\b(?P<num>{NUMBER})\s*(?:more\s+)?{_UNIT}\s+(?:(?:are|is)\s+)?(?:left|remaining|to\s+go)\b"
    rf"|\b(?:ends?|expires?|runs?\s+out|is\s+up|lapses?|finish(?:es)?)\s+in\s+(?:about\s+|~\s*)?(?P<num2>{NUMBER})"
    rf"\s*(?P<unit2>months?|mos?|weeks?|wks?|days?|years?|yrs?)\b"
    rf"|\bfor\s+(?:another|the\s+next)\s+(?P<num3>{NUMBER})\s*(?P<unit3>months?|mos?|weeks?|wks?|days?)\b"
    # "for 3 more months", "for another 6 weeks" (expert review 9, R10)
    rf"|\bfor\s+(?P<num4>{NUMBER})\s+more\s+(?P<unit4>months?|mos?|weeks?|wks?|days?)\b",
    I,
)


def _owned_sentence(ctx: Ctx) -> int | None:
    """Index of the sentence the owned GPU was read from, or None."""
    found = next((f for f in ctx.findings if f.field == "owned_gpu"), None)
    if found is None:
        return None
    for i, s in enumerate(ctx.sentences):
        if s.start <= found.position < s.start + len(s.text) + 1:
            return i
    return None


# held capacity said as nodes of GPUs before the noun: "we have a 2-node 8x H200 reservation on Nebius"
# (expert review 6, R20: the reservation was never used); the count is nodes x GPUs per node
_NODES_HELD = keyed(
    rf"\b(?:we|i)\s+(?:already\s+|currently\s+|still\s+)?(?:have|hold|got)\s+an?\s+(?P<nodes>{NUMBER})[\s-]node\s+"
    rf"(?P<per>\d+)\s*(?:x|×)\s*",
    I,
)
_HELD_NOUN = keyed(r"\s*(?:reservation|reserved\s+(?:cluster|capacity|block)|commitment|booking|lease)\b", I)


def _nodes_held(ctx: Ctx) -> None:
    """owned_gpu(_count) from nodes of GPUs held on a reservation or lease (above)."""
    for s in ctx.sentences:
        m = _NODES_HELD.search(s.text)
        g = GPU_RE.match(s.text, m.end()) if m is not None else None
        if m is None or g is None or _HELD_NOUN.match(s.text, g.end()) is None:
            continue
        count = int(parse_number(m.group("nodes"))) * int(m.group("per"))
        ev = f"{s.text[m.start() : g.end()].strip()}: {m.group('nodes')} x {m.group('per')} GPUs"
        ctx.add(s, "owned_gpu", resolve_gpu(g.group("gpu")), ev, "stated", g.start())
        ctx.add(s, "owned_gpu_count", count, ev, "inferred", g.start())
        return


# held capacity with its term said before the GPUs: "We've got a 1-year reserved 8x H200 node on CoreWeave"
# (expert review 7, R11: dropped, and 4x A100 rented instead), "our 3-year reserved 16x H100 at AWS", "we
# hold two 1-year committed 8x H100 nodes"; a term reservation is paid whether used or not, so it is held
# (not "we got a quote for a 1-year reserved node", not "should we get a 1-year reserved node"); the term may
# be said after the GPUs instead ("we have a reserved 8x H100 node on AWS for 3 more months")
_TERM_HELD = keyed(
    r"\b(?:(?:we|i)(?:'ve|\s+have)?\s+(?:already\s+|currently\s+|still\s+|also\s+)?(?:have|hold|got)"
    r"(?:\s+got)?|(?:our|my))\s+(?:an?\s+|the\s+)?(?:(?P<nodes>" + NUMBER + r")\s+)?(?:(?:" + NUMBER
    + r")[\s-](?:years?|yrs?|months?|mos?)[\s-]+)?(?:reserved|committed|pre-?paid)\s+"
    # an instance type before the GPUs it holds: "a reserved p5.48xlarge (8x H100)" (expert review 9, R10)
    + r"(?:[a-z][\w.-]*\d[\w.-]*\s*\(\s*)?(?P<per>" + NUMBER + r")\s*(?:x|×)?\s*",
    I,
)


def _term_held(ctx: Ctx) -> None:
    """owned_gpu(_count) from a term reservation said before the GPUs (above): nodes x GPUs per node."""
    for s in ctx.sentences:
        m = _TERM_HELD.search(s.text)
        g = GPU_RE.match(s.text, m.end()) if m is not None else None
        if m is None or g is None:
            continue
        nodes = int(parse_number(m.group("nodes"))) if m.group("nodes") else 1
        count = nodes * int(parse_number(m.group("per")))
        ev = s.text[m.start() : g.end()].strip()
        ctx.add(s, "owned_gpu", resolve_gpu(g.group("gpu")), ev, "stated", g.start())
        ctx.add(s, "owned_gpu_count", count, ev, "stated" if nodes == 1 else "inferred", g.start())
        return


# held reserved capacity named by its instance type: "We have a 1-year AWS reservation for one p5.48xlarge
# (8x H100)", "our reserved a3-highgpu-8g on GCP" (expert review 16, R13); not a quote or a question
_HELD_BY = keyed(
    r"\b(?:(?:we|i)(?:'ve|\s+have)?\s+(?:already\s+|currently\s+|still\s+|also\s+)?(?:have|hold|got)\b"
    r"|(?:our|my)\b)(?![^.;]*\b(?:quotes?|offer|price)\b)",
    I,
)


# a reservation billed on the team's own invoice (evals v18: "Microsoft Azure - Invoice ... Reservations  ND
# H100 v5 (8x H100) 3-Year, billed monthly"): a bill for it is holding it
_BILLED = keyed(r"\b(?:invoice|billed|billing\s+period|statement\s+of\s+account)\b", I)
_PAREN_AFTER = re.compile(r"\s*\([^()]{1,40}\)")


def _instance_held(ctx: Ctx) -> None:
    """owned_gpu(_count) from a reserved instance type the team holds (above); its cloud when unnamed."""
    for s in ctx.sentences:
        held = _HELD_BY.search(s.text) or _BILLED.search(s.text)
        if held is None or _RESERVED.search(s.text) is None:
            continue
        found = next((i for i in find_instances(s.text) if i.start > held.start()), None)
        if found is None:
            continue
        # the GPUs said beside the name ("(8x H100)") are the same fact, so the evidence spans them
        paren = _PAREN_AFTER.match(s.text, found.end)
        said = s.text[found.start : paren.end() if paren is not None else found.end]
        ev = f'"{said}": {found.gpu_count}x {found.gpu_id} ({found.provider} instance type)'
        ctx.add(s, "owned_gpu", found.gpu_id, ev, "inferred", found.start)
        ctx.add(s, "owned_gpu_count", found.gpu_count, ev, "inferred", found.start)
        if not find_providers(s.text):
            ctx.add(s, "owned_provider", found.provider, ev, "inferred", found.start)
        return


def rule_reservation(ctx: Ctx) -> None:
    """owned_reserved, owned_provider and owned_months_left around the owned GPUs' sentence."""
    if not ctx.has("owned_gpu"):
        _nodes_held(ctx)
    if not ctx.has("owned_gpu"):
        _term_held(ctx)
    if not ctx.has("owned_gpu"):
        _instance_held(ctx)
    at = _owned_sentence(ctx)
    if at is None:
        return
    s = ctx.sentences[at]
    if (cue := _RESERVED.search(s.text)) is not None:
        ctx.add(s, "owned_reserved", True, q(cue), "stated", cue.start())
        providers = find_providers(s.text)
        if providers:
            pid, a, b = providers[0]
            ctx.add(s, "owned_provider", pid, s.text[a:b], "stated", a)
    for near in ctx.sentences[at : at + 2]:
        if _term_left(ctx, near):
            break
    else:
        if term_until_date(ctx, at):  # "that runs out on 4 December" (advisor/extract/rules_term_date.py)
            return
        if (ahead := _TERM_AHEAD.search(s.text)) is not None:
            unit = ahead.group("unit")
            status = "stated" if unit.lower().startswith(("month", "mo")) else "inferred"
            months = term_months(parse_number(ahead.group("num")), unit)
            ctx.add(s, "owned_months_left", months, q(ahead), status, ahead.start())


# a term that has not begun yet is all ahead: "a 2-week reservation for 16x H100 at Lambda starting Monday"
# (expert review 5, R05); "a 1-year reservation" alone may be half used, so it is not read as the term left
_TERM_AHEAD = keyed(
    rf"\b(?P<num>{NUMBER})[\s-]{_UNIT}\s+(?:reservation|lease|commitment|booking)\b"
    r"(?=[^.;]*\b(?:starting|starts|beginning|begins|from\s+(?:monday|tuesday|wednesday|thursday|friday"
    r"|saturday|sunday|tomorrow|next))\b)",
    I,
)


_TERM_NOUN = keyed(r"\b(?:leas(?:e|ed)|contract|term|rental\s+agreement)\b", I)
_ON_IT = keyed(r"\s+(?:on|in)\s+(?:it|them|that|the\s+(?:reservation|lease|contract|term|commitment))\b", I)


def _term_left(ctx: Ctx, s: Sentence) -> bool:
    """The term left on the owned or reserved GPUs: a term word in the sentence ("the lease runs out in
    6 months"), the reservation read already ("5 months left"), or "left on it"; not a bare "2 months
    left before launch" of owned hardware, which is a deadline."""
    m = _LEFT.search(s.text)
    if m is None:
        return False
    said_of_term = _RESERVED.search(s.text) or _TERM_NOUN.search(s.text) or _ON_IT.match(s.text, m.end())
    ahead = m.group("num3") is not None or m.group("num4") is not None  # "for the next / N more months"
    if not said_of_term and not (ctx.has("owned_reserved") and not ahead):
        return False
    num = m.group("num") or m.group("num2") or m.group("num3") or m.group("num4")
    unit = m.group("unit") or m.group("unit2") or m.group("unit3") or m.group("unit4")
    months = term_months(parse_number(num), unit)
    if months <= 0:
        return False
    status = "stated" if unit.lower().startswith(("month", "mo")) else "inferred"
    ctx.add(s, "owned_months_left", months, q(m), status, m.start())
    return True
