"""A provider the work must stay on, said as where it stays or runs rather than with "only" (issue 12; evals
v12/v15 development sets read these as a mere preference):

- staying put with a hard reason in the same sentence: "It has to be HIPAA so we're staying on Azure,
  that's non negotiable", "HARD req: stays in AWS", "Stay on AWS, please, we don't want data leaving the
  account" -> providers_required (and preferred, as rules_constraints records a requirement);
- the provider named as the place the job runs: "so Azure is where this runs".

Not required: a wish with no hard reason ("we'd like to stay on AWS if we can" stays a preference, read by
rules_constraints), moving away ("we're moving off AWS"), staying on a provider "for now" or "unless"
another is cheaper.
"""

from __future__ import annotations

import re

from advisor.extract.rules_ctx import Ctx, I
from advisor.extract.rules_models import PROVIDER_RE, find_providers

_STAY_BEFORE = re.compile(
    r"\b(?:stay(?:s|ing)?|remain(?:s|ing)?|keep(?:s|ing)?\s+(?:it|this|everything|the\s+\w+)|lives?|run(?:s|ning)?"
    r"\s+only)\s+(?:on|in|with|at|inside|within)\s+(?:the\s+|our\s+)?(?:\w+\s+)?$",
    I,
)
_HARD = re.compile(
    r"\bnon[\s-]?negotiable\b|\bhard\s+req\w*|\bmust\b|\bhas\s+to\b|\bhave\s+to\b|\brequired\b|\bmandatory\b"
    r"|\bno\s+exceptions\b|\bwon'?t\s+sign\s+off\b|\b(?:don'?t|do\s+not)\s+want\s+(?:the\s+|our\s+|any\s+)?data"
    r"\s+(?:leaving|to\s+leave)\b|\bcan'?t\s+leave\b|\bhipaa\b|\bcompliance\b",
    I,
)
_SOFT = re.compile(
    r"\b(?:if\s+(?:we\s+can|possible)|ideally|for\s+now|unless|prefer\w*|would\s+like|'d\s+like)\b", I
)
_WHERE_RUNS = re.compile(
    r"\s+(?:is|will\s+be)\s+where\s+(?:this|it|everything|the\s+\w+|we)\s+(?:runs?|will\s+run|lives?|goes|has\s+to"
    r"\s+run)\b",
    I,
)


def rule_stay_on(ctx: Ctx) -> None:
    """providers_required (and preferred) for a provider the work stays on for a hard reason, or is named as
    where the job runs (module docstring)."""
    for s in ctx.sentences_with(PROVIDER_RE):  # a finding needs a provider named (find_providers)
        t = s.text
        named = find_providers(t)
        if not named:
            continue
        hard = _HARD.search(t) is not None and _SOFT.search(t) is None
        for pid, a, b in named:
            stays = _STAY_BEFORE.search(t[max(0, a - 40) : a]) is not None and hard
            if stays or _WHERE_RUNS.match(t, b):
                said = t[max(0, a - 40) : b + 40].strip()
                ctx.add(s, "providers_required", [pid], said, "stated", a)
                ctx.add(s, "providers_preferred", [pid], said, "stated", a)


# The team's own hardware only, said as a refusal to rent or a rule that nothing leaves the building (issue
# 12; evals v12/v15: "we won't rent anything", "Nothing may leave the building" were dropped)
_OWN_ONLY = re.compile(
    r"\b(?:we|i)\s+(?:won'?t|will\s+not|don'?t|do\s+not|can'?t|cannot|are\s+not\s+going\s+to)\s+(?:want\s+to\s+)?"
    r"rent\s+(?:anything|any\s+(?:gpus|capacity|hardware|compute|machines)|gpus|in\s+the\s+cloud)\b"
    r"|\bnothing\s+(?:\w+\s+)?(?:may|can|must|should|is\s+allowed\s+to|will)\s+leave\s+(?:the|our|this)\s+"
    r"(?:building|premises|site|hospital|campus|data\s?cent(?:er|re)|network)\b",
    I,
)
_IF_BEFORE = re.compile(r"\b(?:if|unless|whether)\b[^.;!?]*$", I)


def rule_own_hardware_only(ctx: Ctx) -> None:
    """deployment_preference on_prem from a refusal to rent or "nothing may leave the building", when no
    other deployment wish was read; not inside a condition ("if we can't rent anything, ...")."""
    if ctx.has("deployment_preference"):
        return
    for s in ctx.sentences_with(_OWN_ONLY):  # a finding needs it to match
        m = _OWN_ONLY.search(s.text)
        if m is None or _IF_BEFORE.search(s.text[: m.start()]):
            continue
        ctx.add(s, "deployment_preference", "on_prem", m.group(0), "stated", m.start())
        return
