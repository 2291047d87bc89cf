"""A JSON request body or a Python dict of settings read as key/value rows (evals v14, development data;
issue 12), with variants of our own and near misses."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from advisor.extract.json_rows import json_rows, settings_key
from tools.profile import WorkloadProfile

Extract = Callable[..., WorkloadProfile]


def test_notebook_dict_of_serving_targets(extract: Extract) -> None:
    p = extract(
        "Serving plan for DeepSeek-V3\nSLA = {\n"
        '    "concurrent_requests": 48,\n    "prompt_tokens": 6000,   # long traces\n'
        '    "max_new_tokens": 1000,\n    "ttft_s": 3.0,\n    "tokens_per_s_per_request": 20,\n}'
    )
    assert (p.concurrency, p.prompt_tokens, p.output_tokens) == (48, 6000, 1000)
    assert p.ttft_target_s == 3.0
    assert p.latency_ms_per_token == 50.0  # 1000 ms / 20 tokens/s


def test_json_body_with_money_list_and_boolean(extract: Extract) -> None:
    p = extract(
        '{\n  "model": "meta-llama/Llama-3.1-8B-Instruct",\n  "algorithm": "DPO",\n  "epochs": 1,\n'
        '  "provider_allowlist": ["lambda"],\n  "allow_spot": false,\n'
        '  "budget": {"amount": 2600, "currency": "CAD"}\n}'
    )
    assert p.epochs == 1
    assert p.providers_required == ["lambda"]
    assert "spot" in p.pricing_excluded
    assert p.budget_usd is not None and 1700 < p.budget_usd < 2100  # CAD 2,600 at the catalog's rate


@pytest.mark.parametrize(
    ("key", "value", "out"),
    [
        ("max_tokens", "512", ("max output tokens", "512")),
        ("gpu_blocklist", "L4", ("excluded gpus", "L4")),
        ("budget_usd", "900", ("budget", "900 usd")),
        ("latency_ms", "40", ("latency", "40 ms")),
        ("team_size", "4", ("team size", "4")),  # no unit suffix: the words only
        ("budget_usd", "TBD", ("budget usd", "TBD")),  # not a number: the unit stays in the key
    ],
)
def test_settings_keys(key: str, value: str, out: tuple[str, str]) -> None:
    assert settings_key(key, value) == out


@pytest.mark.parametrize(
    "text",
    [
        'He said "budget": 5000 in the call, then left.',  # one quoted key in prose
        '"a": 1,\n"b": 2,\nthat is all',  # two lines, not a body
    ],
)
def test_prose_quotes_are_left_alone(text: str) -> None:
    assert json_rows(text) == text
