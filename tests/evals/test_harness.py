"""The eval harness: case files, matching semantics, reports, and the rules backend's goal."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from evals import harness
from evals.harness import (
    FIELD_GOAL,
    EvalCase,
    EvalReport,
    load_cases,
    match_field,
    run_eval,
)
from tools.profile import WorkloadProfile


@pytest.fixture(scope="module")
def rules_report() -> EvalReport:
    # extraction only: the recommendation checks run the recommender ~170 times (see the test below
    # for that path, and `gpu-advisor eval` for the full run)
    return run_eval("rules", recommendations=False)


def test_cases_are_many_varied_and_valid() -> None:
    cases = load_cases()
    assert len(cases) >= 40
    kinds = {"text": sum(bool(c.text) for c in cases), "brief": sum(bool(c.brief) for c in cases),
             "turns": sum(bool(c.turns) for c in cases)}  # fmt: skip
    assert kinds["brief"] >= 5 and kinds["turns"] >= 3 and kinds["text"] >= 30
    briefs = {Path(c.brief).suffix for c in cases if c.brief}
    assert {".md", ".html", ".txt"} <= briefs
    assert sum("injection" in c.id for c in cases) >= 4
    assert sum(c.expect.get("workload") == "inference" for c in cases) >= 5
    assert sum(c.expect.get("eu_only") is True for c in cases) >= 4
    assert sum(bool(c.recommendation) for c in cases) >= 10


def test_rules_backend_meets_the_goal(rules_report: EvalReport) -> None:
    # issue 4: at least 95% of expected fields right for the rules backend
    assert rules_report.field_accuracy >= FIELD_GOAL, rules_report.summary()
    assert rules_report.meets_goal
    assert all(c.error is None for c in rules_report.cases)


def test_summary_lists_fields_cases_and_failures(rules_report: EvalReport) -> None:
    text = rules_report.summary()
    assert "Per field:" in text and "Per case:" in text and "dataset_tokens" in text
    assert "brief-legal-assistant" in text
    d = rules_report.to_dict()
    assert d["cases"] == len(rules_report.cases) and 0 <= d["field_accuracy"] <= 1
    assert set(d["per_field"]["model_id"]) == {"right", "expected"}
    assert "holdout.yaml" in d["per_file"] and "Per cases file:" in text


class EmptyExtractor:
    name = "empty"

    def extract(self, text: str, prior: WorkloadProfile | None = None) -> WorkloadProfile:
        return prior or WorkloadProfile()


class BrokenExtractor:
    name = "broken"

    def extract(self, text: str, prior: WorkloadProfile | None = None) -> WorkloadProfile:
        raise RuntimeError("model unavailable")


def test_an_extractor_that_reads_nothing_fails_and_is_reported() -> None:
    report = run_eval(extractor=EmptyExtractor(), recommendations=False)
    assert report.backend == "empty"
    assert report.field_accuracy < 0.5 and not report.meets_goal
    assert "NOT met" in report.summary() and "Failures:" in report.summary()
    # the expected-unknown fields still count as right: nothing was invented
    assert any(f.ok and f.expected is None for f in report.field_results)


def test_a_crashing_extractor_is_recorded_per_case_not_raised() -> None:
    report = run_eval(extractor=BrokenExtractor(), recommendations=False)
    assert all(c.error and "model unavailable" in c.error for c in report.cases)
    assert report.field_accuracy == 0.0


def test_recommendation_checks_are_skipped_with_a_message_without_a_recommender(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(harness, "recommender_available", lambda: False)
    report = run_eval(extractor=EmptyExtractor())
    assert not report.recommendation_checked
    assert "skipped" in report.summary() and "tools/recommend/" in report.summary()
    assert all(not c.checks for c in report.cases)


def test_custom_cases_dir_and_reference_time(tmp_path: Path) -> None:
    (tmp_path / "one.yaml").write_text(
        "- id: friday\n"
        "  text: 'LoRA on Mistral 7B, by Friday'\n"
        "  reference_time: 2026-11-19T12:00:00+00:00\n"
        "  expect: {deadline_hours: 36, model_id: mistral-7b, budget_usd: null}\n",
        encoding="utf-8",
    )
    report = run_eval("rules", cases_dir=tmp_path, recommendations=False)
    assert [c.id for c in report.cases] == ["friday"]
    assert report.field_accuracy == 1.0, report.summary()


def test_reference_time_defaults_to_a_fixed_wednesday() -> None:
    assert harness.REFERENCE_TIME.weekday() == 2 and harness.REFERENCE_TIME.tzinfo is dt.UTC


@pytest.mark.parametrize(
    ("field", "expected", "actual", "ok"),
    [
        ("budget_usd", 5000, 5040, True),  # within 1%
        ("budget_usd", 5000, 5100, False),
        ("dataset_tokens", [1e11, 1.6e11], 1.25e11, True),
        ("dataset_tokens", [1e11, 1.6e11], 2e11, False),
        ("budget_usd", None, None, True),
        ("budget_usd", None, 1.0, False),
        ("method", "qlora", "qlora", True),
        ("method", "qlora", None, False),
        ("ops_capacity", ["none", "limited"], "limited", True),
        ("eu_only", True, True, True),
        ("eu_only", True, None, False),
        ("providers_excluded", ["aws"], ["aws", "gcp"], True),
        ("providers_excluded", ["aws", "azure"], ["aws"], False),
        ("model_id", "mistral-7b", "mistral-7b-v0.3", True),  # same catalog model through its alias
        ("model_id", "llama-3-70b", "llama-3.1-70b", False),
        ("claimed_gpu", "H100", "h100-sxm", True),
    ],
)
def test_match_field(field: str, expected: object, actual: object, ok: bool) -> None:
    assert match_field(field, expected, actual) is ok


def test_case_validation() -> None:
    with pytest.raises(ValueError, match="exactly one"):
        EvalCase(id="x", text="a", brief="b.md")
    with pytest.raises(ValueError, match="unknown profile fields"):
        EvalCase(id="x", text="a", expect={"gpus": 2})
    with pytest.raises(ValueError, match="unknown recommendation checks"):
        EvalCase(id="x", text="a", recommendation={"cheap": True})


def test_duplicate_ids_are_refused(tmp_path: Path) -> None:
    (tmp_path / "a.yaml").write_text("- {id: same, text: one}\n- {id: same, text: two}\n", encoding="utf-8")
    with pytest.raises(ValueError, match="duplicate"):
        load_cases(tmp_path)


def test_recommendation_checks_run_when_the_recommender_exists(tmp_path: Path) -> None:
    if not harness.recommender_available():
        pytest.skip("tools/recommend/ not in the tree")
    (tmp_path / "rec.yaml").write_text(
        "- id: small-lora\n"
        "  text: 'LoRA on Llama 3.1 8B, 20M tokens, data must stay in the EU'\n"
        "  expect: {method: lora}\n"
        "  recommendation: {primary: true, eu_provider: true, min_vram_gib: 10}\n"
        "- id: impossible\n"
        "  text: 'It has to run on our own two RTX 4090s at home, nothing in the cloud: full fine-tune of "
        "Llama 3.1 70B on 1B tokens.'\n"
        "  recommendation: {primary: false}\n",
        encoding="utf-8",
    )
    report = run_eval("rules", cases_dir=tmp_path)
    assert report.recommendation_checked
    checks = {(c.id, k.check): k for c in report.cases for k in c.checks}
    assert len(checks) == 4
    assert all(isinstance(k.ok, bool) for k in checks.values())
    assert checks[("small-lora", "primary")].actual is True


def test_a_turn_that_goes_on_from_the_last_is_the_other_workload(tmp_path: Path) -> None:
    # each turn's account is read with the earlier turns' profile, as the conversation reads it (rd12):
    # "After that we'd serve it ..." is the second workload only after the fine-tune it goes on from
    (tmp_path / "turns.yaml").write_text(
        "- id: train-then-serve\n"
        "  turns:\n"
        "    - 'Full fine-tune of Mistral NeMo 12B on 500M tokens, seq 8192.'\n"
        "    - 'After that we would serve it to ~120 concurrent users, 2k prompt and 500 output.'\n"
        "    - 'The fine-tune has to be done by Friday.'\n"
        "  expect: {workload: fine_tuning, concurrency: null}\n"
        "  expect_other: {workload: inference, concurrency: 120, prompt_tokens: 2000}\n",
        encoding="utf-8",
    )
    report = run_eval("rules", cases_dir=tmp_path, recommendations=False)
    assert report.field_accuracy == 1.0, report.summary()
