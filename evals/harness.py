"""Extraction evals: run an extractor over the cases in evals/cases/*.yaml and score it field by field.

A case gives the user's words (`text`, a `brief` file read through advisor.ingest, or several `turns`
extracted one after another with the previous profile as prior) and what a careful reader would take
from them:

- `expect`: profile fields. A number matches within 1% (or lies in a [low, high] range); a string
  matches exactly (or is one of a list); a provider list must contain the listed providers; `null`
  means the field must stay unknown (nothing invented, nothing injected). Model and GPU names compare
  through the catalog, so "mistral-7b" and "mistral-7b-v0.3" are the same model.
- `recommendation`: properties of tools.recommend.recommend's answer for the extracted profile
  (primary present, single node, EU provider, ...), checked only when tools/recommend/ exists.
  These also carry the constraints the profile has no field for, as properties of the pick:
  `provider_in` / `provider_not_in` (provider families: "aws" covers aws-sagemaker), `pricing_in` /
  `pricing_not` (on_demand, spot, reserved, owned), `gpu_in` / `gpu_not_in` (catalog GPU ids),
  `max_total_gpus`, `deployment` (one of or a list of cloud, managed, bare_metal, colocation, owned),
  `eu_provider`, and `claim_checked` (the answer checks the user's claim or question about a speed).
- `expect_other`: for a brief with a training and a serving section, the fields of the second workload
  (the input account's `other_workload`, advisor/extract/workloads.py), scored as `other.<field>`.

Silent drops (issue 12): every constraint a case states (its constraint fields in `expect`, its
recommendation checks other than `primary`) is either honoured (the field read right, the check met) or
listed as not understood in the reply's accounting (an unused clause of a named kind that mentions it,
advisor/extract/accounting.py); anything else is a silent drop, counted per run (`silent drops: N`).

`run_eval(backend)` returns an `EvalReport`; `report.summary()` is the text `gpu-advisor eval` prints.
Relative deadlines are anchored at REFERENCE_TIME (or a case's `reference_time`) so runs reproduce.
"""

from __future__ import annotations

import datetime as dt
import importlib.util
import math
import re
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ConfigDict, Field, model_validator

from advisor.extract import get_extractor
from advisor.extract.accounting import account_for
from advisor.extract.base import Extractor, merge_findings
from advisor.extract.rules import RulesExtractor
from advisor.ingest import read_brief
from evals.drop_topics import CONSTRAINT_TOPIC, CONSTRAINT_WORDS
from tools.catalog.load import load_catalog
from tools.input_account import NAMED_KINDS, InputAccount
from tools.profile import PROFILE_FIELDS, WorkloadProfile
from tools.recommend import recommend
from tools.recommend.candidates import provider_matches
from tools.recommend.models import YOURS_PROVIDER

CASES_DIR = Path(__file__).resolve().parent / "cases"
REFERENCE_TIME = dt.datetime(2026, 11, 18, 9, 0, tzinfo=dt.UTC)  # a Wednesday morning
NUMBER_TOLERANCE = 0.01  # relative, for a scalar expected number
FIELD_GOAL = 0.95  # issue 4: the rules backend gets at least 95% of expected fields right
LIST_FIELDS = (
    "providers_preferred", "providers_excluded", "providers_required", "pricing_excluded", "gpus_wanted",
    "gpus_excluded",
)  # fmt: skip
REC_KEYS = (
    "primary", "single_node", "max_total_gpus", "min_total_gpus", "min_vram_gib", "eu_provider",
    "provider_not_in", "provider_in", "gpu_in", "max_nodes", "pricing_in", "pricing_not", "gpu_not_in",
    "deployment", "claim_checked",
)  # fmt: skip
# Profile fields that carry a constraint on the pick (a stated value the answer must honour or name).
CONSTRAINT_FIELDS = (
    "eu_only", "providers_required", "providers_preferred", "providers_excluded", "pricing_excluded",
    "gpus_wanted", "gpus_excluded", "max_gpus", "budget_usd", "deadline_hours", "owned_gpu",
    "owned_gpu_count", "power_price_usd_per_kwh", "latency_ms_per_token", "target_tokens_per_s",
    "ttft_target_s", "deployment_preference", "claimed_gpu", "claimed_hours",
)  # fmt: skip


class EvalCase(BaseModel):
    """One eval case as written in a cases file."""

    model_config = ConfigDict(extra="forbid")

    id: str
    text: str | None = None
    brief: str | None = None
    turns: list[str] | None = None
    reference_time: dt.datetime | None = None
    expect: dict[str, Any] = Field(default_factory=dict)
    expect_other: dict[str, Any] = Field(default_factory=dict)
    recommendation: dict[str, Any] = Field(default_factory=dict)
    source_file: str = ""

    @model_validator(mode="after")
    def _check(self) -> EvalCase:
        given = [x for x in (self.text, self.brief, self.turns) if x]
        if len(given) != 1:
            raise ValueError(f"case {self.id}: give exactly one of text, brief, turns")
        unknown = [k for k in (*self.expect, *self.expect_other) if k not in PROFILE_FIELDS]
        if unknown:
            raise ValueError(f"case {self.id}: unknown profile fields {unknown}")
        bad = [k for k in self.recommendation if k not in REC_KEYS]
        if bad:
            raise ValueError(
                f"case {self.id}: unknown recommendation checks {bad} (known: {', '.join(REC_KEYS)})"
            )
        return self


@dataclass(frozen=True)
class FieldResult:
    field: str
    expected: Any
    actual: Any
    ok: bool
    status: str | None = None  # provenance of the actual value
    evidence: str | None = None


@dataclass(frozen=True)
class CheckResult:
    check: str
    expected: Any
    actual: Any
    ok: bool


@dataclass
class CaseResult:
    id: str
    fields: list[FieldResult] = field(default_factory=list)
    checks: list[CheckResult] = field(default_factory=list)
    error: str | None = None
    seconds: float = 0.0
    profile: WorkloadProfile | None = None
    source_file: str = ""
    silent_drops: list[str] = field(default_factory=list)  # constraints neither honoured nor named
    llm_calls: int = 0  # model requests (openai backend), every retry counted
    llm_error: str | None = None  # why the model's answer was not (wholly) used
    llm_fallback: bool = False  # the rules' reading stood alone

    @property
    def ok(self) -> bool:
        return self.error is None and all(f.ok for f in self.fields) and all(c.ok for c in self.checks)

    def line(self) -> str:
        """One line for this case: mark, id, fields right, checks, time, and the model's calls."""
        nf = sum(f.ok for f in self.fields)
        mark = "ok  " if self.ok else "FAIL"
        extra = f", checks {sum(k.ok for k in self.checks)}/{len(self.checks)}" if self.checks else ""
        llm = f", {self.llm_calls} model call(s)" if self.llm_calls else ""
        llm += " FELL BACK to rules" if self.llm_fallback else ""
        ms = self.seconds * 1000
        return f"  {mark} {self.id:<36} fields {nf}/{len(self.fields)}{extra}  {ms:.1f} ms{llm}"


@dataclass
class EvalReport:
    backend: str
    cases: list[CaseResult]
    recommendation_checked: bool
    recommendation_note: str = ""
    planned: int = 0  # cases loaded; more than len(cases) when the run was stopped

    @property
    def field_results(self) -> list[FieldResult]:
        return [f for c in self.cases for f in c.fields]

    @property
    def field_accuracy(self) -> float:
        results = self.field_results
        errors = sum(len(c.fields) == 0 and c.error is not None for c in self.cases)
        total = len(results) + errors
        return sum(f.ok for f in results) / total if total else 0.0

    @property
    def per_field(self) -> dict[str, tuple[int, int]]:
        """field -> (right, expected)."""
        out: dict[str, tuple[int, int]] = {}
        for f in self.field_results:
            right, total = out.get(f.field, (0, 0))
            out[f.field] = (right + f.ok, total + 1)
        return dict(sorted(out.items()))

    @property
    def per_file(self) -> dict[str, tuple[int, int]]:
        """cases file -> (fields right, fields expected): shows how held-out batches fare."""
        out: dict[str, tuple[int, int]] = {}
        for c in self.cases:
            right, total = out.get(c.source_file, (0, 0))
            out[c.source_file] = (right + sum(f.ok for f in c.fields), total + len(c.fields))
        return out

    @property
    def per_check(self) -> dict[str, tuple[int, int]]:
        """recommendation check key -> (honoured, run)."""
        out: dict[str, tuple[int, int]] = {}
        for k in (k for c in self.cases for k in c.checks):
            right, total = out.get(k.check, (0, 0))
            out[k.check] = (right + k.ok, total + 1)
        return dict(sorted(out.items()))

    @property
    def silent_drops(self) -> int:
        """Stated constraints neither honoured by the answer nor listed as not understood."""
        return sum(len(c.silent_drops) for c in self.cases)

    @property
    def check_accuracy(self) -> float | None:
        checks = [c for case in self.cases for c in case.checks]
        return sum(c.ok for c in checks) / len(checks) if checks else None

    @property
    def meets_goal(self) -> bool:
        return self.field_accuracy >= FIELD_GOAL

    def failures(self) -> list[tuple[str, FieldResult | CheckResult | str]]:
        out: list[tuple[str, FieldResult | CheckResult | str]] = []
        for c in self.cases:
            if c.error:
                out.append((c.id, c.error))
            out.extend((c.id, f) for f in c.fields if not f.ok)
            out.extend((c.id, k) for k in c.checks if not k.ok)
        return out

    @property
    def llm_calls(self) -> int:
        return sum(c.llm_calls for c in self.cases)

    @property
    def fallbacks(self) -> int:
        return sum(c.llm_fallback for c in self.cases)

    @property
    def seconds_per_call(self) -> float | None:
        timed = [c for c in self.cases if c.llm_calls]
        calls = sum(c.llm_calls for c in timed)
        return sum(c.seconds for c in timed) / calls if calls else None

    def to_dict(self) -> dict[str, Any]:
        return {
            "backend": self.backend,
            "cases": len(self.cases),
            "cases_planned": max(self.planned, len(self.cases)),
            "llm_calls": self.llm_calls,
            "llm_fallbacks": self.fallbacks,
            "seconds_per_llm_call": self.seconds_per_call,
            "cases_passed": sum(c.ok for c in self.cases),
            "field_accuracy": self.field_accuracy,
            "field_goal": FIELD_GOAL,
            "per_field": {k: {"right": r, "expected": t} for k, (r, t) in self.per_field.items()},
            "per_file": {k: {"right": r, "expected": t} for k, (r, t) in self.per_file.items()},
            "recommendation_checked": self.recommendation_checked,
            "recommendation_note": self.recommendation_note,
            "check_accuracy": self.check_accuracy,
            "per_check": {k: {"right": r, "run": t} for k, (r, t) in self.per_check.items()},
            "silent_drops": self.silent_drops,
            "silent_drop_list": [f"{c.id}: {d}" for c in self.cases for d in c.silent_drops],
            "failures": [{"case": cid, "what": _describe(item)} for cid, item in self.failures()],
        }

    def summary(self) -> str:
        """Per-field accuracy, per-case results and failures, as plain text."""
        lines = [f"Extraction eval — backend {self.backend}: {len(self.cases)} cases, "
                 f"{sum(c.ok for c in self.cases)} fully right"]  # fmt: skip
        if self.planned > len(self.cases):
            lines.append(f"STOPPED after {len(self.cases)} of {self.planned} cases: the figures cover those")
        if self.llm_calls:
            per = self.seconds_per_call or 0.0
            lines.append(f"Model: {self.llm_calls} calls, {per:.1f} s per call, "
                         f"{self.fallbacks} case(s) fell back to the rules")  # fmt: skip
        right = sum(f.ok for f in self.field_results)
        lines.append(
            f"Fields: {right}/{len(self.field_results)} right = {self.field_accuracy:.1%} "
            f"(goal {FIELD_GOAL:.0%}: {'met' if self.meets_goal else 'NOT met'})"
        )
        if self.recommendation_checked:
            acc = self.check_accuracy
            n = sum(len(c.checks) for c in self.cases)
            lines.append(
                f"Recommendation checks: {n} run, " + (f"{acc:.1%} right" if acc is not None else "none")
            )
        else:
            lines.append(f"Recommendation checks: skipped ({self.recommendation_note})")
        lines.append(
            f"silent drops: {self.silent_drops} (stated constraints neither honoured nor named as "
            "not understood)"
        )
        lines.append("")
        lines.append("Per field:")
        for name, (r, t) in self.per_field.items():
            lines.append(f"  {name:<24} {r:>3}/{t:<3} {r / t:6.1%}")
        lines.append("")
        if self.per_check:
            lines.append("Per recommendation check:")
            for name, (r, t) in self.per_check.items():
                lines.append(f"  {name:<24} {r:>3}/{t:<3} {r / t:6.1%}")
            lines.append("")
        lines.append("Per cases file:")
        for name, (r, t) in self.per_file.items():
            lines.append(f"  {name:<28} {r:>3}/{t:<3} {r / t if t else 0:6.1%}")
        lines.append("")
        lines.append("Per case:")
        lines.extend(c.line() for c in self.cases)
        fails = self.failures()
        if fails:
            lines.append("")
            lines.append("Failures:")
            for cid, item in fails:
                lines.append(f"  {cid}: {_describe(item)}")
        drops = [f"  {c.id}: {d}" for c in self.cases for d in c.silent_drops]
        if drops:
            lines += ["", "Silent drops:", *drops]
        return "\n".join(lines)


def _describe(item: FieldResult | CheckResult | str) -> str:
    if isinstance(item, str):
        return f"error: {item}"
    if isinstance(item, FieldResult):
        ev = f" [{item.status}: {item.evidence}]" if item.evidence else ""
        return f"{item.field}: expected {item.expected!r}, got {item.actual!r}{ev}"
    return f"recommendation {item.check}: expected {item.expected!r}, got {item.actual!r}"


# --------------------------------------------------------------------------- loading
def load_cases(cases_dir: Path | None = None) -> list[EvalCase]:
    """Every case in `cases_dir`/*.yaml (a list of cases per file), ids unique."""
    root = cases_dir or CASES_DIR
    cases: list[EvalCase] = []
    for path in sorted(root.glob("*.yaml")):
        raw = yaml.safe_load(path.read_text(encoding="utf-8")) or []
        if not isinstance(raw, list):
            raise ValueError(f"{path}: expected a list of cases")
        for item in raw:
            cases.append(EvalCase.model_validate({**item, "source_file": path.name}))
    ids = [c.id for c in cases]
    dupes = sorted({i for i in ids if ids.count(i) > 1})
    if dupes:
        raise ValueError(f"duplicate case ids: {dupes}")
    return cases


def case_turns(case: EvalCase, cases_dir: Path | None = None) -> list[str]:
    """The texts the extractor sees for a case, in order."""
    if case.turns:
        return list(case.turns)
    if case.brief:
        return [read_brief((cases_dir or CASES_DIR) / case.brief)]
    return [case.text or ""]


# --------------------------------------------------------------------------- matching
@dataclass
class _Names:
    model: Callable[[str], str]
    gpu: Callable[[str], str]


def _names() -> _Names:
    try:
        cat = load_catalog()
    except Exception:  # noqa: BLE001 - matching falls back to plain strings
        return _Names(model=lambda s: s.lower(), gpu=lambda s: s.lower())

    def model(s: str) -> str:
        return str(cat.model(s).id) if cat.has_model(s) else s.lower()

    def gpu(s: str) -> str:
        return str(cat.gpu(s).id) if cat.has_gpu(s) else s.lower()

    return _Names(model=model, gpu=gpu)


def match_field(name: str, expected: Any, actual: Any, names: _Names | None = None) -> bool:
    """Whether an extracted value meets the expectation (see the module docstring)."""
    names = names or _names()
    if expected is None:
        return actual is None or actual == []
    if name in LIST_FIELDS:
        want = expected if isinstance(expected, list) else [expected]
        if name.startswith("providers_"):
            # a provider named as the user says it ("runpod") is met by the catalog's ids of that family
            # (runpod-community, runpod-secure), as the recommendation checks compare them
            return all(any(provider_matches(str(a), [w]) for a in actual or []) for w in want)
        return all(w in (actual or []) for w in want)
    if actual is None:
        return False
    if isinstance(expected, bool) or isinstance(actual, bool):
        return expected is actual
    if isinstance(expected, list) and expected and all(isinstance(x, int | float) for x in expected):
        lo, hi = expected
        return float(lo) <= float(actual) <= float(hi)
    if isinstance(expected, int | float):
        return isinstance(actual, int | float) and math.isclose(
            float(actual), float(expected), rel_tol=NUMBER_TOLERANCE
        )
    options = expected if isinstance(expected, list) else [expected]
    gpu_field = name in ("claimed_gpu", "owned_gpu")
    norm = names.model if name == "model_id" else names.gpu if gpu_field else (lambda s: s)
    return any(norm(str(o)) == norm(str(actual)) for o in options)


# --------------------------------------------------------------------------- recommendation checks
def recommender_available() -> bool:
    return importlib.util.find_spec("tools.recommend") is not None


_LIMIT_CHECKS = ("finish within", "spend at most")  # tools.recommend.expectations' deadline and budget checks


def check_recommendation(profile: WorkloadProfile, expected: dict[str, Any]) -> list[CheckResult]:
    """Run the recommender on `profile` and check the expected properties of its answer."""
    try:
        rec = recommend(profile=profile, catalog=load_catalog())
    except Exception as exc:  # noqa: BLE001 - a failing recommender fails the checks, not the eval
        return [
            CheckResult(k, v, f"recommend failed: {type(exc).__name__}: {exc}", False)
            for k, v in expected.items()
        ]
    p = rec.primary
    out: list[CheckResult] = []
    for key, want in expected.items():
        if key == "primary":
            out.append(CheckResult(key, want, p is not None, (p is not None) == bool(want)))
            continue
        if key == "claim_checked":  # the answer weighs the user's own claim about hardware and time
            claims = [c.claim for c in rec.expectation_checks if not c.claim.startswith(_LIMIT_CHECKS)]
            out.append(CheckResult(key, want, claims, bool(claims) == bool(want)))
            continue
        if p is None:
            out.append(CheckResult(key, want, "no primary", False))
            continue
        held = profile.owned_provider if p.provider == YOURS_PROVIDER and profile.owned_reserved else None
        if held and key in ("provider_in", "provider_not_in"):
            # a pick on a held cloud reservation runs at that cloud (expert review 12 policy: held capacity is
            # owned and answered on first; evals/cases_v7 and v13 agree)
            out.append(_check_option(key, want, p.model_copy(update={"provider": held})))
            continue
        out.append(_check_option(key, want, p))
    return out


def _options(want: Any) -> list[Any]:
    return list(want) if isinstance(want, list | tuple) else [want]


def _check_option(key: str, want: Any, p: Any) -> CheckResult:
    """One property of the primary option (tools.recommend.models.Option)."""
    actual: Any
    if key == "single_node":
        # serving replicas are independent copies: each on one node needs no multi-node set-up, which is what
        # the check asks (Option.nodes counts every replica's nodes; issue 14 sizes replicas at their share)
        replicas = p.serving.replicas if p.serving is not None else 1
        actual = p.nodes
        ok = (p.nodes <= replicas) == bool(want)
    elif key == "max_nodes":
        actual, ok = p.nodes, p.nodes <= want
    elif key == "max_total_gpus":
        actual, ok = p.total_gpus, p.total_gpus <= want
    elif key == "min_total_gpus":
        actual, ok = p.total_gpus, p.total_gpus >= want
    elif key == "min_vram_gib":
        actual, ok = p.vram_gib_per_gpu, p.vram_gib_per_gpu >= want
    elif key == "eu_provider":
        # in the EU by the offer's region, or at a provider whose sourced region list has EU data centres
        # (tools/recommend/regions.py: EU only keeps both since expert review 19, R12)
        actual = bool(getattr(p, "eu", False)) or "eu" in getattr(p, "areas", ())
        ok = actual is bool(want)
    elif key == "provider_not_in":
        actual, ok = p.provider, not provider_matches(p.provider, _options(want))
    elif key == "provider_in":
        actual, ok = p.provider, provider_matches(p.provider, _options(want))
    elif key == "pricing_in":
        actual, ok = p.pricing, p.pricing in _options(want)
    elif key == "pricing_not":
        actual, ok = p.pricing, p.pricing not in _options(want)
    elif key == "gpu_not_in":
        actual, ok = p.gpu, p.gpu not in _options(want)
    elif key == "deployment":
        actual, ok = p.deployment, p.deployment in _options(want)
    else:  # gpu_in
        actual, ok = p.gpu, p.gpu in _options(want)
    return CheckResult(key, want, actual, ok)


# --------------------------------------------------------------------------- running
def _anchor(extractor: Extractor, when: dt.datetime) -> Extractor:
    """The extractor pinned at `when` when it supports it (`with_reference_time`), else as is."""
    pin = getattr(extractor, "with_reference_time", None)
    return pin(when) if callable(pin) else extractor


def run_case(
    case: EvalCase, extractor: Extractor, cases_dir: Path | None = None, check_rec: bool = False
) -> CaseResult:
    result = CaseResult(id=case.id, source_file=case.source_file)
    names = _names()
    ex = _anchor(extractor, case.reference_time or REFERENCE_TIME)
    try:
        texts = case_turns(case, cases_dir)
        t0 = time.perf_counter()
        profile: WorkloadProfile | None = None
        for text in texts:
            profile = ex.extract(text, profile)
            result.llm_calls += int(getattr(ex, "calls", 0) or 0)
            result.llm_error = getattr(ex, "last_error", None) or result.llm_error
            result.llm_fallback = result.llm_fallback or bool(getattr(ex, "fell_back", False))
        result.seconds = time.perf_counter() - t0
    except Exception as exc:  # noqa: BLE001 - one broken case must not stop the eval
        result.error = f"{type(exc).__name__}: {exc}"
        return result
    assert profile is not None
    result.profile = profile
    account = _account(texts, case.reference_time or REFERENCE_TIME)
    result.fields.extend(_fields(case.expect, profile, names))
    if case.expect_other:
        other = account.other_workload or WorkloadProfile()
        result.fields.extend(_fields(case.expect_other, other, names, prefix="other."))
    if check_rec and case.recommendation:
        result.checks = check_recommendation(profile, case.recommendation)
    result.silent_drops = silent_drops(case, result, account)
    return result


def _fields(
    expect: dict[str, Any], profile: WorkloadProfile, names: _Names, prefix: str = ""
) -> list[FieldResult]:
    out = []
    for name, want in expect.items():
        actual = getattr(profile, name)
        prov = profile.provenance.get(name)
        out.append(
            FieldResult(
                field=prefix + name,
                expected=want,
                actual=actual,
                ok=match_field(name, want, actual, names),
                status=prov.status if prov else None,
                evidence=prov.evidence if prov else None,
            )
        )
    return out


def _account(texts: list[str], when: dt.datetime) -> InputAccount:
    """The accounting of every turn's text, merged (what the replies said they did not use); read with the
    rules pinned at the case's reference time, so the other workload's dates are anchored as the
    profile's are (an unpinned reading would count "by 4 January" from the day the eval runs)."""
    merged: InputAccount | None = None
    rules = RulesExtractor(reference_time=when)
    prior: WorkloadProfile | None = None
    for text in texts:
        # each turn read with the earlier turns' profile, as the conversation reads it (a turn that goes
        # on from the last one, "after that we'd serve it to ~120 users", is a second workload only so)
        analysis = rules.analyse(text, prior)
        account = account_for(text, WorkloadProfile(), analysis=analysis)
        merged = account if merged is None else merged.merged(account)
        prior = merge_findings(prior, analysis.findings)
    return merged or InputAccount()


def _stated(want: Any) -> bool:
    return want is not None and want is not False and want != []


def silent_drops(case: EvalCase, result: CaseResult, account: InputAccount) -> list[str]:
    """The case's stated constraints that were neither honoured (field read right, check met) nor named in
    the accounting as not understood (an unused clause of a named kind on the constraint's topic)."""
    failed = [f.field for f in result.fields
              if f.field in CONSTRAINT_FIELDS and _stated(f.expected) and not f.ok]  # fmt: skip
    failed += [k.check for k in result.checks if k.check != "primary" and not k.ok]
    named = [c.text for c in account.unused if c.kind in NAMED_KINDS]
    out = []
    for key in failed:
        words = re.compile(CONSTRAINT_WORDS[CONSTRAINT_TOPIC.get(key, "question")], re.I)
        if not any(words.search(text) for text in named):
            out.append(key)
    return out


def run_eval(
    backend: str = "rules",
    extractor: Extractor | None = None,
    cases_dir: Path | None = None,
    *,
    recommendations: bool = True,
    on_case: Callable[[CaseResult], None] | None = None,
) -> EvalReport:
    """Score `extractor` (or the one registered as `backend`) on every case; see EvalReport.summary().

    `recommendations=False` skips the recommendation checks (extraction only, faster). `on_case` is
    called with each case's result as soon as it is scored (the CLI prints it, so a slow model's run
    shows its progress); a run stopped with Ctrl-C returns the cases done so far (`planned` says how
    many were loaded).
    """
    if extractor is None:
        extractor = get_extractor(backend)
    cases = load_cases(cases_dir)
    check_rec = recommendations and recommender_available()
    if not recommendations:
        note = "not requested"
    else:
        note = "" if check_rec else "tools/recommend/ is not in the tree yet"
    results: list[CaseResult] = []
    try:
        for c in cases:
            results.append(run_case(c, extractor, cases_dir, check_rec))
            if on_case is not None:
                on_case(results[-1])
    except KeyboardInterrupt:  # a stopped run still reports what it did
        pass
    return EvalReport(
        backend=getattr(extractor, "name", backend), cases=results, recommendation_checked=check_rec,
        recommendation_note=note, planned=len(cases),
    )  # fmt: skip


if __name__ == "__main__":  # python -m evals.harness [backend]
    report = run_eval(sys.argv[1] if len(sys.argv) > 1 else "rules")
    print(report.summary())
    sys.exit(0 if report.meets_goal else 1)
