"""The recommendation check keys that carry constraints the profile has no field for (issue 12): each
one passes on a pick that honours it and fails on one that does not. The pick is a stand-in Option, so
these run without the recommender."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from evals import harness
from evals.harness import EvalCase, _check_option, case_turns, load_cases
from tools.profile import WorkloadProfile

V2 = Path(harness.__file__).resolve().parent / "cases_v2"


def _pick(**over: Any) -> SimpleNamespace:
    base = dict(gpu="h100-sxm", gpus_per_node=8, nodes=1, total_gpus=8, vram_gib_per_gpu=79.6,
                provider="aws-sagemaker", pricing="on_demand", deployment="managed", eu=False)  # fmt: skip
    return SimpleNamespace(**{**base, **over})


@pytest.mark.parametrize(
    ("key", "want", "pick", "ok"),
    [
        ("provider_in", ["aws"], _pick(), True),  # the family: aws covers aws-sagemaker
        ("provider_in", ["aws"], _pick(provider="nebius"), False),
        ("provider_in", "gcp", _pick(provider="gcp"), True),
        ("provider_not_in", ["azure"], _pick(provider="aws"), True),
        ("provider_not_in", ["azure"], _pick(provider="azure"), False),
        ("provider_not_in", ["runpod"], _pick(provider="runpod-community"), False),
        ("pricing_not", ["spot"], _pick(pricing="on_demand"), True),
        ("pricing_not", ["spot"], _pick(pricing="spot"), False),
        ("pricing_not", "spot", _pick(pricing="spot"), False),
        ("gpu_in", ["h100-sxm", "h100-pcie"], _pick(gpu="h100-pcie"), True),
        ("gpu_in", ["h100-sxm", "h100-pcie"], _pick(gpu="b200"), False),
        ("gpu_not_in", ["rtx-4090", "rtx-3090"], _pick(gpu="l40s"), True),
        ("gpu_not_in", ["rtx-4090", "rtx-3090"], _pick(gpu="rtx-4090"), False),
        ("max_total_gpus", 1, _pick(total_gpus=1), True),
        ("max_total_gpus", 4, _pick(total_gpus=8), False),
        ("deployment", "owned", _pick(deployment="owned", pricing="owned"), True),
        ("deployment", "owned", _pick(), False),
        ("deployment", ["owned", "colocation"], _pick(deployment="colocation"), True),
        ("eu_provider", True, _pick(provider="nebius", eu=True), True),
        ("eu_provider", True, _pick(), False),
        # a provider whose sourced region list has EU data centres (review 19, R12); a list without them
        ("eu_provider", True, _pick(provider="runpod-secure", areas=("us", "eu", "other")), True),
        ("eu_provider", True, _pick(provider="lambda", areas=("us", "other")), False),
    ],
)
def test_option_checks_pass_and_fail(key: str, want: Any, pick: SimpleNamespace, ok: bool) -> None:
    result = _check_option(key, want, pick)
    assert result.ok is ok and result.check == key


def _fake_recommend(monkeypatch: pytest.MonkeyPatch, claims: list[str], primary: Any = None) -> None:
    rec = SimpleNamespace(primary=primary, expectation_checks=[SimpleNamespace(claim=c) for c in claims])
    monkeypatch.setattr(harness, "recommend", lambda **_: rec)


def test_claim_checked_passes_when_the_answer_weighs_the_claim(monkeypatch: pytest.MonkeyPatch) -> None:
    _fake_recommend(monkeypatch, ["10B tokens in 24 h on 8x NVIDIA H100 SXM", "finish within 24 h"])
    [res] = harness.check_recommendation(WorkloadProfile(), {"claim_checked": True})
    assert res.ok and res.actual == ["10B tokens in 24 h on 8x NVIDIA H100 SXM"]


def test_claim_checked_fails_on_deadline_and_budget_checks_only(monkeypatch: pytest.MonkeyPatch) -> None:
    _fake_recommend(monkeypatch, ["finish within 24 h", "spend at most $5,000"], primary=_pick())
    res = harness.check_recommendation(WorkloadProfile(), {"claim_checked": True, "pricing_not": ["spot"]})
    assert [r.ok for r in res] == [False, True]


def test_a_constraint_check_without_a_primary_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    _fake_recommend(monkeypatch, [])
    [res] = harness.check_recommendation(WorkloadProfile(), {"pricing_not": ["spot"]})
    assert not res.ok and res.actual == "no primary"


def test_new_keys_are_accepted_in_cases() -> None:
    checks = {"pricing_not": ["spot"], "gpu_not_in": ["rtx-4090"], "deployment": "owned",
              "claim_checked": True}  # fmt: skip
    case = EvalCase(id="x", text="a", recommendation=checks)
    assert set(case.recommendation) <= set(harness.REC_KEYS)


def test_the_v2_cases_load_and_their_briefs_read() -> None:
    dev, held = load_cases(V2 / "dev"), load_cases(V2 / "heldout")
    assert len(dev) + len(held) >= 60 and len(held) > len(dev)
    assert not {c.id for c in dev} & {c.id for c in held}
    for part, cases in (("dev", dev), ("heldout", held)):
        briefs = [c for c in cases if c.brief]
        assert {Path(c.brief or "").suffix for c in briefs} >= {".pdf", ".docx", ".md"}
        for c in briefs:
            [text] = case_turns(c, V2 / part)
            assert len(text) > 200, c.id


class _ReadsNothing:
    name = "nothing"

    def extract(self, text: str, prior: WorkloadProfile | None = None) -> WorkloadProfile:
        return prior or WorkloadProfile()


def test_a_constraint_not_read_is_silent_unless_the_reply_names_it() -> None:
    """An EU rule the extractor missed: named when its clause is listed as a constraint not understood,
    silent when the account counts the clause as used (here: the rules read it, the extractor did not)."""
    named = EvalCase(id="named", text="Our lawyers insist on hosting inside the Union only. LoRA Llama 3 8B.",
                     expect={"eu_only": True})  # fmt: skip
    res = harness.run_case(named, _ReadsNothing())
    assert not res.fields[0].ok and res.silent_drops == []  # listed as a constraint not understood
    silent = EvalCase(id="silent", text="Data must stay in the EU. LoRA Llama 3 8B.",
                      expect={"eu_only": True})  # fmt: skip
    res = harness.run_case(silent, _ReadsNothing())
    assert res.silent_drops == ["eu_only"]  # the rules used the clause, so the reply would not name it


def test_silent_drops_are_counted_and_printed() -> None:
    case = EvalCase(id="s", text="Data must stay in the EU. LoRA Llama 3 8B.", expect={"eu_only": True})
    report = harness.EvalReport(backend="x", cases=[harness.run_case(case, _ReadsNothing())],
                                recommendation_checked=False)  # fmt: skip
    assert report.silent_drops == 1 and "silent drops: 1" in report.summary()
    assert report.to_dict()["silent_drop_list"] == ["s: eu_only"]


def test_expect_other_scores_the_second_workload() -> None:
    text = "Training: LoRA Llama 3.1 8B, 50M tokens\nServing: 40 users, 8k context"
    case = EvalCase(id="two", text=text, expect={"concurrency": None},
                    expect_other={"concurrency": 40, "workload": "inference"})  # fmt: skip
    res = harness.run_case(case, harness.get_extractor("rules"))
    assert [(f.field, f.ok) for f in res.fields] == [("concurrency", True), ("other.concurrency", True),
                                                      ("other.workload", True)]  # fmt: skip
    with pytest.raises(ValueError, match="unknown profile fields"):
        EvalCase(id="bad", text="a", expect_other={"users": 3})


def test_a_gpu_named_in_the_plural_is_named() -> None:
    """A plural GPU name listed as a constraint not understood names the GPU rule (the topic words once needed
    the singular 'h100', so the reply's listing counted as a silent drop). evals/cases_v3's "h100s only" is
    read by the rules since 2026-11-28 (counted as used), hence a plural clause the rules do not read."""
    text = "cpt qwen2.5 14b on 25B tokens of code. ops keeps asking about h100s"
    case = EvalCase(id="plural", text=text, expect={"gpus_wanted": ["h100-sxm"]})
    assert harness.run_case(case, _ReadsNothing()).silent_drops == []
    bare = EvalCase(id="bare", text="cpt qwen2.5 14b on 25B tokens", expect={"gpus_wanted": ["h100-sxm"]})
    assert harness.run_case(bare, _ReadsNothing()).silent_drops == ["gpus_wanted"]  # nothing names it
