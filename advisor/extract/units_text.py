"""Conversions from the units people write in (words, pages, GB of text, euros, weeks) to profile units.

These are extraction assumptions, not calculator formulas: each is a named constant with its source,
and every conversion returns the value together with a one-line account of the arithmetic, which the
extractor records as the field's evidence (status "inferred"), so the user can see and correct it.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from tools import present
from tools.catalog.load import load_catalog
from tools.catalog.schema import Estimate
from tools.defaults import BYTES_PER_TOKEN
from tools.units import BYTES_PER_GB, HOURS_PER_DAY, HOURS_PER_MONTH, MONTHS_PER_YEAR, SECONDS_PER_HOUR

# OpenAI, "What are tokens and how to count them?" (help.openai.com): for common English text one token
# is about 4 characters, or about 3/4 of a word. Other tokenizers (Llama 3, Qwen2.5) are within ~15%.
# The bytes-per-token figure is the recommender's own (tools.defaults), so both read GB the same way.
BYTES_PER_TOKEN_ENGLISH = BYTES_PER_TOKEN
TOKENS_PER_WORD_ENGLISH = 4.0 / 3.0
# Publishing rule of thumb: a single-spaced page of 12-pt text holds about 500 words.
WORDS_PER_PAGE = 500.0


# Reference exchange rates: each currency's rate is a dated catalog estimate `usd_per_<code>` (tools/catalog/
# costs.yaml: ECB and IMF reference rates with their dates, for EUR GBP CHF JPY INR SEK NOK DKK PLN AUD CAD
# CNY KRW BRL NZD SGD HKD HUF IDR ILS; the central banks' rates for NGN UAH).
def usd_per_unit(currency: str) -> Estimate | None:
    """The catalog's reference rate for `currency` (USD per unit, with source and date); None for USD."""
    if currency == "USD":
        return None
    return load_catalog().estimate(f"usd_per_{currency.lower()}")


def _fx_note(rate: Estimate) -> str:
    """'ECB reference rate of 14 Mar 2025': the publisher (first word of the source) and the date."""
    return f"{rate.source.split()[0]} reference rate of {rate.as_of:%d %b %Y}"


HOURS_PER_WEEK = 7 * HOURS_PER_DAY
OVERNIGHT_HOURS = 12.0  # "overnight": an evening to the next morning (about 20:00 -> 08:00)
WEEKEND_HOURS = 60.0  # "over the weekend": Friday evening to Monday morning (~18:00 -> 06:00; review 6, R02)
LONG_WEEKEND_HOURS = WEEKEND_HOURS + 24.0  # "over a long weekend": one more day off
DAYS_PER_MONTH = HOURS_PER_MONTH / HOURS_PER_DAY  # 30.42, the price-sheet month of tools.units
WEEKS_PER_MONTH = HOURS_PER_MONTH / HOURS_PER_WEEK  # 4.345
MINUTES_PER_HOUR = 60.0
SECONDS_PER_WEEK = HOURS_PER_WEEK * SECONDS_PER_HOUR
SECONDS_PER_MONTH = HOURS_PER_MONTH * SECONDS_PER_HOUR  # the price-sheet month (730 h)


@dataclass(frozen=True)
class Converted:
    """A converted value and the arithmetic that produced it (recorded as evidence)."""

    value: float
    how: str


def _g(x: float) -> str:
    """Compact number for evidence text (not for presentation of results)."""
    if x >= 1e9:
        return f"{x / 1e9:g}B"
    if x >= 1e6:
        return f"{x / 1e6:g}M"
    if x >= 1e3:
        return f"{x / 1e3:g}k"
    return f"{x:g}"


def tokens_from_gb(gb: float) -> Converted:
    """Tokens in `gb` GB (1e9 bytes) of English text at BYTES_PER_TOKEN_ENGLISH bytes per token."""
    tokens = gb * BYTES_PER_GB / BYTES_PER_TOKEN_ENGLISH
    return Converted(
        tokens, f"{_g(gb)} GB x 1e9 B/GB / {BYTES_PER_TOKEN_ENGLISH:g} B/token = {_g(tokens)} tokens"
    )


def tokens_from_words(words: float) -> Converted:
    """Tokens in `words` English words at TOKENS_PER_WORD_ENGLISH."""
    tokens = words * TOKENS_PER_WORD_ENGLISH
    return Converted(
        tokens, f"{_g(words)} words x {TOKENS_PER_WORD_ENGLISH:.2f} tokens/word = {_g(tokens)} tokens"
    )


def tokens_from_pages(pages: float) -> Converted:
    """Tokens in `pages` pages at WORDS_PER_PAGE words per page."""
    words = pages * WORDS_PER_PAGE
    tokens = words * TOKENS_PER_WORD_ENGLISH
    return Converted(
        tokens,
        f"{_g(pages)} pages x {WORDS_PER_PAGE:g} words/page x {TOKENS_PER_WORD_ENGLISH:.2f} tokens/word"
        f" = {_g(tokens)} tokens",
    )


def tokens_from_items(count: float, tokens_each: float, item: str = "examples") -> Converted:
    """Tokens in `count` items of `tokens_each` tokens."""
    tokens = count * tokens_each
    return Converted(tokens, f"{_g(count)} {item} x {_g(tokens_each)} tokens = {_g(tokens)} tokens")


def tokens_from_items_words(count: float, words_each: float, item: str = "documents") -> Converted:
    """Tokens in `count` items of `words_each` words."""
    tokens = count * words_each * TOKENS_PER_WORD_ENGLISH
    return Converted(
        tokens,
        f"{_g(count)} {item} x {_g(words_each)} words x {TOKENS_PER_WORD_ENGLISH:.2f} tokens/word"
        f" = {_g(tokens)} tokens",
    )


# The per-unit factors the token conversions above write into their evidence: a dataset size read
# through one of them is an estimate (a tokenizer would count differently); items x stated tokens is not.
_TOKEN_ESTIMATE_FACTORS = ("tokens/word", "B/token")


def is_token_estimate(evidence: str | None) -> bool:
    """True when `evidence` converted words, pages or GB of text to tokens (an assumed factor)."""
    return evidence is not None and any(f in evidence for f in _TOKEN_ESTIMATE_FACTORS)


def usd_from(amount: float, currency: str) -> Converted:
    """`amount` in USD or a currency with a catalog rate (usd_per_unit), as USD at that dated rate."""
    rate = usd_per_unit(currency)
    if rate is None:
        return Converted(amount, f"{_g(amount)} USD")
    usd = amount * rate.value
    how = f"{_g(amount)} {currency} x {rate.value:.4g} USD/{currency} ({_fx_note(rate)}) = {present.usd(usd)}"
    return Converted(usd, how)


def hours_from(amount: float, unit: str) -> Converted:
    """A duration in hours: unit is minute, hour, day, week or month (30.42 days) or year."""
    per = {
        "minute": 1 / MINUTES_PER_HOUR,
        "hour": 1.0,
        "day": HOURS_PER_DAY,
        "week": HOURS_PER_WEEK,
        "fortnight": 2 * HOURS_PER_WEEK,
        "month": HOURS_PER_MONTH,
        "year": 12 * HOURS_PER_MONTH,
    }[unit]
    hours = amount * per
    if unit == "hour":
        return Converted(hours, f"{amount:g} hours")
    return Converted(hours, f"{amount:g} {unit}s x {per:g} h/{unit} = {hours:g} h")


def months_from(amount: float, unit: str) -> Converted:
    """A horizon in months: unit is month or year."""
    months = amount * (12.0 if unit == "year" else 1.0)
    return Converted(months, f"{amount:g} {unit}s = {months:g} months")


def term_months(amount: float, unit: str) -> float:
    """A term or a time left in months from its unit word as written ("months", "mo", "wks", "days", "yrs"):
    days and weeks at the price sheet's month (DAYS_PER_MONTH, WEEKS_PER_MONTH), years x 12."""
    u = unit.lower()
    if u.startswith("d"):
        return amount / DAYS_PER_MONTH
    if u.startswith("w"):
        return amount / WEEKS_PER_MONTH
    if u.startswith("y"):
        return amount * MONTHS_PER_YEAR
    return amount


def months_until(reference: dt.datetime, end: dt.datetime, label: str) -> Converted:
    """A horizon that ends on a date ("through 2027", "for the rest of the year"): the months from
    `reference` to `end`, in price-sheet months (tools.units.HOURS_PER_MONTH)."""
    months = (end - reference).total_seconds() / 3600.0 / HOURS_PER_MONTH
    return Converted(
        months,
        f"{label}: {reference:%Y-%m-%d} -> {end:%Y-%m-%d} = {months:.1f} months of {HOURS_PER_MONTH:g} h",
    )


def runs_per_month_from(count: float, per: str) -> Converted:
    """A cadence ('count per day/week/month/quarter/year') as runs per month."""
    per_month = {
        "day": DAYS_PER_MONTH,
        "week": WEEKS_PER_MONTH,
        "month": 1.0,
        "quarter": 1 / 3,
        "year": 1 / 12,
    }[per]
    runs = count * per_month
    if per == "month":
        return Converted(runs, f"{count:g} per month")
    return Converted(runs, f"{count:g} per {per} x {per_month:.3g} {per}s/month = {runs:.3g} runs/month")


def hours_until(reference: dt.datetime, due: dt.datetime, label: str) -> Converted:
    """Wall-clock hours from `reference` to `due` (both timezone-aware or both naive)."""
    hours = (due - reference).total_seconds() / 3600.0
    return Converted(hours, f"{label}: {reference:%Y-%m-%d %H:%M} -> {due:%Y-%m-%d %H:%M} = {hours:.0f} h")


def utilization_from_schedule(hours_per_day: float, days_per_week: float) -> Converted:
    """Share of the week in use when running `hours_per_day` on `days_per_week` days."""
    u = hours_per_day * days_per_week / HOURS_PER_WEEK
    return Converted(
        u, f"{hours_per_day:g} h/day x {days_per_week:g} days/week / {HOURS_PER_WEEK:g} h/week = {u:.2f}"
    )


def context_from_prompt_output(prompt_tokens: float, output_tokens: float) -> Converted:
    """Tokens a serving sequence holds at its end: the prompt plus the answer generated after it."""
    total = prompt_tokens + output_tokens
    return Converted(
        total,
        f"{prompt_tokens:g} prompt tokens + {output_tokens:g} output tokens = {total:g} tokens per sequence",
    )


def rate_from_volume(tokens: float, hours: float) -> Converted:
    """The aggregate output rate that generates `tokens` in `hours` of wall-clock time."""
    rate = tokens / (hours * SECONDS_PER_HOUR)
    return Converted(
        rate, f"{_g(tokens)} tokens / ({hours:g} h x {SECONDS_PER_HOUR:g} s/h) = {rate:,.0f} tokens/s"
    )


# A bare "latency under N ms" from this figure up is a whole request's, not a token's: the strictest published
# per-token serving target is MLPerf Inference's Llama 2 70B server scenario, TPOT <= 200 ms (MLCommons
# inference rules, v4.0), and a token every 250 ms (4 tokens/s) is slower than people read (~5 tokens/s).
REQUEST_LATENCY_MIN_MS = 250.0


def ms_per_token_from_latency(latency_ms: float, output_tokens: float) -> Converted:
    """A whole answer's latency spread over its tokens (the time to the first token not counted)."""
    per_token = latency_ms / output_tokens
    return Converted(
        per_token,
        f"{latency_ms:g} ms / {output_tokens:g} tokens = {per_token:.1f} ms per token (the time to the first "
        "token not counted)",
    )


def hours_between_clock(start_hour: float, end_hour: float) -> Converted:
    """Hours of a daily window from one time of day to another ('01:00 to 05:00', '10pm to 6am')."""
    hours = (end_hour - start_hour) % HOURS_PER_DAY or HOURS_PER_DAY
    return Converted(hours, f"{start_hour:g}:00 to {end_hour:g}:00 = {hours:g} h")


def rate_from_requests(requests_per_s: float, tokens_each: float) -> Converted:
    """The aggregate output rate of a request rate with answers of `tokens_each` output tokens."""
    rate = requests_per_s * tokens_each
    return Converted(
        rate, f"{requests_per_s:g} requests/s x {tokens_each:g} output tokens each = {rate:,.0f} tokens/s"
    )


PEAK_TO_AVERAGE_REQUESTS = 2.0
"""A request volume per day, week or month (or a rate called an average) is sized at twice its average
rate when no peak is stated (expert review 19, R11): traffic that falls in a 12-hour working day and not
at night runs at 24 / 12 = 2x the round-the-clock average in those hours. A planning assumption, not a
measurement: a stated peak ("peaks of 3 requests per second") replaces it."""


def peak_from_average(average_per_s: float) -> Converted:
    """The request rate to size for from an average one, with no peak stated (PEAK_TO_AVERAGE_REQUESTS)."""
    peak = average_per_s * PEAK_TO_AVERAGE_REQUESTS
    return Converted(
        peak,
        f"average {average_per_s:.3g} requests/s x {PEAK_TO_AVERAGE_REQUESTS:g} (assumed peak-to-average "
        f"ratio, no peak stated) = {peak:.3g} requests/s",
    )


CENTS_PER_UNIT = 100.0


def usd_per_kwh_from(amount: float, currency: str, cents: bool) -> Converted:
    """An electricity price as USD per kWh: '10 cents a kWh' (cents=True) or '€0.25/kWh' (FX as usd_from)."""
    price = amount / CENTS_PER_UNIT if cents else amount
    money = usd_from(price, currency)
    unit = f"{amount:g} {currency} cents" if cents else f"{amount:g} {currency}"
    if not cents and currency == "USD":
        return Converted(money.value, f"{amount:g} USD/kWh")
    rate = usd_per_unit(currency)
    return Converted(
        money.value,
        f"{unit}/kWh"
        + (f" / {CENTS_PER_UNIT:g}" if cents else "")
        + (f" x {rate.value:.4g} USD/{currency} ({_fx_note(rate)})" if rate is not None else "")
        + f" = {money.value:.3f} USD/kWh",
    )
