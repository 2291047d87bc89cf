"""Presentation: the one place where a number, an amount of money, a duration or a method name is worded
for a reader, so a figure reads the same in the PDF, the web page, Slack, chat, the MCP tools and the
engine's own sentences (claims, checks, sensitivity labels).

Only for text: results keep full precision. Rules:
- money: whole dollars with thousands separators; cents below $10 (a $2.80/h price, a $0.09/GB rate);
  three significant figures with a suffix from $1M up ("$1.26M", "$4.5B", "$100T"), a power of ten
  beyond a thousand trillion (never a 20-digit string);
- a deadline: its date and the hours left ("Fri 4 Dec, 190 h from now");
- hours: one decimal below 10 h, whole hours up to 10,000 h, days shown alongside from 48 h;
- memory: GiB with one decimal; counts: three significant figures with a suffix from a million ("70.6B");
- None (unknown) prints as an em dash, never as 0.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Sequence
from typing import Any

from tools.vocabulary import PRETRAINING_STACK_TEXT

UNKNOWN = "—"
EN_DASH = "–"
DAYS_SHOWN_FROM_HOURS = 48.0
"""From two days on, a duration also reads in days ('72 h (3.0 days)')."""

METHOD_TEXT = {"qlora": "QLoRA", "lora": "LoRA", "full": "full fine-tuning"}
"""Training methods as a reader says them."""
PRETRAINING_WORKLOADS = ("pretraining", "continual_pretraining")
FULL_TRAINING_TEXT = "full training (all weights)"
"""Training all weights is not 'fine-tuning' when the workload is (continual) pre-training."""

_SUFFIXES = ((1e12, "T"), (1e9, "B"), (1e6, "M"))
SUFFIX_LIMIT = 1e15
"""From a thousand trillion on, a count or an amount of money is written as a power of ten ('1 × 10³⁰'):
'1e+03T' or thirty digits would not read."""
HOURS_LIMIT = 1e7
"""Durations from ten million hours (over a thousand years) are written as a power of ten."""
_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def _is_num(x: object) -> bool:
    return isinstance(x, int | float) and not isinstance(x, bool) and math.isfinite(float(x))


def method_text(method: str | None, workload: str | None = None) -> str:
    """'QLoRA', 'LoRA', 'full fine-tuning'; 'full training (all weights)' for (continual) pre-training."""
    if method is None:
        return UNKNOWN
    if method == "full" and workload in PRETRAINING_WORKLOADS:
        return FULL_TRAINING_TEXT
    return METHOD_TEXT.get(method, str(method))


def count(x: float | None) -> str:
    """A count with three significant figures and a suffix from a million: 1e10 -> '10B',
    1.5e8 -> '150M', 70.6e9 -> '70.6B', 2048 -> '2,048', 0.5 -> '0.5'."""
    if x is None or not _is_num(x):
        return UNKNOWN
    v = float(x)
    if abs(v) >= SUFFIX_LIMIT:
        return scientific(v)
    for div, suffix in _SUFFIXES:
        if abs(v) >= div:
            return f"{v / div:.3g}{suffix}"
    return f"{round(v):,}" if v == round(v) else f"{v:,.3g}"


def scientific(v: float) -> str:
    """4 significant figures as a power of ten a reader can take in: 7.055e10 -> '7.055 × 10¹⁰'."""
    mantissa, _, exponent = f"{v:.4g}".partition("e")
    if not exponent:  # .4g keeps fixed notation down to 1e-4: 0.00015 stays '0.00015'
        return mantissa
    return f"{mantissa} × 10{str(int(exponent)).translate(_SUPERSCRIPT)}"


def sig2(x: float) -> str:
    """Two significant figures in plain notation, as a person writes a rough figure: 0.74 -> '0.74',
    8.66 -> '8.7', 154.3 -> '150', 1234 -> '1,200' (Python's .2g writes 154.3 as '1.5e+02')."""
    r = float(f"{float(x):.2g}")
    return f"{round(r):,}" if abs(r) >= 100 else f"{r:g}"


def sig2_span(r: Any) -> str:
    """A range's ends with two significant figures each: Range(0.74, 8.66) -> '0.74-8.7'."""
    return f"{sig2(r.low)}-{sig2(r.high)}"


def number(x: Any) -> str:
    """Any trace value: numbers to 4 significant figures (large ones as a power of ten), text as is."""
    if x is None:
        return UNKNOWN
    if isinstance(x, bool):
        return "yes" if x else "no"
    if _is_num(x):
        v = float(x)
        if v != 0 and (abs(v) >= 1e6 or abs(v) < 1e-3):
            return scientific(v)
        if v == round(v):
            return f"{round(v):,}"
        return f"{v:,.4g}" if abs(v) < 1000 else f"{v:,.1f}"
    return str(x)


def months(x: float | None) -> str:
    """A span in months as a person says it: 5 -> '5 months', 2.301 -> '2.3 months', 1 -> '1 month'."""
    if x is None:
        return UNKNOWN
    v = round(float(x), 1)
    text = f"{v:,.0f}" if v == round(v) else f"{v:,.1f}"
    return f"{text} month{'' if v == 1 else 's'}"


def term(x: float | None) -> str:
    """A commitment's length as sold: 12 -> '1 year', 36 -> '3 years', 6 -> '6 months'."""
    if x is None:
        return UNKNOWN
    if float(x) >= 12 and float(x) % 12 == 0:
        years = int(float(x) // 12)
        return f"{years} year{'s' if years > 1 else ''}"
    return months(x)


def fixed(x: float | None, digits: int = 1, unknown: str = "-") -> str:
    """A table cell with a fixed number of decimals: 80.0 -> '80.0', 3350 -> '3,350' (digits=0)."""
    if x is None:
        return unknown
    return f"{x:,.{digits}f}"


def usd(x: float | None) -> str:
    """Dollars: '$0.09', '$2.80', '$45', '$1,064', '$1.26M', '$4.5B', '$100T', '$1 × 10²⁰'."""
    if x is None or not _is_num(x):
        return UNKNOWN
    v = float(x)
    sign = "-" if v < 0 else ""
    v = abs(v)
    if v >= SUFFIX_LIMIT:
        return f"{sign}${scientific(v)}"
    if v >= 1_000_000:
        div, suffix = next((d, s) for d, s in _SUFFIXES if v >= d)
        return f"{sign}${v / div:,.3g}{suffix}"
    if v >= 10:
        return f"{sign}${round(v):,}"
    if v == 0:
        return "$0"
    return f"{sign}${v:,.2f}"


def usd_range(r: Any) -> str:
    """A low-high money range (a tools.ranges.Range); one value when both ends round to the same text."""
    if r is None:
        return UNKNOWN
    lo, hi = usd(r.low), usd(r.high)
    return lo if lo == hi else f"{lo} {EN_DASH} {hi}"


def usd_span(r: Any, unit: str = "") -> str:
    """A money range in a sentence's parentheses: '$4,526-4,870/month', '$2.85-3.10'; one figure when both
    ends print the same ('$4,526/month', never '$4,526-4,526/month': expert review 15, R18). The one
    compact form of tools.recommend's 'also offered by', 'renting instead' and relaxation notes."""
    if r is None:
        return UNKNOWN
    lo, hi = usd(r.low), usd(r.high)
    return f"{lo}{unit}" if lo == hi else f"{lo}-{hi.lstrip('$')}{unit}"


def usd_rate(x: float | None, per: str = "GPU-h") -> str:
    """A price per unit: '$2.80/GPU-h', '$0.09/GB'."""
    if x is None or not _is_num(x):
        return UNKNOWN
    v = float(x)
    body = f"${v:,.3f}".rstrip("0") if v < 0.1 else f"${v:,.2f}"
    if body.endswith("."):
        body += "00"
    return f"{body}/{per}"


def hours(x: float | None) -> str:
    """Hours: '7.5 h', '354 h', '12,480 h'; '1 × 10¹² h' from HOURS_LIMIT."""
    if x is None or not _is_num(x):
        return UNKNOWN
    v = float(x)
    if abs(v) >= HOURS_LIMIT:
        return f"{scientific(v)} h"
    if v < 10:
        return f"{v:.1f} h"
    return f"{round(v):,} h"


def days(hours_value: float | None) -> str:
    """Hours as days: '14.8 days'."""
    if hours_value is None or not _is_num(hours_value):
        return UNKNOWN
    d = float(hours_value) / 24.0
    return f"{d:.1f} days" if d < 100 else f"{round(d):,} days"


def hours_with_days(x: float | None) -> str:
    """One duration: '36 h', '72 h (3.0 days)' (days from 48 h)."""
    if x is None or not _is_num(x):
        return UNKNOWN
    return f"{hours(x)} ({days(x)})" if float(x) >= DAYS_SHOWN_FROM_HOURS else hours(x)


def deadline(hours_left: float | None, now: dt.datetime | None = None) -> str:
    """A deadline `hours_left` hours after `now` (default: the current local time): its day and the hours
    left, 'Fri 4 Dec, 190 h from now' (the year added when it is not this year's). A deadline 'by Friday'
    is the end of that day (midnight after it), so the day shown is the one the last minute falls on."""
    if hours_left is None or not _is_num(hours_left):
        return UNKNOWN
    v = float(hours_left)
    if v >= HOURS_LIMIT or v <= 0:
        return f"{hours(v)} from now"
    start = now if now is not None else dt.datetime.now().astimezone()
    last_minute = start + dt.timedelta(hours=v) - dt.timedelta(minutes=1)
    day = f"{last_minute:%a} {last_minute.day} {last_minute:%b}"
    if last_minute.year != start.year:
        day += f" {last_minute.year}"
    return f"{day}, {hours(v)} from now"


def days_range(r: Any) -> str:
    """'14.8 – 32.8 days'."""
    if r is None:
        return UNKNOWN
    lo, hi = days(r.low), days(r.high)
    return lo if lo == hi else f"{lo.removesuffix(' days')} {EN_DASH} {hi}"


def hours_range(r: Any, with_days: bool = True) -> str:
    """A wall-clock range: '354 – 590 h (14.8 – 24.6 days)' (days only when the high end reaches 48 h);
    under an hour in minutes ('9 – 14 min', '40 s – 1 min'), under a minute in seconds ('20 – 45 s'):
    '0.0 – 0.0 h' reads as nothing or as a rounding error."""
    if r is None:
        return UNKNOWN
    if _is_num(r.low) and _is_num(r.high) and 0 <= float(r.high) < 1:
        return _short_range(float(r.low), float(r.high))
    text = _span_of(hours(r.low), hours(r.high), " h")
    if with_days and _is_num(r.high) and float(r.high) >= DAYS_SHOWN_FROM_HOURS:
        text += f" ({days_range(r)})"
    return text


def _span_of(lo: str, hi: str, unit: str) -> str:
    """'a – b unit' from two figures written with `unit`, or one figure when both print the same."""
    return lo if lo == hi else f"{lo.removesuffix(unit)} {EN_DASH} {hi}"


def _short_range(low_hours: float, high_hours: float) -> str:
    """A sub-hour range in minutes, or seconds where a minute would round to nothing."""
    lo_s, hi_s = max(low_hours, 0.0) * 3600, high_hours * 3600
    if hi_s == 0:
        return "0 s"
    if round(hi_s) < 60:
        return _span_of(f"{max(round(lo_s), 1)} s", f"{max(round(hi_s), 1)} s", " s")
    hi = f"{round(hi_s / 60)} min"
    if round(lo_s) < 60:
        return f"{max(round(lo_s), 1)} s {EN_DASH} {hi}"
    return _span_of(f"{round(lo_s / 60)} min", hi, " min")


def gpu_hours_range(r: Any) -> str:
    """'658 – 2,210 GPU-h'."""
    if r is None:
        return UNKNOWN
    return _span_of(hours(r.low), hours(r.high), " h").removesuffix(" h") + " GPU-h"


def tokens_per_s_range(r: Any) -> str:
    """'1,860 – 2,870 tokens/s' (three significant figures, thousands separators)."""
    if r is None:
        return UNKNOWN

    def one(v: float) -> str:
        return f"{float(f'{v:.3g}'):,.0f}" if v >= 100 else f"{v:#.3g}".rstrip(".")

    lo, hi = one(r.low), one(r.high)
    return f"{lo} tokens/s" if lo == hi else f"{lo} {EN_DASH} {hi} tokens/s"


def gib(x: float | None) -> str:
    """Memory in GiB with one decimal: '47.3 GiB'."""
    if x is None or not _is_num(x):
        return UNKNOWN
    return f"{float(x):,.1f} GiB"


PEAK_PHASE_TEXT = {
    "forward": "peak at the end of the forward pass",
    "loss": "peak at the loss backward",
    "backward": "peak in the backward pass",
    "optimizer": "peak at the optimizer step",
    "serving": "serving peak (weights + KV cache)",
}
MEMORY_BASIS_TEXT = {"reserved": "reserved, as nvidia-smi shows", "allocated": "tensors only"}


def memory_peak_note(phase: str | None, basis: str | None) -> str:
    """Where a memory peak falls and on which basis: 'peak at the optimizer step; reserved, as
    nvidia-smi shows'; '' when neither is known."""
    parts = []
    if phase:
        parts.append(PEAK_PHASE_TEXT.get(phase, f"peak at the {phase} phase"))
    if basis:
        parts.append(MEMORY_BASIS_TEXT.get(basis, basis))
    return "; ".join(parts)


def gb(x: float | None) -> str:
    """Data volume in GB (1e9): '500 GB', '1.2 TB' from 1,000 GB."""
    if x is None or not _is_num(x):
        return UNKNOWN
    v = float(x)
    if v >= 1000:
        return f"{v / 1000:,.3g} TB"
    return f"{v:,.3g} GB" if v < 100 else f"{round(v):,} GB"


def pct(x: float | None, digits: int = 0) -> str:
    """A fraction as a percentage: 0.3 -> '30%'."""
    if x is None or not _is_num(x):
        return UNKNOWN
    return f"{float(x) * 100:.{digits}f}%"


def use(x: float | None) -> str:
    """A utilisation: '30%', '3%', and under 1% with a decimal, '0.6%' (a twice-yearly job's use would
    print as '0%')."""
    if x is None or not _is_num(x):
        return UNKNOWN
    return pct(x, 1 if float(x) < 0.01 else 0)


def availability(x: float | None) -> str:
    """An uptime fraction as a percentage with its nines kept: 0.999 -> '99.9%', 0.9995 -> '99.95%'."""
    if x is None or not _is_num(x):
        return UNKNOWN
    return f"{float(x) * 100:.3f}".rstrip("0").rstrip(".") + "%"


FRAMEWORK_TEXT = {
    "hf": "Transformers Trainer / TRL / PEFT",
    "deepspeed": "DeepSpeed",
    "axolotl": "Axolotl",
    "llama-factory": "LLaMA-Factory",
    "unsloth": "Unsloth",
    "torchtune": "torchtune",
    "torchtitan": "torchtitan",
    "megatron": "Megatron-LM",
    "nemo": "NeMo",
}
"""Training frameworks (tools.vocabulary.Framework) as a reader knows them."""
GENERIC_FRAMEWORK_TEXT = "generic band"
"""What an unknown framework is timed with: the efficiency band of no framework in particular."""


def framework_text(framework: str | None) -> str:
    """'hf, Transformers Trainer / TRL / PEFT'; 'Axolotl', 'Megatron-LM' (the name says it); None: the
    generic band."""
    if framework is None:
        return GENERIC_FRAMEWORK_TEXT
    words = FRAMEWORK_TEXT.get(framework)
    if words is None:
        return framework
    return words if words.lower().startswith(framework) else f"{framework}, {words}"


TIME_BASIS_HINTS = 2
"""The time basis line names at most two ways to narrow the range: the input that moves it most (first
of tools.compute.training's ordered hints) and the measurement that replaces the estimate (the last); a
line of four read as homework (expert review, 2026-11-25). The JSON keeps them all."""


def time_basis(framework: str | None, status: str | None, narrowing: Sequence[str]) -> str:
    """The framework a time range assumes and what would narrow it, one sentence for the report, chat
    and Slack: 'Time assumes hf, Transformers Trainer / TRL / PEFT (assumed: say which framework you
    use). To narrow it: give the micro-batch size per GPU.'"""
    said = " (assumed: say which framework you use)" if status == "assumed" else ""
    named = PRETRAINING_STACK_TEXT if framework is None and status == "assumed" else framework_text(framework)
    text = f"Time assumes {named}{said}."
    shown = [*narrowing[:-1][: TIME_BASIS_HINTS - 1], *narrowing[-1:]]
    if shown:
        text += " To narrow it: " + "; ".join(shown) + "."
    return text


QUOTE_MAX_CHARS = 80
"""A user's clause quoted back ('I did not use: ...') is cut to about this many characters."""


def quote(text: str, limit: int = QUOTE_MAX_CHARS) -> str:
    """A user's words quoted back: one line, cut at a word boundary near `limit` characters, in single
    quotes ("'no spot instances'")."""
    one = " ".join(text.split())
    if len(one) > limit:
        cut = one[:limit].rsplit(" ", 1)[0] if " " in one[:limit] else one[:limit]
        one = cut.rstrip(" ,;:") + " …"
    return f"'{one}'"


def _sig3(v: float) -> str:
    """Three significant figures with thousands separators: 9.442 -> '9.44', 1,234.5 -> '1,230'."""
    return f"{float(f'{v:.3g}'):,.0f}" if v >= 100 else f"{v:#.3g}".rstrip(".")


def ms_range(r: Any) -> str:
    """Milliseconds (a Range in ms): '9.44 – 11 ms'."""
    if r is None:
        return UNKNOWN
    lo, hi = _sig3(r.low), _sig3(r.high)
    return f"{lo} ms" if lo == hi else f"{lo} {EN_DASH} {hi} ms"


def seconds_range(r: Any) -> str:
    """A short duration (a Range in seconds): in ms under a second ('36 – 45 ms'), else '1.2 – 3.4 s'."""
    if r is None:
        return UNKNOWN
    if r.high < 1.0:
        return ms_range(type(r)(low=r.low * 1000, high=r.high * 1000))
    hi = f"{_sig3(r.high)} s"
    if r.low < 1.0:  # '33 ms – 1.32 s', not '0.0329 – 1.32 s'
        return f"{ms_range(type(r)(low=r.low * 1000, high=r.low * 1000))} {EN_DASH} {hi}"
    lo = _sig3(r.low)
    return hi if f"{lo} s" == hi else f"{lo} {EN_DASH} {hi}"
