"""Budgets written in forms the amount rule (advisor/extract/rules_money_time.py rule_budget) misses
(issue 12):

- a range whose multiplier comes once, at its upper end: "CHF 250-300k", "£60-75k", "between 40 and 50k
  EUR": the upper end, with the multiplier, as ranges elsewhere (a range gives its upper end);
- currencies beyond USD/EUR/GBP/CHF: "₹6 lakh", "1.5 million yen", "JPY 2M", "INR 5 lakh";
- amounts in words: "fifteen hundred dollars", "two and a half grand", "three and a half thousand euros";
- a cap said by a sign or by what follows it: "Cost < $1,500 all-in", "£2,000 of grant money".

Runs after rule_budget; a finding here is placed at the end of the amount's words, so it wins over the
shorter reading of the same words ("hundred dollars" inside "fifteen hundred dollars").
"""

from __future__ import annotations

import re

from advisor.extract import units_text as U
from advisor.extract.rules_ctx import Ctx, Gated, I, q
from advisor.extract.rules_text import MONEY_NUM, MULT, MULTIPLIERS, NUM, WORD_NUMBERS, Sentence, parse_money
from advisor.extract.sentence_memo import read_once

_SYM = r"(?P<sym>us\$|\$|€|£|₹|¥|\bchf\s?|\beur\s?|\busd\s?|\bgbp\s?|\binr\s?|\bjpy\s?|\brs\.?\s?)"
_WORD = r"(?P<word>usd|dollars?|bucks|eur|euros?|gbp|pounds?|chf|francs?|inr|rupees?|jpy|yen)"
_CURRENCY = {
    "$": "USD", "us$": "USD", "usd": "USD", "dollar": "USD", "dollars": "USD", "bucks": "USD",
    "€": "EUR", "eur": "EUR", "euro": "EUR", "euros": "EUR",
    "£": "GBP", "gbp": "GBP", "pound": "GBP", "pounds": "GBP",
    "chf": "CHF", "franc": "CHF", "francs": "CHF",
    "₹": "INR", "inr": "INR", "rs": "INR", "rs.": "INR", "rupee": "INR", "rupees": "INR",
    "¥": "JPY", "jpy": "JPY", "yen": "JPY",
}  # fmt: skip
_AMOUNT = rf"(?:{MONEY_NUM}|{NUM})"
_RANGE = Gated(
    re.compile(
        rf"{_SYM}\s*(?P<lo>{_AMOUNT})\s*(?:-|–|to)\s*(?P<hi>{_AMOUNT})\s*(?P<mult>{MULT})"
        rf"|(?P<lo2>{_AMOUNT})\s*(?:-|–|to|and)\s*(?P<hi2>{_AMOUNT})\s*(?P<mult2>{MULT})\s*{_WORD}\b",
        I,
    ),
    "-", "–", "to", "and",
)  # fmt: skip
# currencies rule_budget does not know, with a multiplier word or none: "₹6 lakh", "1.5 million yen"
_OTHER_CURRENCY = Gated(
    re.compile(
        r"(?P<sym>₹|¥|\binr\s?|\bjpy\s?|\brs\.?\s?)\s*(?P<num>" + _AMOUNT + r")\s*(?P<mult>" + MULT + r")?"
        r"|(?P<num2>" + _AMOUNT + r")\s*(?P<mult2>" + MULT + r")?\s*(?P<word>inr|rupees?|jpy|yen|円)(?!\w)",
        I,
    ),
    "₹", "¥", "inr", "jpy", "rs", "rupee", "yen", "円",
)  # fmt: skip
_UNITS = {w: v for w, v in WORD_NUMBERS.items() if " " not in w and 1 <= v < 100 and w not in ("a", "an")}
_UNIT_WORD = "|".join(sorted(_UNITS, key=len, reverse=True))
# "fifteen hundred dollars", "two and a half grand", "three and a half thousand euros"
_WORDS = Gated(
    re.compile(
        rf"\b(?P<n>{_UNIT_WORD})(?:\s+(?P<hundred>hundred)|\s+and\s+a\s+(?P<half>half))?\s+"
        rf"(?P<mult>thousand|grand|k)?\s*{_WORD}?\b",
        I,
    ),
    "hundred", "half",
)  # fmt: skip
_CUE = re.compile(
    r"\b(?:budget\w*|afford|spend\w*|grant|funding|cap|capped|limit|approved|allocated|have|has|got|range"
    r"|under|max(?:imum)?|at\s+most|up\s+to|no\s+more\s+than|less\s+than|below|within|around|about)\b|[~≈<≤]",
    I,
)
# a cap said after the amount: "$1,500 all-in", "£2,000 of grant money", "5 lakh in grant funds"
_CUE_AFTER = re.compile(
    r"\s*(?:all[\s-]in|in\s+total|total|of\s+(?:grant|research|project|budget)\s+(?:money|funds?|funding)"
    r"|(?:of|in)\s+(?:grant|budget|funding)\b)",
    I,
)
_SIGN_BEFORE = re.compile(r"(?:<|≤|<=)\s*$")
_RATE_AFTER = re.compile(
    r"\s*(?:/|per\s|an?\s+(?:hour|month|day|week|year|gpu)\b|each\b|hourly|monthly|weekly)", I
)


def _currency(m: re.Match[str]) -> str:
    for key in ("sym", "word"):
        if key in m.re.groupindex and m.group(key):
            cur = _CURRENCY.get(m.group(key).strip().lower())
            if cur is not None:
                return cur
    return "JPY" if "円" in m.group(0) else "USD"


def _record(ctx: Ctx, s: Sentence, m: re.Match[str], amount: float, cur: str) -> None:
    conv = U.usd_from(amount, cur)
    ev = q(m) if cur == "USD" else f'"{q(m)}": {conv.how}'
    # the end of the amount's words: a reading of part of them ("hundred dollars") sits before it
    ctx.add(s, "budget_usd", conv.value, ev, "stated" if cur == "USD" else "inferred", m.end() - 1)


_MONTHLY_AFTER = re.compile(r"\s*(?:/\s*(?:mo|month)\b|per\s+month\b|an?\s+month\b|monthly\b)", I)
_BUDGET_BEFORE = re.compile(
    r"\b(?:budget\w*|cap|capped|limit|max(?:imum)?|at\s+most|up\s+to|no\s+more\s+than)\b", I
)


def _is_budget(t: str, m: re.Match[str], serving: bool = False) -> bool:
    before = t[max(0, m.start() - 50) : m.start()]
    if _RATE_AFTER.match(t, m.end()):
        # "$2-3k a month" is a rate; a serving budget held to a month is the budget its monthly cost meets
        # ("budget $2-3k a month"), as rule_budget reads a monthly ceiling
        monthly = _MONTHLY_AFTER.match(t, m.end()) is not None
        return serving and monthly and _BUDGET_BEFORE.search(before) is not None
    return bool(_CUE.search(before) or _CUE_AFTER.match(t, m.end()) or _SIGN_BEFORE.search(before))


@read_once
def rule_budget_forms(ctx: Ctx) -> None:
    """budget_usd from ranges with one multiplier, other currencies, amounts in words and stated caps."""
    for s in ctx.sentences_with(_RANGE, _OTHER_CURRENCY, _WORDS, _CAP):  # a finding needs one to match
        t = s.text
        for m in _RANGE.finditer(t):
            if not _is_budget(t, m, serving=ctx.workload == "inference"):
                continue
            hi, mult = m.group("hi") or m.group("hi2"), m.group("mult") or m.group("mult2")
            _record(ctx, s, m, parse_money(hi) * MULTIPLIERS[mult.lower()], _currency(m))
        for m in _OTHER_CURRENCY.finditer(t):
            if not _is_budget(t, m):
                continue
            num, mult = m.group("num") or m.group("num2"), m.group("mult") or m.group("mult2")
            _record(ctx, s, m, parse_money(num) * (MULTIPLIERS[mult.lower()] if mult else 1.0), _currency(m))
        for m in _WORDS.finditer(t):
            if not (m.group("hundred") or m.group("half")) or not (m.group("mult") or m.group("word")):
                continue  # "two and a half weeks", "fifteen hundred users": no amount of money
            if m.group("hundred") and m.group("mult"):
                continue  # "fifteen hundred thousand": too rare to guess
            value = float(_UNITS[m.group("n").lower()]) + (0.5 if m.group("half") else 0.0)
            value *= 100 if m.group("hundred") else MULTIPLIERS[(m.group("mult") or "k").lower()]
            if _is_budget(t, m):
                _record(ctx, s, m, value, _currency(m))
        for m in _CAP.finditer(t):
            num, mult = m.group("num") or m.group("num2"), m.group("mult") or m.group("mult2")
            cur = _CURRENCY[(m.group("sym") or m.group("sym2")).strip().lower()]
            _record(ctx, s, m, parse_money(num) * (MULTIPLIERS[mult.lower()] if mult else 1.0), cur)


# an amount rule_budget reads only with a cue before it, here with a sign or a cue after it
_CAP = Gated(
    re.compile(
        r"(?:[<≤]|<=)\s*(?P<sym>us\$|\$|€|£|\bchf\s?|\beur\s?|\busd\s?|\bgbp\s?)\s*"
        r"(?P<num>" + _AMOUNT + r")\s*(?P<mult>" + MULT + r")?"
        r"|(?P<sym2>\$|€|£)\s*(?P<num2>" + _AMOUNT + r")\s*(?P<mult2>" + MULT + r")?"
        r"(?=\s*(?:of|in)\s+(?:grant|research|project)\s+(?:money|funds?|funding)\b)",
        I,
    ),
    "<", "≤", "grant", "research", "project",
)  # fmt: skip
