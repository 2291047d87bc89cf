"""tools/recommend/shared_box.py (one box for a serving and a training workload) and regions.elsewhere_note (a
place outside the US and the EU), on hand-built options: the arithmetic is sums and a share of the month."""

from __future__ import annotations

import pytest

from tools.profile import WorkloadProfile
from tools.ranges import Range
from tools.recommend.models import Option, Recommendation
from tools.recommend.regions import elsewhere_note, reaches_elsewhere
from tools.recommend.shared_box import CLAIM_PREFIX, one_box_check
from tools.units import HOURS_PER_MONTH


def _option(total: int, peak: float, usable: float, hours: Range, cost: Range) -> Option:
    return Option.model_construct(
        gpu="a100-80gb-pcie", gpu_name="NVIDIA A100 80GB PCIe", total_gpus=total, provider="runpod-community",
        peak_gib_per_gpu=peak, vram_gib_per_gpu=usable, wall_hours=hours, cost_usd=cost,
    )  # fmt: skip


def _rec(profile: WorkloadProfile, primary: Option | None) -> Recommendation:
    return Recommendation.model_construct(profile=profile, primary=primary, expectation_checks=())


SERVING = WorkloadProfile(workload="inference", model_id="mixtral-8x7b", concurrency=20, budget_usd=2000)
TRAINING = WorkloadProfile(workload="fine_tuning", model_id="llama-3-8b", method="qlora", runs_per_month=2)
BOX = _option(2, 49.9, 79.6, Range(low=730, high=730), Range(low=1737, high=2259))


def test_one_box_fits_beside_the_endpoint_and_counts_the_month() -> None:
    run = _option(1, 11.2, 79.6, Range(low=0.9, high=1.6), Range(low=1, high=2))
    check = one_box_check(_rec(SERVING, BOX), _rec(TRAINING, run), TRAINING)
    assert check is not None and check.verdict == "holds" and check.claim.startswith(CLAIM_PREFIX)
    assert check.factor == pytest.approx(1.6 * 2 / HOURS_PER_MONTH)  # high end x runs per month / 730 h
    assert "fits beside the running endpoint" in check.explanation
    assert "budget at its low end" in check.explanation  # $1,737 under, $2,259 over the $2,000


def test_one_box_needs_a_pause_when_memory_does_not_add_up() -> None:
    run = _option(2, 40.0, 79.6, Range(low=3, high=5), Range(low=10, high=20))
    check = one_box_check(_rec(SERVING, BOX), _rec(TRAINING, run), TRAINING)
    assert check is not None and check.verdict == "holds"
    assert "while the endpoint is paused" in check.explanation  # 49.9 + 40.0 > 79.6 GiB


def test_one_box_no_when_training_has_no_set_up_on_it() -> None:
    check = one_box_check(_rec(SERVING, BOX), _rec(TRAINING, None), TRAINING)
    assert check is not None and check.verdict == "cannot_hold"
    assert check.explanation.startswith("No, not on one box")


def test_one_box_nothing_without_a_serving_pick() -> None:
    assert one_box_check(_rec(SERVING, None), _rec(TRAINING, None), TRAINING) is None


JAPAN = WorkloadProfile(region_asked="Japan")


def test_elsewhere_note_by_what_the_catalog_knows() -> None:
    listed = elsewhere_note(provider="runpod-secure", region=None, eu=False, areas=("us", "eu", "other"),
                            deployment="cloud", p=JAPAN)  # fmt: skip
    assert listed is not None and "confirm Japan at launch" in listed
    unlisted = elsewhere_note(provider="spheron", region=None, eu=False, areas=(), deployment="cloud",
                              p=JAPAN)  # fmt: skip
    assert unlisted is not None and unlisted.startswith("Japan not confirmed")
    placed = elsewhere_note(provider="nebius", region="eu-north1", eu=True, areas=(), deployment="cloud",
                            p=JAPAN)  # fmt: skip
    assert placed is not None and placed.startswith("not in Japan")
    owned = elsewhere_note(provider="your data centre", region=None, eu=False, areas=(), deployment="owned",
                           p=JAPAN)  # fmt: skip
    assert owned is None  # the team places its own hardware


def test_elsewhere_note_only_when_a_place_is_asked() -> None:
    none = WorkloadProfile()
    said = elsewhere_note(provider="aws", region="us-east-1", eu=False, areas=(), deployment="cloud", p=none)
    assert said is None
    assert reaches_elsewhere((), "cloud", none) and not reaches_elsewhere(("us", "eu"), "cloud", JAPAN)
