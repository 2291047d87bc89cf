"""The report of the real recommender on seed 001's example: the PDF text carries the engine's primary
pick and figures (formatted with the report's own presentation functions) and both TCO scenarios."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from advisor.service.profiles import load_profile
from advisor.service.recommending import recommend_for
from reports.html import render_html
from reports.labels import option_title
from reports.markdown import render_markdown
from reports.render import render_report
from tools import present as f
from tools.memory_calibration import calibration_summary


def pdf_text(path: Path) -> str:
    from pypdf import PdfReader

    return " ".join(" ".join(p.extract_text() or "" for p in PdfReader(str(path)).pages).split())


def embedded_fonts(path: Path) -> set[tuple[str, bool]]:
    """(font name, has an embedded font file) for every font the PDF uses."""
    from pypdf import PdfReader

    fonts = set()
    for page in PdfReader(str(path)).pages:
        resources: Any = page["/Resources"]
        for font in (resources.get("/Font") or {}).values():
            obj = font.get_object()
            for desc in obj.get("/DescendantFonts", [obj]):
                d = desc.get_object().get("/FontDescriptor")
                if d is not None:
                    d = d.get_object()
                    fonts.add(
                        (str(d["/FontName"]), any(k in d for k in ("/FontFile", "/FontFile2", "/FontFile3")))
                    )
    return fonts


def test_seed001_pdf_carries_engine_figures(example_profile: Path, tmp_path: Path) -> None:
    profile, settings = load_profile(example_profile)
    rec, catalog = recommend_for(profile, settings=settings)
    assert rec.primary is not None
    p = rec.primary
    out = render_report(rec, "pdf", tmp_path / "seed001.pdf", catalog=catalog)
    assert out.read_bytes().startswith(b"%PDF")
    text = pdf_text(out)
    assert option_title(p) in text
    assert f.usd_range(p.cost_usd) in text
    assert f.hours_range(p.wall_hours, with_days=False) in text
    assert f.gib(p.peak_gib_per_gpu) in text
    assert len(p.tco) >= 2  # seed 001: data cached vs pulled every run
    for scenario in p.tco:
        assert f.usd_range(scenario.total_usd) in text
        assert f.usd(scenario.egress_usd) in text
    for alt in rec.alternatives:
        assert f.usd_range(alt.cost_usd) in text
    floating = [o for o in rec.options if o.usd_per_gpu_hour_high is not None and o.tco]
    assert floating  # seed 001's cheapest is a spot quote: the TCO note says why its range is wider
    assert f"{option_title(floating[0])} at {floating[0].provider}, priced at a quote that floats" in text
    for rej in rec.rejected:  # every rejected option with its reason
        assert " ".join(rej.reason.split()) in text
    assert "Page 1 of" in text  # footer: page numbers, generation and catalog dates
    assert "catalog prices as of" in text and min(rec.catalog_as_of.values()).isoformat() in text
    fonts = embedded_fonts(out)
    assert fonts and all(embedded for _, embedded in fonts), fonts
    assert any("DejaVu" in name for name, _ in fonts)
    md = render_markdown(rec, catalog=catalog)
    assert f.usd_range(p.cost_usd) in md and option_title(p) in md
    # issue 6: the estimator's measured accuracy, computed from the calibration rows, not typed in
    median = f"median absolute error {calibration_summary().median_abs_error_pct:.1f}%"
    assert median in text and median in md


def test_infeasible_workload_report_says_what_would_make_it_feasible() -> None:
    from advisor.service.profiles import profile_from_mapping

    profile, _ = profile_from_mapping(
        {
            "workload": "fine_tuning",
            "model_id": "llama-3.1-405b",
            "method": "full",
            "dataset_tokens": 5e9,
            "deployment_preference": "consumer",
        }
    )
    rec, catalog = recommend_for(profile)
    assert rec.primary is None and rec.infeasible_advice
    md = render_markdown(rec, catalog=catalog)
    assert "No feasible configuration" in md
    for advice in rec.infeasible_advice:
        assert " ".join(advice.split()).replace("|", "\\|") in md
    assert rec.rejected and (rec.rejected[0].gpu_name or rec.rejected[0].gpu) in md


def test_serving_report_is_not_worded_as_fine_tuning(example_profile: Path) -> None:
    """advisor/examples/eu-inference-70b.yaml: the summary names the serving class, and seed 000's
    training-class thresholds (recorded by the classifier for every workload) stay out of the report."""
    profile, settings = load_profile(example_profile.parent / "eu-inference-70b.yaml")
    rec, catalog = recommend_for(profile, settings=settings)
    assert rec.primary is not None
    html = render_html(rec, catalog=catalog)
    summary = html.split('<section class="page">')[0]
    assert "Workload class: <b>inference (serving)</b>" in summary
    md = render_markdown(rec, catalog=catalog)
    for doc in (html, md):
        assert "fine-tuning-class" not in doc and "fine tuning max" not in doc
    assert "Workload class: **inference (serving)**" in md
    median = f"{calibration_summary().median_abs_error_pct:.1f}%"
    assert median in html.split("Assumptions (")[1]  # stated in the assumptions section


def test_lean_default_stylesheet_renders_the_same_pages(example_profile: Path, tmp_path: Path) -> None:
    """The PDF is rendered with WeasyPrint's default stylesheet less its footnote rules (render cost);
    it is active with the installed WeasyPrint, and every page's text equals the default's."""
    from pypdf import PdfReader

    from reports.html import footer_text, page_html
    from reports.pdf import html_to_pdf, weasyprint_setup
    from reports.view import build_context

    _fonts, _css, report_html = weasyprint_setup()
    assert report_html.__name__ == "ReportHTML", "WeasyPrint's default stylesheet changed: lean copy off"
    profile, settings = load_profile(example_profile)
    rec, catalog = recommend_for(profile, settings=settings)
    ctx = build_context(rec, catalog=catalog)
    html, footer = page_html(ctx, inline_css=False), footer_text(ctx)
    pages = {}
    for lean in (True, False):
        out = html_to_pdf(html, tmp_path / f"lean-{lean}.pdf", footer=footer, lean_ua=lean)
        pages[lean] = [p.extract_text() for p in PdfReader(str(out)).pages]
    assert len(pages[True]) >= 8 and pages[True] == pages[False]
    assert "•" in " ".join(pages[True])  # the compared text includes the list markers (::marker kept on li)


def test_report_names_peak_phase_and_memory_basis(example_profile: Path) -> None:
    """Issue 15: the memory figure says at which training phase it peaks and on which basis."""
    profile, settings = load_profile(example_profile)
    rec, catalog = recommend_for(profile, settings=settings)
    assert rec.primary is not None and rec.primary.memory is not None
    fit = rec.primary.memory
    assert fit.peak_phase in ("forward", "loss", "backward", "optimizer") and fit.memory_basis == "reserved"
    note = f.memory_peak_note(fit.peak_phase, fit.memory_basis)
    assert f.PEAK_PHASE_TEXT[fit.peak_phase] in note and "nvidia-smi" in note
    md = render_markdown(rec, catalog=catalog)
    assert f"{f.gib(rec.primary.peak_gib_per_gpu)} of " in md and f"({note})" in md
    assert "Peak phase, basis" in md
    assert note in render_html(rec, catalog=catalog)
