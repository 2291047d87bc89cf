"""Unit conversions: the only place where bytes, GiB, GB, TFLOPS and hours are converted.

Memory is reported in GiB (2**30 bytes). Data volumes and prices per GB use GB (10**9 bytes).
"""

from __future__ import annotations

BYTES_PER_GIB = 2**30
BYTES_PER_GB = 10**9
BYTES_PER_MIB = 2**20
FLOPS_PER_TFLOPS = 10**12
SECONDS_PER_HOUR = 3600.0
MINUTES_PER_HOUR = 60.0
HOURS_PER_DAY = 24.0
HOURS_PER_MONTH = 730.0  # 8760 h / 12, the convention cloud price sheets use
MONTHS_PER_YEAR = 12.0
GB_PER_TB = 1000.0
WATTS_PER_KW = 1000.0
MS_PER_S = 1000.0


def bytes_to_gib(n_bytes: float) -> float:
    """Bytes -> GiB (2**30)."""
    return n_bytes / BYTES_PER_GIB


def gib_to_bytes(gib: float) -> float:
    """GiB (2**30) -> bytes."""
    return gib * BYTES_PER_GIB


def bytes_to_gb(n_bytes: float) -> float:
    """Bytes -> GB (10**9)."""
    return n_bytes / BYTES_PER_GB


def gb_to_bytes(gb: float) -> float:
    """GB (10**9) -> bytes."""
    return gb * BYTES_PER_GB


def gb_to_gib(gb: float) -> float:
    """GB (10**9 bytes) -> GiB (2**30 bytes)."""
    return gb * BYTES_PER_GB / BYTES_PER_GIB


def gib_to_gb(gib: float) -> float:
    """GiB (2**30 bytes) -> GB (10**9 bytes)."""
    return gib * BYTES_PER_GIB / BYTES_PER_GB


def mib_to_gib(mib: float) -> float:
    """MiB (2**20 bytes) -> GiB (2**30 bytes)."""
    return mib * BYTES_PER_MIB / BYTES_PER_GIB


def tflops_to_flops(tflops: float) -> float:
    """TFLOPS (10**12 FLOP/s) -> FLOP/s."""
    return tflops * FLOPS_PER_TFLOPS


def seconds_to_hours(seconds: float) -> float:
    """Seconds -> hours."""
    return seconds / SECONDS_PER_HOUR


def tb_to_bytes(tb: float) -> float:
    """TB (10**12 bytes) -> bytes (memory bandwidth in TB/s -> bytes/s)."""
    return tb * 10**12


def hours_to_days(hours: float) -> float:
    """Hours -> days (24 h)."""
    return hours / HOURS_PER_DAY


def days_to_hours(days: float) -> float:
    """Days -> hours (24 h)."""
    return days * HOURS_PER_DAY


def months_to_hours(months: float) -> float:
    """Months -> hours at 730 h per month."""
    return months * HOURS_PER_MONTH


def watts_to_kw(watts: float) -> float:
    """W -> kW."""
    return watts / WATTS_PER_KW


def months_left_of_term(term_months: float, elapsed_months: float) -> float:
    """Months left on a fixed term ("7 months into a 12-month commitment" -> 5); never below zero."""
    return max(0.0, term_months - elapsed_months)


def ms_to_seconds(ms: float) -> float:
    """Milliseconds -> seconds."""
    return ms / MS_PER_S


def seconds_to_ms(seconds: float) -> float:
    """Seconds -> milliseconds."""
    return seconds * MS_PER_S


def ms_per_token_to_tokens_per_s(ms_per_token: float) -> float:
    """A stream's latency in ms per output token -> its tokens/s (1000 ms / ms per token)."""
    return MS_PER_S / ms_per_token


def tokens_per_s_to_ms_per_token(tokens_per_s: float) -> float:
    """A stream's tokens/s -> ms per output token (1000 ms / tokens per s)."""
    return MS_PER_S / tokens_per_s
