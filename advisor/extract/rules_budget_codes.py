"""Budgets the other budget rules miss (issue 12; evals v13, read as development data):

- an amount in a currency with a catalog rate but no rule of its own, by ISO code or local sign: "PLN 2,000
  from the grant", "budget 20,000 NOK", "SEK 50k max", "2 000 zł", "350 000 Ft", "Rp 25 juta", "₪1.2 million"
  (SEK NOK DKK PLN AUD CAD CNY KRW BRL HUF IDR ILS NGN UAH;
  rates in tools/catalog/costs.yaml, usd_per_<code>);
- a form field whose label names the currency and whose value is a bare number: "Max spend (USD): 45,000",
  "Budget (EUR): 12k", "Budget in GBP: 3,000";
- an amount set against the budget, not the budget: "approved at £18,000 max, not the £25k you asked for",
  "$40k rather than the $60k": its budget reading is dropped, whoever read it ("not more than $5k" stays).

An amount counts as a budget only with a cue: a budget word ("budget", "max spend", "money", "grant",
"funding", "cap", "not to exceed") before it, or "from the grant", "in total", "max" after it. A rate
("SEK 500 per hour", "NOK 2,000 a month") is no budget. Runs after rule_budget_forms; the finding sits at
the end of the amount's words, so it wins over a shorter reading of the same words ("budget 20" of
"budget 20,000 NOK", read without its currency).
"""

from __future__ import annotations

import re

from advisor.extract import units_text as U
from advisor.extract.rules_ctx import QUOTED_PENALTY, Ctx, Gated, I, q
from advisor.extract.rules_text import MONEY_NUM, MULT, MULTIPLIERS, NUM, Sentence, parse_money

# local signs of those currencies; "kr" is Swedish, Norwegian or Danish: read only with a code
_SIGN = {"zł": "PLN", "zl": "PLN", "złotych": "PLN", "zloty": "PLN", "zlotys": "PLN", "złoty": "PLN",
         # the forint's sign after the amount, the rupiah and shekel by name (evals v16): "350 000 Ft"
         "ft": "HUF", "forint": "HUF", "forints": "HUF", "rupiah": "IDR", "shekel": "ILS", "shekels": "ILS",
         # signs before the amount: "Rp 25 juta", "₪1.2 million", "NIS 40,000"
         "rp": "IDR", "rp.": "IDR", "₪": "ILS", "nis": "ILS",
         # the naira and the hryvnia (evals v16): "₦2.5 million", "2.5 million naira", "₴60 000", "60 000 грн"
         "₦": "NGN", "naira": "NGN", "₴": "UAH", "hryvnia": "UAH", "hryvnias": "UAH",
         "грн": "UAH",
         # the ringgit's sign before the amount and the name (evals v18): "RM4,000", "4,000 ringgit"
         "rm": "MYR", "ringgit": "MYR"}  # fmt: skip
_CODES = ("SEK", "NOK", "DKK", "PLN", "AUD", "CAD", "CNY", "KRW", "BRL", "HUF", "IDR", "ILS", "NGN", "UAH",
          "MYR", "CLP", "ISK", "AED")
_CODE = r"(?P<code>" + "|".join(_CODES) + r")"
_AMOUNT = rf"(?P<num>{MONEY_NUM}|{NUM})(?:\s*(?P<mult>{MULT}))?"
_CODED = Gated(
    re.compile(
        rf"\b{_CODE}\s*{_AMOUNT}"
        rf"|(?P<num2>{MONEY_NUM}|{NUM})(?:\s*(?P<mult2>{MULT}))?\s*(?:(?P<code2>{'|'.join(_CODES)})\b"
        r"|(?P<sign>złotych|złoty|zlotys|zloty|zł|zl|(?-i:Ft)|forints?|rupiah|shekels?|naira|hryvnias?|грн|ringgit)(?!\w))"
        rf"|(?P<pre>(?-i:Rp)\.?|₪|₦|₴|(?-i:NIS)\b|\b(?-i:RM)\s)\s*(?P<num3>{MONEY_NUM}|{NUM})(?:\s*(?P<mult3>{MULT}))?"
        # a sign written against its amount ("RM4,000"): the number rules read no digit after a letter
        rf"|\b(?P<tight>(?-i:RM))(?P<num4>\d[\d,]*(?:\.\d+)?)(?!\w)(?:\s*(?P<mult4>{MULT}))?",
        I,
    ),
    "sek", "nok", "dkk", "pln", "aud", "cad", "cny", "krw", "brl", "zł", "zl", "huf", "idr", "ils", "ft",
    "forint", "rupiah", "shekel", "rp", "₪", "nis", "ngn", "uah", "₦", "naira", "₴", "hryvn", "грн", "myr",
    "rm", "ringgit", "clp", "isk", "aed",
)  # fmt: skip
_LABEL_CUE = (
    r"(?:max(?:imum)?\s+spend|spend(?:ing)?\s+(?:cap|limit|ceiling)|total\s+spend|budget(?:\s+cap|\s+limit)?"
    r"|cost\s+cap|funding|money)"
)
# "Max spend (USD): 45,000", "Budget [EUR] 12k", "Budget in GBP: 3,000"
_LABELLED = Gated(
    re.compile(
        rf"\b{_LABEL_CUE}\s*(?:\(\s*(?P<c1>usd|eur|gbp|chf|{'|'.join(_CODES)})\s*\)|\[\s*(?P<c2>usd|eur|gbp|chf"
        rf"|{'|'.join(_CODES)})\s*\]|in\s+(?P<c3>usd|eur|gbp|chf|{'|'.join(_CODES)})\b)\s*[:=-]?\s*{_AMOUNT}"
        r"(?!\s*(?:%|[.,]?\d))",
        I,
    ),
    "(", "[", " in ",
)  # fmt: skip
_CUE_BEFORE = re.compile(
    r"\b(?:budget\w*|max(?:imum)?|spend\w*|money|grant|funding|funds|cap|capped|limit|approved|allocated"
    r"|at\s+most|up\s+to|no\s+more\s+than"
    # a contract's ceiling (evals v12 SOW): "re-invoiced at cost, not to exceed NOK 95,000"; the same words
    # _BUDGET_CUE of rules_money_time.py reads before USD/EUR/GBP/CHF
    r"|not[\s-]to[\s-]exceed|(?:shall|must|will|may|should)\s+not\s+exceed|ceiling)\b[^.;!?\d]{0,25}$",
    I,
)
_CUE_AFTER = re.compile(
    r"\s*(?:max(?:imum)?\b|all[\s-]in\b|in\s+total\b|total\b|(?:from|of)\s+(?:the\s+|our\s+|my\s+)?"
    r"(?:grant|budget|funding|funds)\b)",
    I,
)
_RATE_AFTER = re.compile(
    r"\s*(?:/|per\s|an?\s+(?:hour|month|day|week|year|gpu)\b|each\b|hourly|monthly|weekly)", I
)


def _record(ctx: Ctx, s: Sentence, m: re.Match[str], amount: float, currency: str) -> None:
    conv = U.usd_from(amount, currency)
    ev = q(m) if currency == "USD" else f'"{q(m)}": {conv.how}'
    ctx.add(s, "budget_usd", conv.value, ev, "stated" if currency == "USD" else "inferred", m.end() - 1)


def _amount(m: re.Match[str], num: str, mult: str) -> float:
    value = parse_money(m.group(num))
    return value * MULTIPLIERS[m.group(mult).lower()] if m.group(mult) else value


def rule_budget_codes(ctx: Ctx) -> None:
    """budget_usd from an amount in SEK NOK DKK PLN AUD CAD CNY KRW BRL HUF IDR ILS NGN UAH with a budget cue,
    and from a labelled form field naming its currency; then an amount the text sets aside is no budget."""
    _coded_and_labelled(ctx)
    drop_set_aside_budgets(ctx)


def _coded_and_labelled(ctx: Ctx) -> None:
    for s in ctx.sentences_with(_CODED, _LABELLED):  # a finding needs one of them to match
        t = s.text
        for m in _CODED.finditer(t):
            if _RATE_AFTER.match(t, m.end()):
                continue  # "SEK 500 per hour": a price, not a budget
            before = t[max(0, m.start() - 40) : m.start()]
            if not (_CUE_BEFORE.search(before) or _CUE_AFTER.match(t, m.end())):
                continue  # "we raised NOK 20M last year": money, but not this job's
            if m.group("num"):
                code = m.group("code").upper()
                value = _amount(m, "num", "mult")
            elif m.group("pre"):
                code = _SIGN[m.group("pre").strip().lower()]
                value = _amount(m, "num3", "mult3")
            elif m.group("tight"):
                code = _SIGN[m.group("tight").lower()]
                value = _amount(m, "num4", "mult4")
            else:
                code = (m.group("code2") or "").upper() or _SIGN[m.group("sign").lower()]
                value = _amount(m, "num2", "mult2")
            if value > 0:
                _record(ctx, s, m, value, code)
        for m in _LABELLED.finditer(t):
            if _RATE_AFTER.match(t, m.end()):
                continue
            code = (m.group("c1") or m.group("c2") or m.group("c3")).upper()
            value = _amount(m, "num", "mult")
            if value > 0:
                _record(ctx, s, m, value, code)


# an amount named to be set aside: "not the £25k you originally asked for", "rather than $60k", "instead of
# EUR 10,000" (the figure right after the contrast word; "not more than $5k" has a word between them)
_SET_ASIDE = Gated(
    re.compile(
        r"\b(?:not|rather\s+than|instead\s+of)\s+(?:the\s+|our\s+|your\s+|an?\s+)?(?:original(?:ly)?\s+|earlier\s+"
        r"|initial\s+|first\s+|old\s+|previous\s+)?"
        rf"(?:(?:us\$|\$|€|£|\b(?:usd|eur|gbp|chf|{'|'.join(_CODES)})\b)\s*(?:{MONEY_NUM}|{NUM})(?:\s*{MULT})?"
        rf"|(?:{MONEY_NUM}|{NUM})(?:\s*{MULT})?\s*(?:usd|eur|euros?|dollars?|gbp|pounds?|chf|{'|'.join(_CODES)})\b)",
        I,
    ),
    "not", "rather", "instead",
)


def drop_set_aside_budgets(ctx: Ctx) -> None:
    """Remove budget_usd findings read from an amount the text sets aside ("..., not the £25k you asked for"),
    when the sentence also states another amount (the one that stands)."""
    for s in ctx.sentences_with(_SET_ASIDE):
        for m in _SET_ASIDE.finditer(s.text):
            shift = s.start - (QUOTED_PENALTY if s.quoted else 0)
            lo, hi = shift + m.start(), shift + m.end()
            in_sentence = [f for f in ctx.findings if f.field == "budget_usd"
                           and shift <= f.position <= shift + len(s.text)]  # fmt: skip
            aside = [f for f in in_sentence if lo <= f.position <= hi]
            if aside and len(aside) < len(in_sentence):
                ctx.findings[:] = [f for f in ctx.findings if not any(f is a for a in aside)]
