"""Presentation: the one place where a number, an amount of money, a duration or a method name is worded
for a reader, so a figure reads the same in the PDF, the web page, Slack, chat, the MCP tools and the
engine's own sentences (claims, checks, sensitivity labels).

Only for text: results keep full precision. Rules:
- money: whole dollars with thousands separators; cents below $10 (a $2.80/h price, a $0.09/GB rate);
  three significant figures with a suffix from $1M up ("$1.26M");
- hours: one decimal below 10 h, whole hours up to 10,000 h, days shown alongside from 48 h;
- memory: GiB with one decimal; counts: three significant figures with a suffix from a million ("70.6B");
- None (unknown) prints as an em dash, never as 0.
"""

from __future__ import annotations

import math
from typing import Any

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


def fixed(x: float | None, digits: int = 1, unknown: str = "-") -> str:
    """A table cell with a fixed number of decimals: 80.0 -> '80.0', 3350 -> '3,350' (digits=0)."""
    if x is None:
        return unknown
    return f"{x:,.{digits}f}"


def usd(x: float | None) -> str:
    """Dollars: '$0.09', '$2.80', '$45', '$1,064', '$1.26M'."""
    if x is None or not _is_num(x):
        return UNKNOWN
    v = float(x)
    sign = "-" if v < 0 else ""
    v = abs(v)
    if v >= 1_000_000:
        return f"{sign}${v / 1_000_000:,.3g}M" if v < 1e9 else f"{sign}${v / 1e9:,.3g}B"
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
    """Hours: '7.5 h', '354 h', '12,480 h'."""
    if x is None or not _is_num(x):
        return UNKNOWN
    v = float(x)
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


def days_range(r: Any) -> str:
    """'14.8 – 32.8 days'."""
    if r is None:
        return UNKNOWN
    lo, hi = days(r.low), days(r.high)
    return lo if lo == hi else f"{lo.removesuffix(' days')} {EN_DASH} {hi}"


def hours_range(r: Any, with_days: bool = True) -> str:
    """'354 – 590 h (14.8 – 24.6 days)'; days only when the high end reaches 48 h."""
    if r is None:
        return UNKNOWN
    lo, hi = hours(r.low), hours(r.high)
    text = lo if lo == hi else f"{lo.removesuffix(' h')} {EN_DASH} {hi}"
    if with_days and _is_num(r.high) and float(r.high) >= DAYS_SHOWN_FROM_HOURS:
        text += f" ({days_range(r)})"
    return text


def gpu_hours_range(r: Any) -> str:
    """'658 – 2,210 GPU-h'."""
    if r is None:
        return UNKNOWN
    text = hours_range(r, with_days=False)
    return text.removesuffix(" h") + " GPU-h"


def tokens_per_s_range(r: Any) -> str:
    """'1,860 – 2,870 tokens/s' (three significant figures, thousands separators)."""
    if r is None:
        return UNKNOWN

    def one(v: float) -> str:
        return f"{float(f'{v:.3g}'):,.0f}" if v >= 100 else f"{v:.3g}"

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
