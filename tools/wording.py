"""Numbers inside the sentences tools/ writes (claims, checks, sensitivity labels), as a reader says them.

Only for text: results keep full precision. reports.format builds on these so that a count reads the
same in an engine sentence and in the report's tables.
"""

from __future__ import annotations

_SUFFIXES = ((1e12, "T"), (1e9, "B"), (1e6, "M"))


def count(value: float) -> str:
    """A count with three significant figures and a suffix from a million: 1e10 -> '10B',
    1.5e8 -> '150M', 70.6e9 -> '70.6B', 2048 -> '2,048', 0.5 -> '0.5'."""
    v = float(value)
    for div, suffix in _SUFFIXES:
        if abs(v) >= div:
            return f"{v / div:.3g}{suffix}"
    return f"{round(v):,}" if v == round(v) else f"{v:,.3g}"


_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def scientific(v: float) -> str:
    """4 significant figures as a power of ten a reader can take in: 7.055e10 -> '7.055 × 10¹⁰'."""
    mantissa, _, exponent = f"{v:.4g}".partition("e")
    if not exponent:  # .4g keeps fixed notation down to 1e-4: 0.00015 stays '0.00015'
        return mantissa
    return f"{mantissa} × 10{str(int(exponent)).translate(_SUPERSCRIPT)}"
