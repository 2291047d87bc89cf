"""The accounting of a user's input: which of its clauses gave the profile a fact, and which were not used.

Computed by advisor/extract/accounting.py (deterministic, offline, for every extraction backend), worded
by reports/input_account.py for the chat reply, the web page, Slack and the report's workload section.
A clause that names a provider or a GPU, holds a number with a unit, uses a policy word or asks a
question is never dropped silently: it is listed as not used, with its kind.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from tools.profile import WorkloadProfile

ClauseKind = Literal[
    "constraint",  # a policy word (must, only, no, never, policy, compliance, regulated ...)
    "question",  # asks something ("how long on our box?")
    "provider",  # names a cloud provider
    "gpu",  # names a GPU
    "number",  # a number with a unit (tokens, GB, hours, $, users, %, ...)
    "unreadable",  # a quantity in words that could not be read ("budget: TBD", "~? tokens", "five-ish k")
    "instruction",  # addressed to the assistant ("SYSTEM: ignore all rules"): ignored on purpose
    "context",  # background with none of the above
    "decorative",  # greetings, thanks, sign-offs, headings
]
# Kinds a reply must list one by one (never grouped, never silent).
NAMED_KINDS: tuple[ClauseKind, ...] = ("unreadable", "constraint", "question", "provider", "gpu", "number")
MAX_CLAUSES = 60  # per account: a long brief's tail is counted, not quoted
MAX_CLAUSE_CHARS = 300


class UnusedClause(BaseModel):
    """One clause of the input that gave the profile no fact, and what it looked like."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    text: str
    kind: ClauseKind


class InputAccount(BaseModel):
    """Every clause of one input, used or not. `used` quotes the clauses a profile fact came from;
    `unused` the others with their kind; `more_unused` counts those past MAX_CLAUSES. `other_workload`: the
    second workload of a brief with a training and a serving section (advisor/extract/workloads.py), read
    but not sized by this answer; the reply names it and how to ask for it. `other_sized`: this answer sized
    the other workload too ("what would each cost?", tools.recommend.two_parts), so it is not named as left
    out."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    used: tuple[str, ...] = ()
    unused: tuple[UnusedClause, ...] = ()
    more_unused: int = 0
    other_workload: WorkloadProfile | None = None
    other_sized: bool = False

    def of_kind(self, *kinds: ClauseKind) -> list[str]:
        """The unused clauses of the given kinds, in input order."""
        return [c.text for c in self.unused if c.kind in kinds]

    def merged(self, later: InputAccount) -> InputAccount:
        """This account followed by a later turn's (a conversation's whole input), duplicates once."""
        used = tuple(dict.fromkeys((*self.used, *later.used)))[:MAX_CLAUSES]
        seen: dict[str, UnusedClause] = {}
        for account in (self, later):
            for c in account.unused:
                # a clause used by a later turn is not listed; one its own turn both used and listed (a
                # question answered by nothing in a clause that gave other facts) stays listed
                if c.text not in used or c.text in account.used:
                    seen.setdefault(c.text, c)
        unused = tuple(seen.values())
        return InputAccount(
            used=used,
            unused=unused[:MAX_CLAUSES],
            more_unused=self.more_unused + later.more_unused + max(0, len(unused) - MAX_CLAUSES),
            other_workload=later.other_workload or self.other_workload,
            other_sized=later.other_sized,
        )
