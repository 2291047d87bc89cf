"""The v3 unseen eval set (issue 12) loads through the harness, is big enough to score on, and its briefs
read through advisor.ingest. Only loading is checked here: the set's content is not for rule writers."""

from __future__ import annotations

from pathlib import Path

from evals import harness
from evals.harness import case_turns, load_cases

V3 = Path(harness.__file__).resolve().parent / "cases_v3" / "unseen"
V2 = Path(harness.__file__).resolve().parent / "cases_v2"


def test_the_v3_unseen_set_loads_with_at_least_40_cases() -> None:
    cases = load_cases(V3)
    assert len(cases) >= 40
    assert len({c.source_file for c in cases}) >= 5  # several style files
    assert any(c.turns for c in cases) and any(c.expect_other for c in cases)


def test_v3_ids_are_new() -> None:
    old = {c.id for part in ("dev", "heldout") for c in load_cases(V2 / part)}
    assert not old & {c.id for c in load_cases(V3)}


def test_v3_briefs_read() -> None:
    briefs = [c for c in load_cases(V3) if c.brief]
    assert len(briefs) >= 4
    assert {Path(c.brief or "").suffix for c in briefs} >= {".pdf", ".docx", ".md"}
    for c in briefs:
        [text] = case_turns(c, V3)
        assert len(text) > 200, c.id
