"""Expert review 9's reading: "We cannot use H100s" excludes them (it was read as wanting them, R14); "it
must be in Europe" / ", must be in the EU" is EU only (R06, R17); a team that must be somewhere is not."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tools.profile import WorkloadProfile

Extract = Callable[..., WorkloadProfile]
JOB = "LoRA Llama 3.1 8B on 200M tokens. "
H100S = ["h100-pcie", "h100-sxm", "h100-nvl"]


@pytest.mark.parametrize(
    "text", ["We cannot use H100s.", "We can not use H100s, only Lambda.", "We must not use H100s for this."]
)
def test_cannot_use_excludes(extract: Extract, text: str) -> None:
    p = extract(JOB + text)
    assert sorted(p.gpus_excluded) == sorted(H100S) and not p.gpus_wanted


@pytest.mark.parametrize(
    "text",
    [
        "It must be in Europe.",
        "The data must be in Europe.",
        "It must be in the EU and we'd like to stay under $6k/month.",  # R17 turn 3
        "DPO on Qwen2.5 14B, must be in Europe.",  # R06
        "Everything has to run in the EU.",
    ],
)
def test_must_be_in_europe_is_eu_only(extract: Extract, text: str) -> None:
    assert extract(JOB + text).eu_only is True


@pytest.mark.parametrize(
    "text",
    [
        "It does not have to be in the EU.",
        "It doesn't have to be in the EU.",
        "We need to be in Europe by Friday for the demo.",
        "The team must meet in Europe next week.",
    ],
)
def test_not_a_residency_rule(extract: Extract, text: str) -> None:
    assert extract(JOB + text).eu_only is None
