"""`eval` streams per-case results as it goes, and a stopped run still reports the cases it did."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from advisor.cli import main
from advisor.llm.testing import TinyRulesExtractor
from evals.harness import CaseResult, run_eval

CASES = (
    "- id: first\n  text: LoRA on a 7B model, 3 epochs\n  expect:\n    method: lora\n    epochs: 3\n"
    "- id: second\n  text: QLoRA on a 70B model\n  expect:\n    method: qlora\n"
    "- id: third\n  text: full fine-tune of a 8B model\n  expect:\n    method: full\n"
)


@pytest.fixture
def cases(tmp_path: Path) -> Path:
    (tmp_path / "c.yaml").write_text(CASES, encoding="utf-8")
    return tmp_path


def test_each_case_is_reported_as_soon_as_it_is_scored(cases: Path) -> None:
    seen: list[str] = []

    class Watching(TinyRulesExtractor):
        def extract(self, text: str, prior: Any = None) -> Any:
            seen.append(f"extract {len(seen)}")
            return super().extract(text, prior)

    def on_case(c: CaseResult) -> None:
        seen.append(f"done {c.id}")

    run_eval(extractor=Watching(), cases_dir=cases, recommendations=False, on_case=on_case)
    assert [s for s in seen if s.startswith("done")] == ["done first", "done second", "done third"]
    assert seen.index("done first") < seen.index("extract 2")  # before the second case ran


def test_a_stopped_run_reports_what_it_did(cases: Path) -> None:
    class Stopped(TinyRulesExtractor):
        def extract(self, text: str, prior: Any = None) -> Any:
            if "QLoRA" in text:
                raise KeyboardInterrupt
            return super().extract(text, prior)

    report = run_eval(extractor=Stopped(), cases_dir=cases, recommendations=False)
    assert [c.id for c in report.cases] == ["first"] and report.planned == 3
    assert "STOPPED after 1 of 3 cases" in report.summary()
    assert report.to_dict()["cases_planned"] == 3


def test_cli_prints_case_lines_before_the_summary(cases: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", "--cases", str(cases)]) == 0
    out = capsys.readouterr().out
    assert out.index("ok   first") < out.index("Extraction eval — backend rules")
