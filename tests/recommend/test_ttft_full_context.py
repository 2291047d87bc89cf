"""A TTFT target with a stated context and no prompt is checked for a full-context prompt
(tools/ttft_prompt.py; expert review 20, P16b); a stated prompt, or no TTFT target, leaves it alone."""

from __future__ import annotations

from tools.catalog.load import Catalog
from tools.compute.serving_constants import OUTPUT_TOKENS_DEFAULT
from tools.defaults import resolve_workload
from tools.profile import Provenance, WorkloadProfile
from tools.ttft_prompt import ttft_prompt_tokens


def _serving(**values: object) -> WorkloadProfile:
    stated = {k: Provenance(status="stated") for k in values}
    return WorkloadProfile(
        model_id="qwen2.5-32b", workload="inference", concurrency=3, provenance=stated, **values
    )


def test_ttft_with_context_and_no_prompt_assumes_a_full_context_prompt(catalog: Catalog) -> None:
    w = resolve_workload(profile=_serving(ttft_target_s=10.0, context_len=100_000), catalog=catalog)
    assert w.profile.prompt_tokens == 100_000 - OUTPUT_TOKENS_DEFAULT
    assert w.profile.status_of("prompt_tokens") == "assumed"
    assert any(a.name.startswith("prompt_tokens") for a in w.assumptions)


def test_a_stated_prompt_or_no_ttft_target_is_left_alone(catalog: Catalog) -> None:
    w = resolve_workload(profile=_serving(ttft_target_s=10.0, context_len=100_000, prompt_tokens=2000),
                         catalog=catalog)  # fmt: skip
    assert w.profile.prompt_tokens == 2000
    w = resolve_workload(profile=_serving(context_len=100_000), catalog=catalog)
    assert w.profile.prompt_tokens is None


def _rule(**kw: object) -> int | None:
    return ttft_prompt_tokens(prompt_tokens=None, output_tokens=500, **kw)  # type: ignore[arg-type]


def test_rule_edges() -> None:
    assert _rule(ttft_target_s=1.0, context_len=8192) == 7692
    assert _rule(ttft_target_s=1.0, context_len=None) is None
    assert _rule(ttft_target_s=1.0, context_len=400) is None
    assert _rule(ttft_target_s=None, context_len=8192) is None
