"""Report speed: profile -> PDF in-process (median of several runs; goal under 0.5 s on the 2-core build
machine) and a cold `gpu-advisor report` CLI start to a written PDF (subprocess; goal under 3 s).

Prints figures; asserts nothing about time. Run: .venv/bin/python bench/report_speed.py [--runs N]
"""

from __future__ import annotations

import argparse
import html as html_lib
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

EXAMPLE = REPO / "advisor" / "examples" / "seed-001-qlora-70b.yaml"
IN_PROCESS_GOAL_S = 0.5
CLI_GOAL_S = 3.0


def _median_ms(samples: list[float]) -> str:
    lo, hi = min(samples) * 1000, max(samples) * 1000
    return f"{statistics.median(samples) * 1000:7.1f} ms (min {lo:.1f}, max {hi:.1f})"


def plain_paragraphs(report_html: str) -> tuple[str, int]:
    """The report's visible words (no tables, charts or styling) as 40-word paragraphs, and the
    word count: what WeasyPrint costs for the text alone."""
    body = report_html[report_html.find("<body>") :]
    body = re.sub(r"<svg.*?</svg>", " ", body, flags=re.S)
    words = html_lib.unescape(re.sub(r"<[^>]+>", " ", body)).split()
    paras = (" ".join(words[i : i + 40]) for i in range(0, len(words), 40))
    doc = "<html><body>" + "".join(f"<p>{html_lib.escape(p)}</p>" for p in paras) + "</body></html>"
    return doc, len(words)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--profile", type=Path, default=EXAMPLE)
    args = ap.parse_args()
    if not args.profile.is_file():
        print(f"profile {args.profile} not found", file=sys.stderr)
        return 1

    from advisor.service.profiles import load_profile
    from advisor.service.recommending import recommend_for
    from reports.html import footer_text, page_html, render_html
    from reports.pdf import html_to_pdf, render_pdf
    from reports.view import build_context

    t0 = time.perf_counter()
    import weasyprint  # noqa: F401  (measured separately: the CLI pays it once per start)

    import_s = time.perf_counter() - t0
    profile, settings = load_profile(args.profile)
    recommend_for(profile, settings=settings)  # warm the catalog cache

    rec_s, html_s, pdf_s, total_s, cpu_s = [], [], [], [], []
    pages = 0
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "r.pdf"
        for _ in range(args.runs):
            c0 = time.process_time()
            t0 = time.perf_counter()
            profile, settings = load_profile(args.profile)
            rec, catalog = recommend_for(profile, settings=settings)
            t1 = time.perf_counter()
            render_pdf(rec, out, catalog=catalog)
            t2 = time.perf_counter()
            cpu_s.append(time.process_time() - c0)
            render_html(rec, catalog=catalog)  # the HTML step alone, for the breakdown
            html_s.append(time.perf_counter() - t2)
            rec_s.append(t1 - t0)
            pdf_s.append(t2 - t1)
            total_s.append(t2 - t0)
        from pypdf import PdfReader

        pages = len(PdfReader(str(out)).pages)
        short_s = []
        for _ in range(args.runs):
            t0 = time.perf_counter()
            render_pdf(rec, out, catalog=catalog, appendix=False)
            short_s.append(time.perf_counter() - t0)
        short_pages = len(PdfReader(str(out)).pages)

        # the lean default stylesheet against WeasyPrint's own, interleaved so both see the same load
        ctx = build_context(rec, catalog=catalog)
        html, footer = page_html(ctx, inline_css=False), footer_text(ctx)
        ua_s: dict[bool, list[float]] = {True: [], False: []}
        for _ in range(args.runs):
            for lean in (True, False):
                t0 = time.perf_counter()
                html_to_pdf(html, out, footer=footer, lean_ua=lean)
                ua_s[lean].append(time.perf_counter() - t0)

        # WeasyPrint's floor for this report: its words alone, as plain paragraphs in the same fonts
        plain, words = plain_paragraphs(html)
        floor_s = []
        for _ in range(args.runs):
            t0 = time.perf_counter()
            html_to_pdf(plain, out, footer=footer)
            floor_s.append(time.perf_counter() - t0)
        floor_pages = len(PdfReader(str(out)).pages)

        cli_s = []
        exe = REPO / ".venv" / "bin" / "gpu-advisor"
        cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "advisor"]
        for _ in range(3):
            t0 = time.perf_counter()
            proc = subprocess.run(
                [*cmd, "report", "--profile", str(args.profile), "-o", str(out)],
                capture_output=True,
                text=True,
                cwd=REPO,
            )
            cli_s.append(time.perf_counter() - t0)
            if proc.returncode != 0:
                print(f"CLI failed ({proc.returncode}): {proc.stderr.strip()}", file=sys.stderr)
                return 1

    med = statistics.median(total_s)
    cli_med = statistics.median(cli_s)
    load1 = os.getloadavg()[0]
    print(
        f"profile: {args.profile.relative_to(REPO) if args.profile.is_relative_to(REPO) else args.profile}"
        f" -> {pages}-page PDF, {args.runs} in-process runs; load {load1:.2f} on {os.cpu_count()} CPUs"
    )
    print(f"  weasyprint import (once)   {import_s * 1000:7.1f} ms")
    print(f"  load profile + recommend   {_median_ms(rec_s)}")
    print(f"  context + HTML (Jinja2)    {_median_ms(html_s)}")
    print(f"  recommendation -> PDF      {_median_ms(pdf_s)}")
    print(f"  profile -> PDF, CPU time   {_median_ms(cpu_s)}")
    print(f"  rec -> PDF, --no-appendix  {_median_ms(short_s)} ({short_pages} pages)")
    print(f"  HTML -> PDF, lean UA css   {_median_ms(ua_s[True])}")
    print(f"  HTML -> PDF, WeasyPrint's  {_median_ms(ua_s[False])} (its default stylesheet)")
    print(
        f"  same words, no structure   {_median_ms(floor_s)} ({words:,} words as plain paragraphs, "
        f"{floor_pages} pages: WeasyPrint's floor for this text)"
    )
    print(
        f"  profile -> PDF, median     {med * 1000:7.1f} ms   goal < {IN_PROCESS_GOAL_S * 1000:.0f} ms: "
        f"{'met' if med < IN_PROCESS_GOAL_S else 'MISSED'}"
    )
    print(
        f"  cold CLI start -> PDF      {cli_med * 1000:7.1f} ms (median of 3)   goal < {CLI_GOAL_S:.0f} s: "
        f"{'met' if cli_med < CLI_GOAL_S else 'MISSED'}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
