"""advisor.service.reports: the reports folder is looked up once for every front end, and a report is
written from a profile or from a recommendation already computed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from advisor.service import reports
from advisor.service.profiles import load_profile
from advisor.service.recommending import recommend_for

EXAMPLES = Path(__file__).resolve().parents[2] / "advisor" / "examples"


def test_reports_folder_is_the_environment_setting(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GPU_ADVISOR_REPORTS_DIR", str(tmp_path / "mine"))
    monkeypatch.setenv("GPU_ADVISOR_DATA_DIR", str(tmp_path / "data"))
    assert reports.reports_folder() == tmp_path / "mine"
    assert (tmp_path / "mine").is_dir()


def test_reports_folder_defaults_to_the_data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GPU_ADVISOR_REPORTS_DIR", raising=False)
    monkeypatch.setenv("GPU_ADVISOR_DATA_DIR", str(tmp_path / "data"))
    assert reports.reports_folder() == tmp_path / "data" / "reports"
    assert (tmp_path / "data" / "reports").is_dir()


def test_a_computed_recommendation_is_rendered_as_it_is(tmp_path: Path) -> None:
    profile, settings = load_profile(EXAMPLES / "owned-lora-8b.yaml")
    rec, _catalog = recommend_for(profile, settings=settings)
    from_profile = reports.write_report(profile, tmp_path / "a.json", settings=settings)
    from_rec = reports.write_report(None, tmp_path / "b.json", recommendation=rec)
    # the two renders may straddle a second: everything but the "generated" stamp must be identical
    def _unstamped(path: Path) -> dict[str, object]:
        report = json.loads(path.read_text())
        report.pop("generated", None)
        return dict(report)

    assert _unstamped(from_profile) == _unstamped(from_rec)


def test_format_from_the_flag_else_the_suffix_else_pdf() -> None:
    assert reports.resolve_format("MD", Path("x.pdf")) == "md"
    assert reports.resolve_format(None, Path("x.htm")) == "html"
    assert reports.resolve_format(None, Path("x.report")) == "pdf"
    with pytest.raises(ValueError, match="unknown --format"):
        reports.resolve_format("docx", Path("x"))
    with pytest.raises(ValueError, match="nothing to report"):
        reports.write_report(None, Path("x.md"))
