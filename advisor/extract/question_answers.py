"""The unused questions of an input's account that the answer itself answers, counted as used.

- A question a computed section of the recommendation answers: "buy or rent?" (the buy-vs-rent
  timeline), "how long?" (a job's wall-clock), "what will it cost?", "which GPU?", "will it fit?", and the
  requests of advisor/extract/answered_requests.py.
- A question of a FAQ the input itself answers: a PR-FAQ's "Q: How many people use it at once?" followed
  by its "A: About 200 concurrent users at peak." line (issue 12): the answer carries the facts, so the
  question is no gap in the reading. A "Q:" line with no "A:" after it stays listed.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from advisor.extract.answered_requests import answered_clause, question_patterns
from advisor.extract.rules_text import clean
from tools.input_account import MAX_CLAUSES, InputAccount, UnusedClause

if TYPE_CHECKING:
    from tools.recommend.models import Recommendation

I = re.I  # noqa: E741

_BUY_RENT_Q = re.compile(
    r"\b(?:buy\w*|purchas\w*|own(?:ing)?|capex)\b.*\b(?:rent\w*|leas\w*|cloud|opex)\b"
    r"|\b(?:rent\w*|leas\w*)\b.*\b(?:buy\w*|purchas\w*|own(?:ing)?)\b"
    # the other half of a question split at its "or": "Should we buy an 8x H100 server (~$250k)" / "or rent?"
    r"|^\W*or\s+(?:should\s+we\s+|do\s+we\s+|would\s+we\s+)?(?:just\s+|keep\s+|continue\s+)?(?:rent\w*|leas\w*|buy\w*"
    r"|purchas\w*|(?:stay\s+|go\s+)?(?:in\s+the\s+)?cloud)\b"
    # the break-even asked on its own (expert review 18, R17 turn 3: "when does it pay off?")
    r"|\b(?:pays?\s+(?:it(?:self)?\s+)?off|pay\s*back|payback|break(?:s|ing)?[\s-]even|amorti[sz]e)\b",
    I,
)
# a reserved term asked about, answered by tools.recommend.reserved_answer (expert review 20, P07)
_RESERVED_Q = re.compile(r"\breserv\w*|\bcommit\w*|\bup[\s-]?front\b|\bpre-?pa\w*|\bannual\w*", I)
_HOW_LONG_Q = re.compile(r"\bhow (?:long|fast|quickly|many (?:hours|days|weeks))\b|\bwhen will\b", I)
_COST_Q = re.compile(r"\bhow much\b|\bcosts?\b|\bprice(?:\s*tag)?\b|\bspend\b|\bbill\b|\bexpensive\b", I)
_WHICH_GPU_Q = re.compile(r"\b(?:which|what)\s+(?:gpus?|cards?|hardware|instances?|accelerators?)\b", I)
_FIT_Q = re.compile(r"\b(?:will|would|does|do|can)\s+(?:it|this|that|they|the model)\s+(?:even\s+)?fit\b"
                    r"|\b(?:enough|big enough)\s+(?:memory|vram)\b", I)  # fmt: skip


def _answers(rec: Recommendation) -> list[re.Pattern[str]]:
    """The questions the recommendation's computed sections answer: buy vs rent (its timeline), how long
    (a training or batch job's wall-clock), what it costs and which GPU (any pick)."""
    out = []
    if rec.buy_vs_rent is not None:
        out.append(_BUY_RENT_Q)
    if any(c.claim.startswith("reserved ") for c in rec.expectation_checks):
        out.append(_RESERVED_Q)
    if rec.primary is not None:
        out += [_COST_Q, _WHICH_GPU_Q, _FIT_Q]  # the pick's memory line answers "will it fit?"
        if rec.primary.cost_basis == "per_job":
            out.append(_HOW_LONG_Q)
    return out + question_patterns(rec)  # how many GPUs, which provider, is it possible


def answered_questions(account: InputAccount | None, rec: Recommendation | None) -> InputAccount | None:
    """The account with the questions a computed section answers counted as used: 'buy or rent?' is
    answered by the buy-vs-rent section, not 'a question I could not answer' (expert review,
    2026-11-25). Other questions stay listed."""
    if account is None or rec is None:
        return account
    if account.other_workload is not None:
        # lazy: tools.recommend loads the whole recommender; the extractors import this module without it
        from tools.recommend.two_parts import CLAIM_PREFIX  # noqa: PLC0415

        if any(c.claim.startswith(CLAIM_PREFIX) for c in rec.expectation_checks):
            # the other workload sized too: not named as left for later (expert review 20, R08; fix34)
            account = account.model_copy(update={"other_sized": True})
    answers = _answers(rec)
    done = [
        c
        for c in account.unused
        if (c.kind == "question" and any(a.search(c.text) for a in answers))
        or answered_clause(c.kind, c.text, rec)  # "Please give GPU type, count", "If not" (owned cards)
    ]
    if not done:
        return account
    return _counted_as_used(account, done)


# a FAQ's question and answer labels: "Q:", "Q1.", "**Q:**", "Question:", "A:", "A1)", "Answer:"
_FAQ_Q = re.compile(r"^\W{0,3}(?:q\d{0,2}|question\s*\d{0,2})\s*[:.)]\W{0,3}\s*(?P<q>\S.*)$", I)
_FAQ_A = re.compile(r"^\W{0,3}(?:a\d{0,2}|answer\s*\d{0,2})\s*[:.)]\W{0,3}\s*\S", I)


def faq_questions(text: str) -> list[str]:
    """The questions of `text` written as a FAQ line ("Q: ...") whose next non-blank line is its answer
    ("A: ..."), without the label."""
    lines = [line.strip() for line in clean(text).splitlines() if line.strip()]
    out = []
    for line, nxt in zip(lines, lines[1:], strict=False):
        if (q := _FAQ_Q.match(line)) and _FAQ_A.match(nxt):
            out.append(q.group("q"))
    return out


def answered_in_faq(account: InputAccount, text: str) -> InputAccount:
    """`account` with the unused questions answered by the input's own FAQ answers counted as used."""
    asked = faq_questions(text)
    done = [c for c in account.unused if c.kind == "question" and any(c.text.endswith(q) for q in asked)]
    if not done:
        return account
    return _counted_as_used(account, done)


def answered_by(account: InputAccount | None, asked: re.Pattern[str]) -> InputAccount | None:
    """The account with its unused questions that `asked` matches counted as used (an answer given outside
    the recommendation: the price of the capacity the team rents now, advisor/capacity_answer.py)."""
    if account is None:
        return None
    done = [c for c in account.unused if c.kind == "question" and asked.search(c.text)]
    return _counted_as_used(account, done) if done else account


def _counted_as_used(account: InputAccount, done: list[UnusedClause]) -> InputAccount:
    """`account` with the clauses `done` moved from unused to used (the used list stays capped)."""
    return account.model_copy(
        update={
            "used": tuple(dict.fromkeys((*account.used, *(c.text for c in done))))[:MAX_CLAUSES],
            "unused": tuple(c for c in account.unused if c not in done),
        }
    )
