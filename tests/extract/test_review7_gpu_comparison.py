"""Expert review 7, R02: GPUs set side by side ("H100 vs H200 vs L40S") are read as gpus_compared and the
answer shows each one's best option (fit, speed, cost) or why it has none."""

from __future__ import annotations

import pytest

from advisor.api import ask
from advisor.extract.rules import RulesExtractor
from tests.extract.test_review7_capex import R02


def test_review_phrasing_is_a_comparison() -> None:
    assert RulesExtractor().extract(R02).gpus_compared == ["h100-sxm", "h200", "l40s"]


@pytest.mark.parametrize(
    ("text", "compared"),
    [
        ("Compare H100, H200 and L40S for serving Llama 3 70B.", ["h100-sxm", "h200", "l40s"]),
        ("Which is better for us, A100 80GB or H100? Serve Llama 3 8B.", ["a100-80gb-sxm", "h100-sxm"]),
        ("Serve Llama 3 8B: L40S versus H100?", ["l40s", "h100-sxm"]),
    ],
)
def test_other_wordings(text: str, compared: list[str]) -> None:
    assert RulesExtractor().extract(text).gpus_compared == compared


@pytest.mark.parametrize(
    "text",
    ["We own H100s and rent H200s for Llama 3 8B.", "H100 and H200 are both fine for serving Llama 3 8B."],
)
def test_a_list_that_compares_nothing_is_not_a_comparison(text: str) -> None:
    assert RulesExtractor().extract(text).gpus_compared == []


def test_the_answer_covers_every_compared_gpu() -> None:
    out = ask(R02)
    rec = out["recommendation"]
    shown = [rec["primary"], *rec["alternatives"]]
    reply = str(out["reply"])
    for family, name in (("h100", "H100"), ("l40s", "L40S")):
        assert any(o["gpu"].startswith(family) for o in shown), family
        assert f"NVIDIA {name}" in reply
    # the H200 server is over the capex budget: said, with its purchase price
    assert "h200, one of the GPUs you compared" in reply and "capex budget" in reply
