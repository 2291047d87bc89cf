"""A form's amount field is the budget it asks for (issue 12; evals v15 expense pre-approval form:
"Amount:       EUR 1.800 (one-off)" was dropped): a line labelled "Amount", "Requested amount", "Amount
requested" or "Approved amount", with a currency at the amount, gives budget_usd (other currencies at the
catalog's dated rate, units_text.usd_from), when no other budget was read.

Not a budget: an amount of something else ("Amount of data: 500 GB" has no currency), a price per unit
("Amount: $2.49/h"), a "Prior spend:" or "Last year:" field (another label), a deal's value ("Amount:
$480,000 (3-year contract value)", a CRM opportunity).
"""

from __future__ import annotations

import re

from advisor.extract import units_text as U
from advisor.extract.rules_ctx import Ctx, I, q
from advisor.extract.rules_text import MONEY_NUM, MULT, MULTIPLIERS, NUM, parse_money

_CURRENCY = {"$": "USD", "us$": "USD", "usd": "USD", "€": "EUR", "eur": "EUR", "£": "GBP", "gbp": "GBP",
             "chf": "CHF", "cad": "CAD", "aud": "AUD", "sek": "SEK", "nok": "NOK", "dkk": "DKK", "pln": "PLN",
             "jpy": "JPY", "¥": "JPY", "inr": "INR", "₹": "INR"}  # fmt: skip
_WORDS = {"euro": "EUR", "dollar": "USD", "pound": "GBP"}
_CUR = r"(?:us\$|\$|€|£|¥|₹|usd|eur|gbp|chf|cad|aud|sek|nok|dkk|pln|jpy|inr)"
_AMOUNT_FIELD = re.compile(
    r"(?:^|\n)\s*(?:(?:total|requested|approved|estimated)\s+)?amount(?:\s+(?:requested|approved|needed))?"
    rf"\s*(?:\(\s*(?P<c0>{_CUR})\s*\))?\s*[:=]\s*"
    rf"(?:(?P<c1>{_CUR})\s*(?P<num>{MONEY_NUM}|{NUM})(?:\s*(?P<mult>{MULT}))?"
    rf"|(?P<num2>{MONEY_NUM}|{NUM})(?:\s*(?P<mult2>{MULT}))?\s*(?P<c2>{_CUR}|euros?|dollars?|pounds?)?)"
    r"(?!\s*(?:/|per\b|an?\s+(?:hour|month|day|gpu)\b|each\b|hourly|monthly))"
    # a CRM record's deal amount (evals v16: "Amount: $480,000 (3-year contract value)"): a sale, no budget
    r"(?![.,]?\d)(?!\s*\(?\s*(?:[\w-]+\s+){0,2}?(?:contract|deal|booking|lifetime)\s+value\b|\s*\(?\s*(?:TCV|ACV)\b)",
    I,
)


def rule_amount_label(ctx: Ctx) -> None:
    """budget_usd from a form's amount field with a currency (module docstring)."""
    if ctx.has("budget_usd"):
        return
    for s in ctx.sentences:
        for m in _AMOUNT_FIELD.finditer(s.text):
            cur = (m.group("c0") or m.group("c1") or m.group("c2") or "").lower()
            if not cur:
                continue  # "Amount: 500 GB" or a bare number: not money
            code = _CURRENCY.get(
                cur, {"euro": "EUR", "dollar": "USD", "pound": "GBP"}.get(cur.rstrip("s"), "USD")
            )
            num, mult = (
                (m.group("num"), m.group("mult")) if m.group("num") else (m.group("num2"), m.group("mult2"))
            )
            value = parse_money(num) * (MULTIPLIERS[mult.lower()] if mult else 1.0)
            if value <= 0:
                continue
            conv = U.usd_from(value, code)
            ev = q(m) if code == "USD" else f'"{q(m)}": {conv.how}'
            ctx.add(s, "budget_usd", conv.value, ev, "stated" if code == "USD" else "inferred", m.end() - 1)
            return
