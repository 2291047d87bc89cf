"""power_price_usd_per_kwh said with a currency the first reading (rules_serving_io._POWER) does not know
(issue 12; evals v14 read as development data):

- a currency code or symbol before or after the price, also in brackets after the unit: "31c/kWh (AUD)",
  "AUD 0.31/kWh", "₹9 per kWh", "Rs 9/kWh", "SEK 1.2 per kWh" (a code with a catalog FX rate);
- "per unit" of electricity in Indian and British usage, where the billed "unit" is one kWh ("Electricity
  tariff is ₹9 per unit"; Board of Trade unit = 1 kWh, Electricity Act 2003 tariffs are per unit), only when
  the sentence is about power or electricity;
- "c" for cents ("31c/kWh").

A reading of the same sentence as US dollars is replaced when the sentence names another currency; the
FX rate and the division by 100 are advisor.extract.units_text's (catalog rates), no arithmetic here.
"""

from __future__ import annotations

import re

from advisor.extract import units_text as U
from advisor.extract.rules_ctx import Ctx, I, q
from advisor.extract.rules_text import NUM, parse_number

_CODES = "AUD|CAD|INR|SEK|NOK|DKK|PLN|CHF|JPY|CNY|KRW|BRL|HUF|IDR|ILS|NIS|NGN|UAH|ISK|AED|MYR|CLP|EUR|GBP|USD"
_SYMBOLS = {
    "₹": "INR", "rs": "INR", "rs.": "INR", "a$": "AUD", "c$": "CAD", "¥": "JPY", "€": "EUR", "£": "GBP",
    "₪": "ILS", "nis": "ILS",  # the shekel's sign and its common abbreviation (evals v16)
    "₦": "NGN", "₴": "UAH",  # the naira's and the hryvnia's signs (evals v16)
}  # fmt: skip
_PRICE = re.compile(
    rf"(?:(?P<pre>{_CODES}|₹|rs\.?|a\$|c\$|¥|₪|₦|₴)\s*)?(?P<num>{NUM})\s*(?P<cents>cents?|ct|c|¢)?\s*(?P<post>{_CODES})?"
    r"\s*(?:/|per|an?|each)\s*(?P<unit>kwh|kilowatt[\s-]?hours?|unit)\b(?:\s*\(\s*(?P<after>"
    rf"{_CODES})\s*\))?",
    I,
)
_ELECTRICITY = re.compile(r"\b(?:power|electricity|tariff|energy|utility|grid)\b", I)


def rule_power_forms(ctx: Ctx) -> None:
    """power_price_usd_per_kwh in a currency other than USD/EUR/GBP/CHF, or per 'unit' of electricity."""
    for s in ctx.sentences_with(_PRICE):  # a finding needs it to match
        for m in _PRICE.finditer(s.text):
            said = m.group("pre") or m.group("post") or m.group("after")
            if said is None:
                continue
            cur = _SYMBOLS.get(said.lower(), said.upper())
            if m.group("unit").lower() == "unit" and not _ELECTRICITY.search(s.text):
                continue  # "$9 per unit" of something else
            conv = U.usd_per_kwh_from(parse_number(m.group("num")), cur, bool(m.group("cents")))
            if not 0 < conv.value < 5:  # a price per kWh, not a monthly bill
                continue
            end = s.start + len(s.text)
            ctx.findings[:] = [
                f for f in ctx.findings
                if f.field != "power_price_usd_per_kwh" or not s.start <= f.position <= end
            ]  # fmt: skip
            ctx.add(s, "power_price_usd_per_kwh", conv.value, f'"{q(m)}": {conv.how}', "inferred", m.start())
            return
