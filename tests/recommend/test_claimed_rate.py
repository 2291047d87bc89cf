"""Expert review 12, R08: "vendor says 8x H100 can serve Llama 3.1 405B in FP8 at 2,000 tokens/s aggregate
output. Is that realistic?" The claimed rate is checked on the claimed set-up (tools/recommend/claim_rate.py):
from how many streams it is reached, or at the stated concurrency whether it is."""

from __future__ import annotations

import re

from advisor.service.profiles import profile_from_mapping
from advisor.service.recommending import recommend_for
from tools.catalog.load import load_catalog

R08 = {
    "workload": "inference",
    "model_id": "llama-3.1-405b",
    "precision": "fp8",
    "target_tokens_per_s": 2000,
    "claimed_gpu": "h100-sxm",
    "claimed_gpu_count": 8,
}
WEIGHTS_GB = 405.0  # Llama 3.1 405B at FP8: 405e9 parameters x 1 byte (the size in its name)


def _rate_high(text: str) -> float:
    """The high end of the first 'A – B tokens/s' range in `text`."""
    m = re.search(r"[\d,]+ – ([\d,]+) tokens/s", text)
    assert m, text
    return float(m.group(1).replace(",", ""))


def test_the_claimed_rate_says_from_how_many_streams_it_is_reached() -> None:
    profile, settings = profile_from_mapping(R08)
    rec, catalog = recommend_for(profile, settings=settings)
    check = next(c for c in rec.expectation_checks if "on 8x" in c.claim)
    assert check.claim.startswith("serve 2,000 tokens/s on 8x")
    assert check.verdict in ("tight", "holds")
    m = re.search(r"from about ([\d,]+) concurrent streams", check.explanation)
    assert m, check.explanation
    streams = int(m.group(1).replace(",", ""))
    # a decode step reads every weight once for all streams in flight: 8 streams on 8x H100 are capped at
    # 8 x 8 x 3.35 TB/s / 405 GB ~ 529 tokens/s, so 2,000 tokens/s needs far more than 8 streams
    bw_tb_per_s = catalog.gpu("h100-sxm").memory_bandwidth_tb_per_s
    ceiling_8 = 8 * 8 * bw_tb_per_s * 1e12 / (WEIGHTS_GB * 1e9)
    assert streams > 8
    assert "at 8 streams it is" in check.explanation
    at_8 = check.explanation.split("at 8 streams it is", 1)[1]
    assert _rate_high(at_8) <= ceiling_8, at_8


def test_at_a_stated_load_the_claim_is_judged_there() -> None:
    profile, settings = profile_from_mapping({**R08, "concurrency": 8})
    rec, _ = recommend_for(profile, settings=settings)
    check = next(c for c in rec.expectation_checks if "on 8x" in c.claim)
    assert check.verdict == "cannot_hold"
    assert check.explanation.startswith("No: at the stated 8 concurrent streams")
    assert _rate_high(check.explanation) < 2000


def test_no_claimed_rate_leaves_the_fit_answer() -> None:
    profile, settings = profile_from_mapping({k: v for k, v in R08.items() if k != "target_tokens_per_s"})
    rec, _ = recommend_for(profile, settings=settings)
    check = next(c for c in rec.expectation_checks if "on 8x" in c.claim)
    assert check.claim.startswith("serve it on 8x") and "fits" in check.explanation


def test_the_catalog_bandwidth_used_above_is_the_h100s() -> None:
    assert load_catalog(None).gpu("h100-sxm").memory_bandwidth_tb_per_s == 3.35  # NVIDIA H100 SXM datasheet
