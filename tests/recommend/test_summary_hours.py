"""Option.summary prints short runs readably: '3 – 6 min', '2.1 – 4.0 h', '42 – 83 h' (was '0 h'), and
money as the report does."""

from __future__ import annotations

import pytest

from tools.ranges import Range
from tools.recommend.models import Option


def _option(low: float, high: float) -> Option:
    return Option(
        gpu="h100-sxm",
        gpus_per_node=8,
        nodes=1,
        total_gpus=8,
        vram_gib_per_gpu=79.6,
        peak_gib_per_gpu=20.0,
        provider="lambda",
        pricing="on_demand",
        usd_per_gpu_hour=2.99,
        wall_hours=Range(low=low, high=high),
        cost_usd=Range(low=2.0, high=4.0),
    )


@pytest.mark.parametrize(
    ("low", "high", "text"),
    [(0.05, 0.1, "3 – 6 min"), (2.1, 4.0, "2.1 – 4.0 h"), (42.2, 82.7, "42 – 83 h"), (0.5, 0.5, "30 min")],
)
def test_summary_hours(low: float, high: float, text: str) -> None:
    s = _option(low, high).summary
    assert f": {text}, $" in s, s


def test_summary_money_reads_as_in_the_report() -> None:
    """The chat and Slack line write a cost as the PDF does: '$1.26M', not '$1,262,345' (issue 11)."""
    opt = _option(42.2, 82.7).model_copy(update={"cost_usd": Range(low=191_818.0, high=1_262_345.0)})
    assert opt.summary.endswith(": 42 – 83 h, $191,818 – $1.26M")
