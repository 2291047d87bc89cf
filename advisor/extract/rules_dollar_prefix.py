"""Dollars of another country, written with a prefix on the sign (issue 12; expert review 14 helpers).

"A$ 5,000" was read as a budget of $1 ("A$" as one dollar) and "AU$ 5,000", "C$ 5,000", "NZ$ 5,000" as
US dollars. A letter prefix on "$" names the currency: A$ / AU$ / AUD$ are Australian dollars, C$ / CA$ /
CAN$ Canadian dollars, NZ$ New Zealand, S$ / SG$ Singapore and HK$ Hong Kong dollars, R$ Brazilian reais
(rates in tools/catalog/costs.yaml, usd_per_<code>, converted by units_text.usd_from). A prefix with no
catalog rate (MX$, NT$, ...) is not read as US dollars: its budget reading is dropped, so the reply lists
the clause as not understood.

Runs after the budget rules (which decide whether the amount is a budget at all: a cue, not a rate);
this rule only corrects the currency of what they read inside the prefixed amount. "US$" stays theirs.
"""

from __future__ import annotations

import re

from advisor.extract import units_text as U
from advisor.extract.rules_ctx import QUOTED_PENALTY, Ctx, q
from advisor.extract.rules_text import MONEY_NUM, MULT, MULTIPLIERS, NUM, parse_money

# ISO 4217 codes of the prefixes in use (Wikipedia "Dollar sign", usages by country; R$ for the real)
_PREFIX_CODES = {"A": "AUD", "AU": "AUD", "AUD": "AUD", "C": "CAD", "CA": "CAD", "CAN": "CAD", "CAD": "CAD",
                 "R": "BRL", "NZ": "NZD", "NZD": "NZD", "S": "SGD", "SG": "SGD", "SGD": "SGD", "HK": "HKD",
                 "HKD": "HKD"}  # fmt: skip
# case-sensitive: "A$5k" is a currency, "a $5k budget" an article
_PREFIXED = re.compile(
    rf"(?<![A-Za-z$])(?P<prefix>[A-Z]{{1,3}})\$\s*(?P<num>{MONEY_NUM}|{NUM})(?:\s*(?P<mult>{MULT})\b)?"
)


def rule_dollar_prefix(ctx: Ctx) -> None:
    """budget_usd read inside "A$ 5,000" converted from its currency; one in an unknown dollar dropped."""
    for s in ctx.sentences:
        for m in _PREFIXED.finditer(s.text):
            prefix = m.group("prefix")
            if prefix == "US":
                continue  # US dollars, as the budget rules read them
            shift = s.start - (QUOTED_PENALTY if s.quoted else 0)
            lo, hi = shift + m.start(), shift + m.end()
            read = [f for f in ctx.findings if f.field == "budget_usd" and lo <= f.position <= hi]
            if not read:
                continue  # not a budget (a price, a rate): the budget rules said so
            ctx.findings[:] = [f for f in ctx.findings if not any(f is r for r in read)]
            code = _PREFIX_CODES.get(prefix)
            if code is None:
                continue  # "MX$ 5,000": no rate in the catalog; listed as not understood, never read as USD
            amount = parse_money(m.group("num"))
            if m.group("mult"):
                amount *= MULTIPLIERS[m.group("mult").lower()]
            if amount > 0:
                conv = U.usd_from(amount, code)
                ctx.add(s, "budget_usd", conv.value, f'"{q(m)}": {conv.how}', "inferred", m.end() - 1)
