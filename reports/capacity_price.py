"""The same-capacity price block in words (expert review 19, R19): each provider's monthly figure for the
capacity the team rents now, on demand and on the reserved term asked, against what it says it pays.
Formatted strings only; the figures are tools.capacity_price.CapacityPrices'."""

from __future__ import annotations

from tools import present
from tools.capacity_price import CapacityLine, CapacityPrices


def _pricing(ln: CapacityLine) -> str:
    if ln.pricing != "reserved":
        return "on demand"
    term = f"reserved {present.term(ln.term_months)}" if ln.term_months else "reserved"
    if ln.estimate and ln.discount_fraction is not None:
        return f"{term} (est. {present.pct(ln.discount_fraction)} off on-demand)"
    return term


def _against(ln: CapacityLine, stated: float | None) -> str:
    """' (saves $16,802 a month)', ' (costs $1,200 a month more)', ' (your bill)' for the line paid now."""
    if stated is None or ln.vs_stated_usd_per_month is None:
        return ""
    d = ln.vs_stated_usd_per_month
    if ln.current:
        return " (your bill)" if abs(d) < 0.5 else f" (you say you pay {present.usd(stated)})"
    if abs(d) < 0.5:
        return " (the same as now)"
    return f" (saves {present.usd(-d)} a month)" if d < 0 else f" (costs {present.usd(d)} a month more)"


def capacity_text(cp: CapacityPrices) -> str:
    """The block: a heading with the hours basis, one line per provider, the cheapest, the gaps."""
    stated = cp.stated_usd_per_month
    by_provider: dict[str, list[CapacityLine]] = {}
    for ln in cp.lines:
        by_provider.setdefault(ln.provider, []).append(ln)
    rows = []
    for provider, lines in by_provider.items():
        now = " (now)" if any(ln.current for ln in lines) else ""
        parts = [
            f"{_pricing(ln)} {present.usd(ln.usd_per_month)}/month{_against(ln, stated)}" for ln in lines
        ]
        rows.append(f"- {provider}{now}: " + "; ".join(parts))
    against = f", against the {present.usd(stated)} a month you pay now" if stated is not None else ""
    head = (
        f"The same capacity, {cp.n_gpus}x {cp.gpu_name}, a month{against}: on demand for {cp.hours_basis}; "
        "a reserved term bills all 730 h."
    )
    out = [head, *rows]
    others = [ln for ln in cp.lines if not ln.current]
    if others:
        best = min(others, key=lambda ln: ln.usd_per_month)
        saving = _against(best, stated)
        out.append(
            f"Cheapest: {best.provider} {_pricing(best)}, {present.usd(best.usd_per_month)}/month{saving}."
        )
    if cp.not_offered:
        out.append(f"No price in the catalog for {cp.n_gpus}x {cp.gpu_name} at: {', '.join(cp.not_offered)}.")
    return "\n".join(out)
