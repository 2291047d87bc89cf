"""The buy-versus-rent section (issue 16): a table of each rent basis with its monthly cost and the
month buying breaks even, a one-line summary for the first page, and a cumulative-cost line chart.
Formatted strings and SVG only; the figures are the Recommendation's buy_vs_rent timeline."""

from __future__ import annotations

from html import escape
from typing import Any

from reports import charts
from tools import present
from tools.cost_buy import BuyRentTimeline, RentLine
from tools.recommend.models import Recommendation

_LINE_COLOURS = (charts.SKY_BLUE, charts.ORANGE, charts.GREEN, charts.PURPLE, charts.VERMILLION)
_DASHES = ("", "6,3", "2,2", "8,3,2,3", "4,4")


def _month(x: float | None, horizon: int) -> str:
    if x is None:
        return "never (owning costs more per month)"
    text = f"month {x:,.0f}"
    return text if x <= horizon else f"{text} (after the {horizon}-month horizon)"


def _own_summary(t: BuyRentTimeline) -> str:
    """First-page line for GPUs the team owns: their running cost against renting the same GPUs."""
    parts = [f"{ln.basis.name} {present.usd(ln.usd_per_month)}" for ln in t.rents]
    cheapest_rent = min(t.rents, key=lambda ln: ln.total_usd)
    diff = cheapest_rent.total_usd - t.buy_cumulative_usd[-1]
    verdict = (
        f"your hardware saves {present.usd(diff)} against the cheapest rental ({cheapest_rent.basis.name})"
        if diff >= 0
        else f"renting ({cheapest_rent.basis.name}) would save {present.usd(-diff)}"
    )
    return (
        f"Your hardware vs rent ({_gpus(t)}, {t.utilization:.0%} use, {t.horizon_months} months): "
        f"running the GPUs you own costs {present.usd(t.running_usd_per_month)}/month (power x PUE, staff; "
        f"the purchase is already spent); renting the same GPUs a month: {'; '.join(parts)}. Over the "
        f"horizon {verdict}.{_past_horizon(t)} Nothing to buy: your GPUs run the job."
    )


def _gpus(t: BuyRentTimeline) -> str:
    """'8x NVIDIA L40S', or '8 GPUs' when the timeline does not name the GPU."""
    return f"{t.n_gpus}x {t.gpu_name}" if t.gpu_name else f"{t.n_gpus} GPUs"


def _price_detail(t: BuyRentTimeline) -> str:
    """' ($7,000 per GPU; 1 server of 8 at $83,200; lead time 8 weeks)' from the purchase quote."""
    q = t.quote
    if q is None:
        return ""
    servers = f"{q.servers} server{'s' if q.servers > 1 else ''} of {q.gpus_per_server}"
    lead = (
        f"lead time {q.lead_time_weeks:g} weeks" if q.lead_time_weeks is not None else "lead time not known"
    )
    return f" ({present.usd(q.usd_per_gpu)} per GPU; {servers} at {present.usd(q.usd_per_server)}; {lead})"


def summary_line(t: BuyRentTimeline) -> str:
    """First-page line: what buying costs and when it breaks even against on-demand and reserved; for
    GPUs the team owns, their running cost against renting them."""
    if t.owned:
        return _own_summary(t)
    parts = [
        f"{ln.basis.name.split(' (')[0]} at {_month(ln.break_even_month, t.horizon_months)}" for ln in t.rents
    ]
    best = "buying" if t.cheapest == "buy" else t.cheapest
    instead = (
        f" These GPUs are not offered for rent: renting is {t.rented_instead} doing the same work."
        if t.rented_instead
        else ""
    )
    if t.kept_rental:
        instead += f" Renting is keeping what you rent now, {t.kept_rental}, which runs the same work."
    return (
        f"Buy vs rent ({_gpus(t)}, {present.use(t.utilization)} use, {t.horizon_months} months): purchase "
        f"{present.usd(t.purchase_usd)}{_price_detail(t)} + {present.usd(t.running_usd_per_month)}/month "
        f"to run; buying breaks even against {'; '.join(parts)}. Cheapest over the horizon: {best}."
        f"{_totals(t)}{_past_horizon(t)}{instead}"
    )


def _totals(t: BuyRentTimeline) -> str:
    """' Over 36 months: buying $194,808; on-demand $419,345.' (tools.cost_buy's cumulative figures at the
    horizon): which wins and by how much, said in money (expert review 13, R02)."""
    if not t.buy_cumulative_usd:
        return ""
    od = next((ln for ln in t.rents if ln.basis.name.startswith("on-demand")), None)
    rent = f"; renting on demand {_at_horizon(od)}" if od is not None else ""
    return f" Over {t.horizon_months} months: buying {present.usd(t.buy_cumulative_usd[-1])}{rent}."


def _at_horizon(ln: RentLine) -> str:
    """'$52,560', or '$157,680 (36-month term billed)' when the term outlasts the horizon."""
    if ln.committed_usd is None or ln.basis.term_months is None:
        return present.usd(ln.cumulative_usd[-1])
    return f"{present.usd(ln.committed_usd)} ({ln.basis.term_months:.0f}-month term billed)"


def _past_horizon(t: BuyRentTimeline) -> str:
    """' A 3-year term outlasts the 12-month horizon: all 36 months are billed.' or ''."""
    long = [ln for ln in t.rents if ln.committed_usd is not None and ln.basis.term_months is not None]
    if not long:
        return ""
    terms = sorted({ln.basis.term_months for ln in long if ln.basis.term_months is not None})
    said = " and ".join(f"{m:.0f}" for m in terms)
    return (
        f" A reserved term longer than the {t.horizon_months}-month horizon bills all its months ({said}), "
        "so it is compared at its full term."
    )


def _buy_name(t: BuyRentTimeline) -> str:
    return "your hardware (running)" if t.owned else "buy"


def _saving(t: BuyRentTimeline, per_month: float) -> str:
    """Owned GPUs: what renting costs more (or saves) a month than running them."""
    d = per_month - t.running_usd_per_month
    return (
        f"renting costs {present.usd(d)}/month more" if d >= 0 else f"renting saves {present.usd(-d)}/month"
    )


def _legend(name: str) -> str:
    """'reserved 1 year (est. 35% off on-demand)' -> 'reserved 1y (est. 35% off)': fits the legend."""
    short = name.replace(" off on-demand)", " off)")
    return short.replace("reserved 1 year", "reserved 1y").replace("reserved 3 years", "reserved 3y")


def _chart(t: BuyRentTimeline) -> str:
    width, height, left, bottom, top, right = 680.0, 270.0, 78.0, 36.0, 12.0, 190.0
    plot_w, plot_h = width - left - right, height - top - bottom
    series = [(_buy_name(t), t.buy_cumulative_usd, charts.BLUE, "")] + [
        (ln.basis.name, ln.cumulative_usd, _LINE_COLOURS[i % 5], _DASHES[(i + 1) % 5])
        for i, ln in enumerate(t.rents)
    ]
    # A reserved term that outlasts the horizon bills every month of it (tools.cost_buy): its line ends
    # with a rise at the horizon to the committed total, so the chart agrees with the table (expert review 9).
    committed = [ln.committed_usd for ln in t.rents if ln.committed_usd is not None]
    vmax = max([max(v) for _, v, _, _ in series] + committed)
    ticks = charts.nice_ticks(vmax * 1.02)
    ys = plot_h / ticks[-1] if ticks[-1] else 1.0
    xs = plot_w / max(t.horizon_months, 1)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:g} {height:g}" width="{width:g}" '
        f'height="{height:g}" font-family="{charts.FONT}" font-size="10" role="img" '
        'aria-label="Cumulative cost, buy vs rent">'
    ]
    for tv in ticks:
        y = top + plot_h - tv * ys
        out.append(f'<line x1="{left}" y1="{y:.1f}" x2="{left + plot_w}" y2="{y:.1f}" stroke="#D9D9D9"/>')
        out.append(
            f'<text x="{left - 4}" y="{y + 3:.1f}" text-anchor="end" font-size="9">{present.usd(tv)}</text>'
        )
    for m in range(0, t.horizon_months + 1, max(1, t.horizon_months // 6)):
        x = left + m * xs
        out.append(
            f'<text x="{x:.1f}" y="{top + plot_h + 14:.1f}" text-anchor="middle" font-size="9">{m}</text>'
        )
    out.append(f'<text x="{left + plot_w / 2:.1f}" y="{height - 4:.1f}" text-anchor="middle">months</text>')
    mid_y = top + plot_h / 2
    out.append(
        f'<text x="12" y="{mid_y:.1f}" text-anchor="middle" transform="rotate(-90 12 {mid_y:.1f})">'
        "cumulative cost, USD</text>"
    )
    for i, (name, values, colour, dash) in enumerate(series):
        pts = " ".join(f"{left + m * xs:.1f},{top + plot_h - v * ys:.1f}" for m, v in enumerate(values))
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        weight = 2.4 if i == 0 else 1.6
        out.append(
            f'<polyline points="{pts}" fill="none" stroke="{colour}" stroke-width="{weight}"{dash_attr}/>'
        )
        ly = top + 10 + i * 16
        out.append(
            f'<line x1="{left + plot_w + 10}" y1="{ly}" x2="{left + plot_w + 34}" y2="{ly}" '
            f'stroke="{colour}" stroke-width="{weight}"{dash_attr}/>'
        )
        label = charts.clip_text(_legend(name), right - 44, 9)
        out.append(f'<text x="{left + plot_w + 38}" y="{ly + 3}" font-size="9">{escape(label)}</text>')
    for i, ln in enumerate(t.rents):
        if ln.committed_usd is None:
            continue
        x = left + t.horizon_months * xs
        y0 = top + plot_h - ln.cumulative_usd[-1] * ys
        y1 = top + plot_h - ln.committed_usd * ys
        colour = _LINE_COLOURS[i % 5]
        out.append(
            f'<line x1="{x:.1f}" y1="{y0:.1f}" x2="{x:.1f}" y2="{y1:.1f}" stroke="{colour}" '
            'stroke-width="1.6" stroke-dasharray="1 2" class="term-billed"/>'
        )
        out.append(f'<line x1="{x - 4:.1f}" y1="{y1:.1f}" x2="{x + 4:.1f}" y2="{y1:.1f}" stroke="{colour}"/>')
        out.append(
            f'<text x="{x - 6:.1f}" y="{y1 + 3:.1f}" text-anchor="end" font-size="8.5">'
            f"{ln.basis.term_months or 0:.0f}-month term billed</text>"
        )
    if not t.owned:  # break-even markers: where buying's line crosses each rent line within the horizon
        for i, ln in enumerate(t.rents):
            be = ln.break_even_month
            if be is None or be > t.horizon_months:
                continue
            x = left + be * xs
            y = top + plot_h - (t.purchase_usd + t.running_usd_per_month * be) * ys
            colour = _LINE_COLOURS[i % 5]
            dot = f'r="3.5" fill="{colour}" stroke="#000" stroke-width="0.6"'
            out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" {dot}/>')
            out.append(
                f'<text x="{x:.1f}" y="{y - 7 - 9 * (i % 2):.1f}" text-anchor="middle" font-size="8.5">'
                f"m{be:.0f}</text>"
            )
        ly = top + 10 + len(series) * 16
        ring = 'r="3.5" fill="#FFF" stroke="#000" stroke-width="0.6"'
        out.append(f'<circle cx="{left + plot_w + 22}" cy="{ly}" {ring}/>')
        out.append(f'<text x="{left + plot_w + 38}" y="{ly + 3}" font-size="9">break-even month (mN)</text>')
    out.append("</svg>")
    return "".join(out)


def buy_rent_section(rec: Recommendation) -> dict[str, Any] | None:
    """The section's context (rows, summary, chart) or None when buy vs rent was not weighed."""
    t = rec.buy_vs_rent
    if t is None:
        return None
    rows = [
        {
            "basis": ln.basis.name,
            "rate": present.usd_rate(ln.basis.usd_per_gpu_hour),
            "billed": "every hour (commitment)"
            if ln.basis.commitment
            else f"busy hours ({t.utilization:.0%})",
            "per_month": present.usd(ln.usd_per_month),
            "at_horizon": _at_horizon(ln),
            "break_even": _saving(t, ln.usd_per_month)
            if t.owned
            else _month(ln.break_even_month, t.horizon_months),
            "source": ln.basis.source,
        }
        for ln in t.rents
    ]
    return {
        "summary": summary_line(t),
        "owned": t.owned,
        "heading": "Your hardware versus renting" if t.owned else "Buy versus rent",
        "break_even_header": "Against your hardware" if t.owned else "Buying breaks even",
        "buy": {
            "purchase": present.usd(t.purchase_usd),
            "per_month": present.usd(t.running_usd_per_month),
            "at_horizon": present.usd(t.buy_cumulative_usd[-1]),
        },
        "rows": rows,
        "chart": _chart(t),
    }
