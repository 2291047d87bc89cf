"""SVG charts for the report, written as plain strings (no plotting library).

Readable in greyscale and by colour-blind readers: the Okabe-Ito palette (Okabe & Ito, "Color Universal
Design", 2008), segments ordered so that neighbours differ in lightness, a hatch or dot pattern on every
other segment, and direct labels (values printed on or beside the bars, a legend with swatches).
All text is escaped; sizes are in SVG user units and the chart scales to the page width.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from html import escape

# Okabe-Ito palette
BLACK = "#000000"
ORANGE = "#E69F00"
SKY_BLUE = "#56B4E9"
GREEN = "#009E73"
YELLOW = "#F0E442"
BLUE = "#0072B2"
VERMILLION = "#D55E00"
PURPLE = "#CC79A7"
GREY = "#8C8C8C"
LIGHT_GREY = "#D9D9D9"

FONT = "DejaVu Sans, sans-serif"
DARK_FILLS = frozenset({BLUE, VERMILLION, GREEN, BLACK})

# Memory components in stacking order: colour and a pattern id (None = plain). Neighbours alternate
# between dark and light fills so the boundaries stay visible in greyscale.
MEMORY_COMPONENTS: tuple[tuple[str, str, str, str | None], ...] = (
    ("weights", "Weights", BLUE, None),
    ("gradients", "Gradients", YELLOW, "hatch"),
    ("optimizer", "Optimizer state", VERMILLION, None),
    ("activations", "Activations", SKY_BLUE, "dots"),
    ("kv_cache", "KV cache", GREEN, "cross"),
    ("adapters", "Adapters", ORANGE, "hatch-rev"),
    ("overhead", "Runtime overhead", PURPLE, "vert"),
)

_PATTERNS = """<defs>
<pattern id="hatch" width="6" height="6" patternUnits="userSpaceOnUse">
<path d="M-1,1 l2,-2 M0,6 l6,-6 M5,7 l2,-2" stroke="#000" stroke-width="1" stroke-opacity="0.55"/></pattern>
<pattern id="hatch-rev" width="6" height="6" patternUnits="userSpaceOnUse">
<path d="M-1,5 l2,2 M0,0 l6,6 M5,-1 l2,2" stroke="#000" stroke-width="1" stroke-opacity="0.55"/></pattern>
<pattern id="cross" width="7" height="7" patternUnits="userSpaceOnUse">
<path d="M0,3.5 h7 M3.5,0 v7" stroke="#fff" stroke-width="1.1" stroke-opacity="0.8"/></pattern>
<pattern id="vert" width="4" height="4" patternUnits="userSpaceOnUse">
<path d="M2,0 v4" stroke="#000" stroke-width="1" stroke-opacity="0.5"/></pattern>
<pattern id="dots" width="5" height="5" patternUnits="userSpaceOnUse">
<circle cx="2.5" cy="2.5" r="1" fill="#000" fill-opacity="0.5"/></pattern>
</defs>"""


def _t(s: object) -> str:
    return escape(str(s), quote=True)


def _f(x: float) -> str:
    return f"{x:.1f}"


EM_PER_CHAR = 0.62
"""Average advance of DejaVu Sans per character, in em (capitals and digits run wider than 0.5)."""
EM_PER_CHAR_BOLD = 0.70


def text_width(s: str, font_size: float, bold: bool = False) -> float:
    """Approximate rendered width of DejaVu Sans text."""
    return len(s) * font_size * (EM_PER_CHAR_BOLD if bold else EM_PER_CHAR)


def clip_text(s: str, max_width: float, font_size: float, bold: bool = False) -> str:
    """Shorten with an ellipsis so the text fits max_width (labels must never run off the chart)."""
    limit = max(int(max_width / (font_size * (EM_PER_CHAR_BOLD if bold else EM_PER_CHAR))), 4)
    return s if len(s) <= limit else s[: limit - 1].rstrip() + "…"


def _label_width(labels: Sequence[tuple[str, str]], lo: float, hi: float) -> float:
    need = max((max(text_width(a, 10, bold=True), text_width(b, 8)) for a, b in labels), default=lo)
    return min(max(need + 10, lo), hi)


def nice_ticks(max_value: float, target: int = 5) -> list[float]:
    """Round tick values from 0 to at least max_value (1, 2, 2.5 or 5 times a power of ten)."""
    if max_value <= 0 or not math.isfinite(max_value):
        return [0.0, 1.0]
    raw = max_value / target
    mag = 10 ** math.floor(math.log10(raw))
    step = next(m * mag for m in (1, 2, 2.5, 5, 10) if m * mag >= raw)
    n = math.ceil(max_value / step - 1e-9)
    return [i * step for i in range(n + 1)]


@dataclass(frozen=True)
class MemoryBar:
    """One candidate's per-GPU memory: components in GiB against its usable capacity."""

    label: str
    segments_gib: dict[str, float]
    capacity_gib: float
    headroom_fraction: float = 0.10
    sublabel: str = ""
    highlight: bool = False
    judged_gib: float | None = None
    """What the fit is judged on (tensors + CUDA context, tools.recommend.memory_rule); None: the bar's total.
    The bar shows the allocator's reserve too, which is released before an out-of-memory error."""

    @property
    def total_gib(self) -> float:
        return sum(v for v in self.segments_gib.values() if v and v > 0)

    @property
    def limit_gib(self) -> float:
        return self.capacity_gib * (1 - self.headroom_fraction)


def memory_fit_svg(bars: Sequence[MemoryBar], value_fmt: Callable[[float], str]) -> str:
    """Horizontal stacked bars per candidate with its usable capacity and headroom limit marked."""
    if not bars:
        return ""
    width, right_w = 680.0, 118.0
    label_w = _label_width([(b.label, b.sublabel) for b in bars], 120.0, 210.0)
    bar_h, gap, top = 20.0, 16.0, 8.0
    plot_w = width - label_w - right_w
    vmax = max(max(b.total_gib, b.capacity_gib) for b in bars)
    ticks = nice_ticks(vmax * 1.02)
    scale = plot_w / ticks[-1]
    used = [c for c in MEMORY_COMPONENTS if any((b.segments_gib.get(c[0]) or 0) > 0 for b in bars)]
    legend_rows = math.ceil((len(used) + 2) / 4)
    plot_h = len(bars) * (bar_h + gap)
    height = top + plot_h + 30 + legend_rows * 18
    out: list[str] = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_f(width)} {_f(height)}" '
        f'width="{_f(width)}" height="{_f(height)}" font-family="{FONT}" font-size="10" role="img" '
        f'aria-label="Memory per GPU by component against usable capacity">',
        _PATTERNS,
    ]
    x0 = label_w
    for tv in ticks:  # grid
        x = x0 + tv * scale
        out.append(
            f'<line x1="{_f(x)}" y1="{_f(top - 4)}" x2="{_f(x)}" y2="{_f(top + plot_h)}" '
            f'stroke="{LIGHT_GREY}" stroke-width="0.6"/>'
        )
        out.append(
            f'<text x="{_f(x)}" y="{_f(top + plot_h + 11)}" text-anchor="middle" fill="#333">'
            f"{_t(f'{tv:g}')}</text>"
        )
    out.append(
        f'<text x="{_f(x0 + plot_w / 2)}" y="{_f(top + plot_h + 22)}" text-anchor="middle" '
        f'fill="#333">GiB per GPU</text>'
    )
    for i, b in enumerate(bars):
        y = top + i * (bar_h + gap)
        weight = "bold" if b.highlight else "normal"
        out.append(
            f'<text x="{_f(label_w - 6)}" y="{_f(y + 9)}" text-anchor="end" font-weight="{weight}">'
            f"{_t(clip_text(b.label, label_w - 10, 10))}</text>"
        )
        if b.sublabel:
            out.append(
                f'<text x="{_f(label_w - 6)}" y="{_f(y + 19)}" text-anchor="end" fill="#555" '
                f'font-size="8">{_t(clip_text(b.sublabel, label_w - 10, 8))}</text>'
            )
        x = x0
        for key, name, colour, pattern in MEMORY_COMPONENTS:
            v = b.segments_gib.get(key) or 0.0
            if v <= 0:
                continue
            w = min(v * scale, x0 + plot_w - x)
            out.append(
                f'<rect x="{_f(x)}" y="{_f(y)}" width="{_f(w)}" height="{_f(bar_h)}" fill="{colour}" '
                f'stroke="#fff" stroke-width="0.5"><title>{_t(name)}: {_t(value_fmt(v))}</title></rect>'
            )
            if pattern:
                out.append(
                    f'<rect x="{_f(x)}" y="{_f(y)}" width="{_f(w)}" height="{_f(bar_h)}" '
                    f'fill="url(#{pattern})"/>'
                )
            elif w >= 34:  # direct label on plain (unpatterned) segments wide enough to hold it
                ink = "#fff" if colour in DARK_FILLS else "#000"
                out.append(
                    f'<text x="{_f(x + w / 2)}" y="{_f(y + bar_h / 2 + 3.5)}" text-anchor="middle" '
                    f'fill="{ink}" font-size="9">{_t(f"{v:.1f}")}</text>'
                )
            x += w
        cap_x = x0 + b.capacity_gib * scale
        lim_x = x0 + b.limit_gib * scale
        out.append(
            f'<line x1="{_f(lim_x)}" y1="{_f(y - 3)}" x2="{_f(lim_x)}" y2="{_f(y + bar_h + 3)}" '
            f'stroke="#000" stroke-width="1" stroke-dasharray="2,2"/>'
        )
        out.append(
            f'<line x1="{_f(cap_x)}" y1="{_f(y - 4)}" x2="{_f(cap_x)}" y2="{_f(y + bar_h + 4)}" '
            f'stroke="#000" stroke-width="2"/>'
        )
        judged = b.total_gib if b.judged_gib is None else b.judged_gib
        fits = judged <= b.limit_gib
        verdict = "fits" if fits else ("tight" if judged <= b.capacity_gib else "does not fit")
        share = b.total_gib / b.capacity_gib if b.capacity_gib else 0
        out.append(
            f'<text x="{_f(width - right_w + 6)}" y="{_f(y + 9)}">'
            f"{_t(value_fmt(b.total_gib))} / {_t(value_fmt(b.capacity_gib))}</text>"
        )
        out.append(
            f'<text x="{_f(width - right_w + 6)}" y="{_f(y + 19)}" font-size="8" fill="#333" '
            f'font-weight="{"normal" if fits else "bold"}">{share * 100:.0f}% · {_t(verdict)}</text>'
        )
    # legend: swatches, then the two line keys, four to a row across the full width
    ly = top + plot_h + 36
    keys: list[tuple[str, str, str | None]] = [(name, colour, pattern) for _k, name, colour, pattern in used]
    keys += [("usable capacity", "line", None), ("headroom limit", "dash", None)]
    col_w = width / 4
    for j, (name, colour, pattern) in enumerate(keys):
        lx = 4 + (j % 4) * col_w
        yy = ly + (j // 4) * 18
        if colour == "line":
            out.append(
                f'<line x1="{_f(lx + 7)}" y1="{_f(yy - 11)}" x2="{_f(lx + 7)}" y2="{_f(yy + 3)}" '
                f'stroke="#000" stroke-width="2"/>'
            )
        elif colour == "dash":
            out.append(
                f'<line x1="{_f(lx + 7)}" y1="{_f(yy - 11)}" x2="{_f(lx + 7)}" y2="{_f(yy + 3)}" '
                f'stroke="#000" stroke-width="1" stroke-dasharray="2,2"/>'
            )
        else:
            out.append(
                f'<rect x="{_f(lx)}" y="{_f(yy - 9)}" width="14" height="11" fill="{colour}" '
                f'stroke="#333" stroke-width="0.4"/>'
            )
            if pattern:
                out.append(
                    f'<rect x="{_f(lx)}" y="{_f(yy - 9)}" width="14" height="11" fill="url(#{pattern})"/>'
                )
        out.append(f'<text x="{_f(lx + 18)}" y="{_f(yy)}">{_t(name)}</text>')
    out.append("</svg>")
    return "".join(out)


@dataclass(frozen=True)
class RangeBar:
    """One low-high interval (a cost or a duration) with its label."""

    label: str
    low: float
    high: float
    sublabel: str = ""
    highlight: bool = False
    tags: tuple[str, ...] = field(default=())


def range_chart_svg(
    rows: Sequence[RangeBar],
    value_fmt: Callable[[float], str],
    axis_label: str,
    tick_fmt: Callable[[float], str] | None = None,
    limit: float | None = None,
    limit_label: str = "",
    range_fmt: Callable[[float, float], str] | None = None,
) -> str:
    """Horizontal low-high bars on a shared axis from 0, with both ends labelled; an optional limit
    line (a budget, a deadline). The highlighted row (the primary pick) is dark and bold, the others
    light and hatched."""
    rows = [r for r in rows if math.isfinite(r.low) and math.isfinite(r.high)]
    if not rows:
        return ""
    width, right_w = 680.0, 130.0
    label_w = _label_width([(r.label, r.sublabel) for r in rows], 120.0, 240.0)
    bar_h, gap = 14.0, 14.0
    top = 24.0 if limit is not None else 12.0  # room above the bars for the limit's label
    plot_w = width - label_w - right_w
    vmax = max(r.high for r in rows)
    if limit is not None:
        vmax = max(vmax, limit)
    ticks = nice_ticks(vmax * 1.02)
    scale = plot_w / ticks[-1] if ticks[-1] else 1.0
    tick_fmt = tick_fmt or value_fmt
    plot_h = len(rows) * (bar_h + gap)
    height = top + plot_h + 30
    out: list[str] = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_f(width)} {_f(height)}" '
        f'width="{_f(width)}" height="{_f(height)}" font-family="{FONT}" font-size="10" role="img" '
        f'aria-label="{_t(axis_label)}">',
        _PATTERNS,
    ]
    x0 = label_w
    for tv in ticks:
        x = x0 + tv * scale
        out.append(
            f'<line x1="{_f(x)}" y1="{_f(top - 6)}" x2="{_f(x)}" y2="{_f(top + plot_h - 6)}" '
            f'stroke="{LIGHT_GREY}" stroke-width="0.6"/>'
        )
        out.append(
            f'<text x="{_f(x)}" y="{_f(top + plot_h + 5)}" text-anchor="middle" fill="#333" '
            f'font-size="9">{_t(tick_fmt(tv))}</text>'
        )
    out.append(
        f'<text x="{_f(x0 + plot_w / 2)}" y="{_f(top + plot_h + 20)}" text-anchor="middle" '
        f'fill="#333">{_t(axis_label)}</text>'
    )
    for i, r in enumerate(rows):
        y = top + i * (bar_h + gap)
        weight = "bold" if r.highlight else "normal"
        out.append(
            f'<text x="{_f(label_w - 6)}" y="{_f(y + 6)}" text-anchor="end" font-weight="{weight}">'
            f"{_t(clip_text(r.label, label_w - 10, 10))}</text>"
        )
        if r.sublabel:
            out.append(
                f'<text x="{_f(label_w - 6)}" y="{_f(y + 16)}" text-anchor="end" fill="#555" '
                f'font-size="8">{_t(clip_text(r.sublabel, label_w - 10, 8))}</text>'
            )
        x1, x2 = x0 + r.low * scale, x0 + r.high * scale
        w = max(x2 - x1, 2.0)
        fill = BLUE if r.highlight else SKY_BLUE
        out.append(
            f'<rect x="{_f(x1)}" y="{_f(y)}" width="{_f(w)}" height="{_f(bar_h)}" fill="{fill}" '
            f'stroke="#000" stroke-width="0.6"/>'
        )
        if not r.highlight:
            out.append(
                f'<rect x="{_f(x1)}" y="{_f(y)}" width="{_f(w)}" height="{_f(bar_h)}" fill="url(#hatch)"/>'
            )
        if range_fmt is not None:
            text = range_fmt(r.low, r.high)
        else:
            lo, hi = value_fmt(r.low), value_fmt(r.high)
            text = lo if lo == hi else f"{lo} – {hi}"
        out.append(
            f'<text x="{_f(width - right_w + 6)}" y="{_f(y + 10)}" font-weight="{weight}">{_t(text)}</text>'
        )
    if limit is not None:
        lx = x0 + limit * scale
        out.append(
            f'<line x1="{_f(lx)}" y1="{_f(top - 20)}" x2="{_f(lx)}" y2="{_f(top + plot_h - 4)}" '
            f'stroke="{VERMILLION}" stroke-width="1.6" stroke-dasharray="5,3"/>'
        )
        # label above the bars, on whichever side of the line keeps it inside the plot
        end_anchor = lx + text_width(limit_label, 9, bold=True) > x0 + plot_w
        out.append(
            f'<text x="{_f(lx - 3 if end_anchor else lx + 3)}" y="{_f(top - 12)}" fill="{VERMILLION}" '
            f'font-size="9" font-weight="bold" text-anchor="{"end" if end_anchor else "start"}">'
            f"{_t(limit_label)}</text>"
        )
    out.append("</svg>")
    return "".join(out)
