"""The extraction seam: the protocol, findings and the merge rules every backend shares."""

from __future__ import annotations

from typing import Any

import pytest

from advisor.extract import BACKENDS, get_extractor
from advisor.extract.base import Extractor, Finding, changed_fields, clip_evidence, merge_findings
from advisor.extract.rules import RulesExtractor
from tools.errors import InputError
from tools.profile import WorkloadProfile


def f(field: str, value: object, status: str = "stated", pos: int = 0, correction: bool = False) -> Finding:
    st: Any = status
    return Finding(
        field=field, value=value, status=st, evidence=f"{field}={value}", position=pos, correction=correction
    )


def test_rules_extractor_satisfies_the_protocol() -> None:
    ex = get_extractor("rules")
    assert isinstance(ex, Extractor)
    assert isinstance(ex, RulesExtractor)
    assert ex.name == "rules"
    assert set(BACKENDS) >= {"rules", "openai"}


def test_unknown_backend_is_an_input_error_naming_the_known_ones() -> None:
    with pytest.raises(InputError, match="rules"):
        get_extractor("nope")


def test_finding_rejects_unknown_fields_and_assumed_status() -> None:
    with pytest.raises(ValueError, match="unknown profile field"):
        f("gpu_count", 3)
    with pytest.raises(ValueError, match="never defaults"):
        f("epochs", 3, status="assumed")


def test_new_statement_replaces_prior_value_and_provenance() -> None:
    prior = merge_findings(None, [f("epochs", 3.0)])
    after = merge_findings(prior, [f("epochs", 8.0)])
    assert after.epochs == 8.0
    assert after.provenance["epochs"].evidence == "epochs=8.0"
    assert prior.epochs == 3.0  # the prior profile is not mutated


def test_inference_never_overrides_a_prior_stated_value_but_replaces_inferred_or_assumed() -> None:
    stated = merge_findings(None, [f("dataset_tokens", 2e9)])
    assert merge_findings(stated, [f("dataset_tokens", 1.25e11, "inferred")]).dataset_tokens == 2e9
    inferred = merge_findings(None, [f("dataset_tokens", 1e9, "inferred")])
    assert merge_findings(inferred, [f("dataset_tokens", 3e9, "inferred")]).dataset_tokens == 3e9
    assumed = WorkloadProfile().with_values("assumed", epochs=1.0)
    out = merge_findings(assumed, [f("epochs", 2.0, "inferred")])
    assert out.epochs == 2.0 and out.status_of("epochs") == "inferred"


def test_within_one_text_stated_beats_inferred_then_corrections_then_latest() -> None:
    p = merge_findings(None, [f("dataset_tokens", 2e9, pos=5), f("dataset_tokens", 1e11, "inferred", pos=50)])
    assert p.dataset_tokens == 2e9
    p = merge_findings(None, [f("epochs", 3.0, pos=1), f("epochs", 5.0, pos=9)])
    assert p.epochs == 5.0
    p = merge_findings(None, [f("epochs", 8.0, pos=1, correction=True), f("epochs", 5.0, pos=9)])
    assert p.epochs == 8.0


def test_provider_lists_accumulate_and_move_between_preferred_and_excluded() -> None:
    p = merge_findings(None, [f("providers_preferred", ["lambda"]), f("providers_excluded", ["aws"], pos=3)])
    p = merge_findings(p, [f("providers_preferred", ["runpod"])])
    assert p.providers_preferred == ["lambda", "runpod"] and p.providers_excluded == ["aws"]
    p = merge_findings(p, [f("providers_excluded", ["lambda"])])
    assert p.providers_preferred == ["runpod"]
    assert p.providers_excluded == ["aws", "lambda"]


def test_changed_fields_and_clip_evidence() -> None:
    before = merge_findings(None, [f("epochs", 3.0)])
    after = merge_findings(before, [f("epochs", 4.0), f("budget_usd", 5000.0)])
    assert changed_fields(before, after) == ["epochs", "budget_usd"]  # profile field order
    assert clip_evidence("a\n  b") == "a b"
    long = clip_evidence("x" * 500)
    assert len(long) <= 160 and long.endswith("…")


def test_a_converted_inference_replaces_a_prior_statement_but_an_estimate_does_not() -> None:
    prior = merge_findings(None, [f("budget_usd", 5000.0), f("dataset_tokens", 2e9)])
    eur = Finding("budget_usd", 22_000.0, "inferred", "20k EUR -> USD", converted=True)
    guess = Finding("dataset_tokens", 1.25e11, "inferred", "500 GB / 4 B per token")
    out = merge_findings(prior, [eur, guess])
    assert out.budget_usd == 22_000 and out.status_of("budget_usd") == "inferred"
    assert out.dataset_tokens == 2e9 and out.status_of("dataset_tokens") == "stated"


def test_invalid_values_are_dropped_not_raised() -> None:
    out = merge_findings(None, [f("budget_usd", 0.0), f("epochs", 2.0), f("utilization", 1.5)])
    assert out.budget_usd is None and out.utilization is None and out.epochs == 2
    # a valid earlier value survives an invalid later one
    assert merge_findings(None, [f("epochs", 3.0, pos=1), f("epochs", -1.0, pos=5)]).epochs == 3
