"""The number parser and check: names are not numbers, presentation rounding and unit forms are
tolerated, anything else is rejected."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from advisor.llm.numbers import AllowedNumbers, check_numbers, extract_numbers, numbers_in, user_numbers
from tools.trace import TraceBuilder, Traced


def values(text: str) -> list[float]:
    return [m.value for m in extract_numbers(text)]


@pytest.mark.parametrize(
    "text",
    [
        "H100 and A100",
        "Llama-3.1 or llama3",
        "us-east-1",
        "Mixtral 8x7B",
        "gpt-4o",
        "the 1st run",
        "4-bit QLoRA",
        "L40S",
        "a 6ND estimate",
    ],
)
def test_names_are_not_numbers(text: str) -> None:
    assert values(text) == []


def test_forms_of_numbers() -> None:
    ms = extract_numbers("$1,064, 1.3k, 47 GB, 30%, 8x H100, 70B, 2 weeks, 5 million, 120 h")
    assert [(m.value, m.unit) for m in ms] == [
        (1064, None),
        (1300, None),
        (47, "GB"),
        (30, "%"),
        (8, "x"),
        (70e9, None),
        (2, "week"),
        (5e6, None),
        (120, "h"),
    ]


def test_list_markers_are_skipped() -> None:
    assert values("1. first\n2) second\n- 3. third") == []


@pytest.mark.parametrize(
    ("reply", "allowed"),
    [
        ("$1,064", [1064.2]),  # rounding to the dollar
        ("$1,063", [1063.6]),  # truncation within 0.5 %
        ("1.1k dollars", [1064.2]),  # k form at two significant digits
        ("$1.06k", [1064.2]),
        ("47 GB", [43.77]),  # GiB shown as GB
        ("44 GiB", [43.77]),
        ("30%", [0.30]),  # fraction as a percentage
        ("6 days", [141.3]),  # hours as days
        ("2 weeks", [336.0]),
        ("1.26 TB", [1260.0]),  # GB as TB
        ("354 GPU-hours", [354.2]),
    ],
)
def test_tolerated_presentations(reply: str, allowed: list[float]) -> None:
    assert check_numbers(reply, allowed).ok


@pytest.mark.parametrize(
    ("reply", "allowed"),
    [
        ("$1,000", [1064.2]),  # one significant digit is too coarse
        ("$1,100", [1000.0]),
        ("100 GB", [140.0]),
        ("about 236 hours", [354.0]),
        ("31%", [0.30]),
        ("$588", [1064.0, 354.0, 2.8]),  # the model multiplied by itself
    ],
)
def test_rejected(reply: str, allowed: list[float]) -> None:
    check = check_numbers(reply, allowed)
    assert not check.ok and check.unsupported


def test_numbers_in_traced_results_and_strings() -> None:
    tb = TraceBuilder()
    tb.step("gpu_hours", "6ND / flops", 354.2, "h", params=70e9, tokens=3e9)
    result = Traced(**tb.fields())
    got = numbers_in({"result": result, "text": "costs $2.80/h (H100)", "json": '{"a": 7}'})
    assert {354.2, 70e9, 3e9, 2.8, 7.0} <= set(got)


def test_user_numbers_include_words_and_mantissas() -> None:
    assert {5000.0, 5.0, 2.0, 12.0} <= set(user_numbers("about $5k, two weeks, a dozen runs"))


def test_allowed_numbers_ledger() -> None:
    allowed = AllowedNumbers()
    allowed.add_user_text("budget $5k")
    allowed.add_values([354.2], kind="time")  # a figure naming a quantity needs a value of that quantity
    assert allowed.check("Your $5k buys 354 GPU-hours.").ok
    assert not allowed.check("Your $5k buys 400 GPU-hours.").ok


@given(st.floats(min_value=0.01, max_value=1e7, allow_nan=False))
def test_any_value_presented_with_thousands_separators_passes(x: float) -> None:
    assert check_numbers(f"about {x:,.0f} or {x:,.2f} units", [x]).ok


@given(st.floats(min_value=1, max_value=1e6), st.floats(min_value=1.05, max_value=3))
def test_a_value_off_by_more_than_rounding_fails(x: float, factor: float) -> None:
    assert not check_numbers(f"{x * factor:,.2f}", [x]).ok


def test_minutes_and_ranges_take_their_unit() -> None:
    allowed = AllowedNumbers()
    allowed.add_tool_result({"wall_hours_low": 0.5, "wall_hours_high": 0.98})
    assert allowed.check("fastest: 30-59 min").ok
    assert not allowed.check("fastest: 30-75 min").ok  # 75 min is 1.25 h: no tool said so
    assert not allowed.check("fastest: 31-59 min").ok
