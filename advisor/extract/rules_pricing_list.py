"""A pricing kind given as an item of a constraint list: "Procurement constraint: AWS only (us-east-1),
on-demand, no spot" (expert review 6, R12: honoured by luck and listed as "I did not use: 'on-demand'").

In a sentence that states constraints (constraint, policy, procurement, requirement, must, only,
mandatory), "on-demand" standing alone between commas, semicolons or a colon is the pricing asked for:
every other kind is ruled out, as "on-demand only" is (advisor/extract/rules_pricing.py). Outside a
constraint sentence ("we compared spot, on-demand, reserved") a list names options, not a requirement.
"""

from __future__ import annotations

from advisor.extract.regex_keys import keyed
from advisor.extract.rules_ctx import Ctx, I, q

_ALL_KINDS: tuple[str, ...] = ("spot", "on_demand", "reserved", "owned")  # as rules_pricing's
_ITEM = keyed(
    r"(?:^|(?<=[,;:(])|(?<=\band\b))\s*(?P<kind>on[\s-]demand)"
    r"(?:\s+(?:instances?|pricing|capacity|nodes|vms))?\s*(?=[,;.)]|$)",
    I,
)
_CONSTRAINT = keyed(
    r"\b(?:constraints?|polic(?:y|ies)|procurement|requirements?|required|must|only|mandatory|rules?)\b", I
)


def rule_pricing_list(ctx: Ctx) -> None:
    """pricing_excluded: every kind but on-demand when it is listed as a constraint (module docstring)."""
    for s in ctx.sentences_with(_ITEM):  # a finding needs it to match
        t = s.text
        if not _CONSTRAINT.search(t):
            continue
        for m in _ITEM.finditer(t):
            kind = "on_demand"
            others = [k for k in _ALL_KINDS if k != kind]
            how = f'"{q(m)}" in a list of constraints -> on-demand pricing only'
            ctx.add(s, "pricing_excluded", others, how, "inferred", m.start("kind"))
