"""Dates and spans near a deadline that are not the deadline (issue 12, ext22 gaps 2 and 3).

- A margin kept before the deadline: "We need two weeks for QA before the deadline", "leave a week of
  buffer ahead of the launch", "3 days for evaluation prior to the due date". The span is not a deadline
  (it was read as one, 336 h from now). With a deadline stated elsewhere the job must finish that much
  earlier: deadline_hours is the deadline less the margin; without one there is no deadline. Not a margin:
  "We have two weeks before the deadline" (no purpose: that is the time left, a deadline).
- When the hardware arrives: "Capacity: 16 H100 SXM, delivery by 1 March", "The cluster arrives on
  1 March", "Nodes available from 1 March". That date is when the job can START, not when it is due:
  its deadline reading is dropped (the reply lists the clause as not used; the profile has no start date,
  and a deadline counted from the delivery would print as a wrong due date). Not a delivery of hardware: "The
  fine-tuned model must be delivered by 1 March" (no hardware word): that is the deadline.
"""

from __future__ import annotations

import re

from advisor.extract import units_text as U
from advisor.extract.base import Finding
from advisor.extract.rules_ctx import Ctx, I
from advisor.extract.rules_text import NUMBER, parse_number

_AMOUNT = r"(?P<n>" + NUMBER + r"|a|an|one|two|three|four|five|six|seven|eight|nine|ten|a\s+couple\s+of)"
_MARGIN = re.compile(
    _AMOUNT + r"\s*-?\s*(?P<unit>hour|day|week|fortnight|month)s?\b"
    # the purpose is what makes it a margin: "for QA", "of buffer", "for testing and sign-off"
    r"\s+(?:for|of)\s+(?:[\w/&-]+\s+){0,4}?"
    r"(?:before|ahead\s+of|prior\s+to)\s+(?:the|our|a|that|any)\s+(?:hard\s+|final\s+|actual\s+)?"
    r"(?:deadline|due\s+date|cut-?off|launch(?:\s+date)?|go-?live|release(?:\s+date)?|ship\s+date)\b",
    I,
)
_DELIVERY = re.compile(
    r"\b(?:delivery|delivered|deliver(?:s|ing)?|shipping|shipment|ships|arriv(?:al|es|ing)|arrive"
    r"|installation|installed|handover|hand-over|available|availability|racked|commissioned|lands?)\b"
    # what is delivered: "The vendor shall deliver the capacity no later than 15 March"
    r"(?:\s+(?:the\s+|all\s+|its\s+)?(?:capacity|hardware|cluster|nodes|gpus|servers|systems|machines))?"
    r"(?:\s+(?:date|window|is|are|will\s+be|expected|planned|scheduled|target(?:ed)?)){0,3}"
    r"\s*(?::|by|on|before|no\s+later\s+than|from|in|around|at\s+the\s+(?:start|beginning)\s+of)\s+",
    I,
)
_HARDWARE = re.compile(
    r"\b(?:capacity|hardware|cluster|nodes?|servers?|gpus?|cards?|racks?|machines?|boxes|h100|h200|b200|a100"
    r"|l40s?|mi300x?|gaudi)\b",
    I,
)
_SPAN_AFTER_CHARS = 40  # the date's words after the cue ("by 1 March 2027 EOD")
_WORD_AMOUNTS = {"a": 1.0, "an": 1.0, "a couple of": 2.0}


def _deadlines_in(ctx: Ctx, a: int, b: int) -> list[Finding]:
    return [f for f in ctx.findings if f.field == "deadline_hours" and not f.retract and a <= f.position <= b]


def _drop(ctx: Ctx, gone: list[Finding]) -> None:
    ids = {id(f) for f in gone}
    ctx.findings[:] = [f for f in ctx.findings if id(f) not in ids]


def _shift(ctx: Ctx, hours: float, why: str, at: int) -> None:
    """deadline_hours less `hours`, ranked just after the deadline that would win (latest, corrections
    first), so the shifted value is the one used; an earlier turn's deadline when this text states none
    (ranked at `at`, the margin's place); nothing when no deadline stands or the shift eats it."""
    left = [f for f in ctx.findings if f.field == "deadline_hours" and not f.retract and f.value]
    if left:
        win = max(left, key=lambda f: (f.correction, f.position))
        due_hours, quote, rank, fix = (
            float(win.value),
            (win.evidence or "").split(":", 1)[0],
            win.position + 1,
            win.correction,
        )
    elif ctx.prior is not None and ctx.prior.deadline_hours:
        due_hours, quote, rank, fix = (
            ctx.prior.deadline_hours,
            f"the deadline ({ctx.prior.deadline_hours:g} h)",
            at,
            True,
        )
    else:
        return
    due = due_hours - hours
    if due <= 0:
        return
    ev = f"{quote} less {why} = {due:g} h"
    ctx.findings.append(Finding(field="deadline_hours", value=due, status="inferred", evidence=ev,
                                position=rank, correction=fix, converted=True))  # fmt: skip


def _margin_hours(m: re.Match[str]) -> U.Converted:
    n = m.group("n").lower()
    amount = _WORD_AMOUNTS.get(" ".join(n.split()))
    return U.hours_from(amount if amount is not None else parse_number(n), m.group("unit").lower())


def rule_deadline_margin(ctx: Ctx) -> None:
    """Margins before a deadline and hardware delivery dates (module docstring). Runs after every deadline
    rule and the corrections, so the deadline it shifts is the one that would be used."""
    margins: list[tuple[int, re.Match[str]]] = []
    for s in ctx.sentences_with(_MARGIN, _DELIVERY):  # each step needs one of them to match
        for m in _MARGIN.finditer(s.text):
            _drop(ctx, _deadlines_in(ctx, s.start + m.start(), s.start + m.end()))
            margins.append((s.start + m.start(), m))
        if _HARDWARE.search(s.text) is None:
            continue
        for m in _DELIVERY.finditer(s.text):
            end = s.start + min(len(s.text), m.end() + _SPAN_AFTER_CHARS)  # this sentence's date only
            _drop(ctx, _deadlines_in(ctx, s.start + m.start(), end))
    for at, m in margins:
        c = _margin_hours(m)
        _shift(ctx, c.value, f'"{" ".join(m.group(0).split())}" ({c.how}): job done that much earlier', at)
