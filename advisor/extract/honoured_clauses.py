"""Clauses whose fact the answer holds, though the accounting found no finding's words in them: they are
used, not "did not use" (expert review 14: R07 "no AWS please" beside "excluded providers aws"; R13
"on-demand (no spot)" beside "pricing ruled out spot"; R19 turn 3 "same traffic?" with the traffic kept;
R10 "the reservation" and "one node" beside the 8x H200 held on one node).

A clause counts as honoured when it has no figure of its own and every fact its words name is one the
recommendation's profile (or its pick) holds:
- providers it names: excluded, required, preferred or hosting the team's GPUs (tools/profile.py fields);
- spot / pre-emptible and on-demand words: spot ruled out or allowed (pricing_excluded, spot_ok);
- reservation words: owned_reserved; EU / US words: eu_only / us_only;
- "one node" / "a single node": the pick runs on one node;
- "same traffic?", "same data?", "same budget?" asked in a later turn: the field the noun names is held.
Anything else in the clause (another provider, a figure, a word no class covers) keeps it listed.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from advisor.extract.rules_models import find_providers

if TYPE_CHECKING:
    from tools.profile import WorkloadProfile
    from tools.recommend.models import Recommendation

I = re.I  # noqa: E741

_SPOT = re.compile(r"\b(?:spot|pre-?empt\w*|interrupt\w*|evict\w*|low[- ]priority)\b", I)
_ON_DEMAND = re.compile(r"\bon[- ]?demand\b|\bpay[- ]as[- ]you[- ]go\b", I)
_RESERVED = re.compile(r"\b(?:reserv(?:ed|ations?)|booking|commitment)\b", I)
_EU = re.compile(r"\b(?:eu|e\.u\.|europe(?:an)?)\b", I)
_US = re.compile(r"\b(?:us|u\.s\.|usa|united\s+states)\b", I)
_ONE_NODE = re.compile(r"\b(?:one|a\s+single|single|1)[\s-](?:node|server|box|machine)\b", I)
_DIGIT = re.compile(r"\d")
# "same traffic?", "the same data as before?", "keep the same budget": a follow-up keeping a fact
_SAME = re.compile(r"\bsame\s+(?P<noun>traffic|load|users|usage|volume|requests|data(?:set)?|corpus|budget"
                   r"|deadline|constraints|region|context|prompts?)\b", I)  # fmt: skip
_SAME_FIELDS: dict[str, tuple[str, ...]] = {
    "traffic": ("concurrency", "target_tokens_per_s"),
    "load": ("concurrency", "target_tokens_per_s"),
    "users": ("concurrency",),
    "usage": ("concurrency", "target_tokens_per_s", "utilization"),
    "volume": ("concurrency", "target_tokens_per_s", "dataset_tokens"),
    "requests": ("concurrency", "target_tokens_per_s"),
    "data": ("dataset_tokens", "dataset_gb"),
    "dataset": ("dataset_tokens", "dataset_gb"),
    "corpus": ("dataset_tokens", "dataset_gb"),
    "budget": ("budget_usd",),
    "deadline": ("deadline_hours",),
    "constraints": ("eu_only", "us_only", "providers_excluded", "providers_required", "pricing_excluded"),
    "region": ("eu_only", "us_only", "data_region"),
    "context": ("context_len",),
    "prompt": ("prompt_tokens",),
    "prompts": ("prompt_tokens",),
}
# words that carry no fact of their own around the named ones
_FILLER = re.compile(
    r"\b(?:no|not|only|never|please|pls|thanks|thank\s+you|and|or|oh|also|the|a|an|our|we|i|dont|don't|do"
    r"|want|use|using|allowed|ok|okay|fine|is|are|it|its|it's|on|at|in|with|from|via|of|by|as|keep"
    r"|so|too|risky)\b",  # "so spot is risky" beside spot ruled out (fix32)
    I,
)


def _held(value: object) -> bool:
    return value is not None and value != [] and value is not False


def _provider_held(pid: str, p: WorkloadProfile) -> bool:
    return pid in (*p.providers_excluded, *p.providers_required, *p.providers_preferred, p.owned_provider)


def honoured_clause(text: str, rec: Recommendation) -> bool:
    """Whether `text`, listed as not used, names only facts `rec` holds (module docstring)."""
    p = rec.profile
    if _DIGIT.search(text) and not _ONE_NODE.search(text):
        return False
    if (same := _SAME.search(text)) is not None:
        fields = _SAME_FIELDS[same.group("noun").lower()]
        return any(_held(getattr(p, f, None)) for f in fields)
    named: list[bool] = []
    rest = text
    for pid, a, b in find_providers(text):
        named.append(_provider_held(pid, p))
        rest = rest.replace(text[a:b], " ")
    checks = (
        (_SPOT, "spot" in p.pricing_excluded or p.spot_ok is not None),
        (_ON_DEMAND, "spot" in p.pricing_excluded or p.spot_ok is False),
        (_RESERVED, bool(p.owned_reserved)),
        (_EU, bool(p.eu_only)),
        (_US, bool(p.us_only)),
        (_ONE_NODE, rec.primary is not None and rec.primary.nodes == 1),
    )
    for rx, holds in checks:
        if rx.search(rest) is not None:
            named.append(holds)
            rest = rx.sub(" ", rest)
    if not named or not all(named):
        return False
    # nothing left but filler and punctuation: no fact in the clause went unread
    left = re.sub(r"[^\w']+", " ", _FILLER.sub(" ", rest)).strip()
    return not left
