"""Presentation rounding: the only place the report rounds (the engine keeps full precision)."""

from __future__ import annotations

import pytest

from reports.charts import clip_text, nice_ticks
from reports.labels import FIELD_LABELS, field_value
from tools import present as f
from tools.profile import WorkloadProfile
from tools.ranges import Range


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (0.09, "$0.09"),
        (2.8, "$2.80"),
        (45, "$45"),
        (991.2, "$991"),
        (1063.6, "$1,064"),
        (1.26e6, "$1.26M"),
        (0, "$0"),
        (None, "—"),
    ],
)
def test_usd(value: float | None, text: str) -> None:
    assert f.usd(value) == text


def test_ranges_collapse_when_ends_round_alike() -> None:
    assert f.usd_range(Range(low=991.2, high=2203.4)) == "$991 – $2,203"
    assert f.usd_range(Range(low=45.1, high=44.9 + 0.3)) == "$45"
    assert f.hours_range(Range(low=354, high=787)) == "354 – 787 h (14.8 – 32.8 days)"
    assert f.hours_range(Range(low=7.25, high=9.5)) == "7.2 – 9.5 h"  # no days under 48 h
    assert f.gpu_hours_range(Range(low=654, high=2197)) == "654 – 2,197 GPU-h"


def test_a_sub_hour_run_reads_in_minutes_or_seconds_everywhere() -> None:
    # before: '0.2 – 0.2 h' in the report and web, '9 – 14 min' in chat, '0 – 1 min' for a 20-second run
    assert f.hours_range(Range(low=0.15, high=0.23)) == "9 – 14 min"
    assert f.hours_range(Range(low=0.006, high=0.02)) == "22 s – 1 min"
    assert f.hours_range(Range(low=0.004, high=0.011)) == "14 – 40 s"
    assert f.hours_range(Range(low=0.9, high=1.2)) == "0.9 – 1.2 h"  # an hour or more: hours
    assert f.gpu_hours_range(Range(low=0.1, high=0.2)) == "0.1 – 0.2 GPU-h"


def test_units_and_unknowns() -> None:
    assert f.gib(47.34) == "47.3 GiB"
    assert f.gb(500) == "500 GB" and f.gb(1260) == "1.26 TB"
    assert f.pct(0.3) == "30%"
    assert f.count(70.6e9) == "70.6B" and f.count(2048) == "2,048"
    assert f.usd_rate(2.8) == "$2.80/GPU-h" and f.usd_rate(0.09, "GB") == "$0.09/GB"
    assert f.number(7.055e10) == "7.055 × 10¹⁰" and f.number(-3.2e-7) == "-3.2 × 10⁻⁷"
    assert f.number(0.00015) == "0.00015" and f.number(2048) == "2,048"
    assert f.number(1.26e21) == "1.26 × 10²¹" and f.number(True) == "yes" and f.number(None) == "—"


def test_chart_helpers() -> None:
    assert nice_ticks(179.1) == [0, 50, 100, 150, 200]
    assert nice_ticks(0) == [0.0, 1.0]
    assert clip_text("8× NVIDIA B200 (HGX, 180GB)", 60, 10).endswith("…")
    assert clip_text("short", 200, 10) == "short"


def test_every_profile_field_has_a_label_a_person_reads() -> None:
    # before: 'power price usd per kwh 0.12' in the report's workload table
    missing = [f for f in WorkloadProfile.model_fields if f != "provenance" and f not in FIELD_LABELS]
    assert missing == []
    assert field_value("power_price_usd_per_kwh", 0.12) == "$0.12/kWh"
    assert field_value("generation_tokens", 1.5e9) == "1.5B tokens"


def test_a_first_token_range_across_one_second_keeps_each_end_readable() -> None:
    # before: 'Time to first token 0.0329 – 1.32 s' (DeepSeek-V3 on 16x MI300X)
    assert f.seconds_range(Range(low=0.0329, high=1.32)) == "32.9 ms – 1.32 s"
    assert f.seconds_range(Range(low=1.2, high=3.4)) == "1.20 – 3.40 s"


@pytest.mark.parametrize(
    ("value", "text"),
    [(0.74, "0.74"), (8.66, "8.7"), (154.3, "150"), (1234.0, "1,200"), (99.6, "100"), (1.0, "1")],
)
def test_two_significant_figures_never_in_scientific_notation(value: float, text: str) -> None:
    # Python's .2g wrote a 154x 'off by' factor as '1.5e+02×' in the report's expectations table, and a
    # 120 s answer as '1.2e+02 s' in the serving lines
    assert f.sig2(value) == text
    assert f.sig2_span(Range(low=0.74, high=154.3)) == "0.74-150"
