"""Spoken or informal serving constraints (expert review 13, R08): a time to first token in words before
"to first token", and US hosting said as where to get the GPUs (advisor/extract/rules_ttft.py,
advisor/extract/rules_region_words.py). Near misses: a place said of the users or the company, a negated
place, a number of seconds that bounds something else."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tools.profile import WorkloadProfile

Extract = Callable[..., WorkloadProfile]
R08 = (
    "okay so um we have a chatbot on llama three point one eight B and we expect maybe two hundred users at "
    "the same time and we want it to feel fast like under half a second to first token, what GPUs should we "
    "get in the US, period"
)


def test_r08_reads_both(extract: Extract) -> None:
    p = extract(R08)
    assert p.ttft_target_s == 0.5
    assert p.us_only is True


@pytest.mark.parametrize(
    ("words", "seconds"),
    [
        ("under half a second to first token", 0.5),
        ("less than a second to the first token", 1.0),
        ("within two seconds to first token", 2.0),
        ("at most a quarter of a second to first token", 0.25),
        ("under 300 ms to first token", 0.3),
    ],
)
def test_ttft_in_words(extract: Extract, words: str, seconds: float) -> None:
    p = extract(f"Serve Llama 3.1 8B to 100 concurrent users, {words}.")
    assert p.ttft_target_s == pytest.approx(seconds), words


def test_seconds_of_something_else_are_no_ttft(extract: Extract) -> None:
    p = extract("Serve Llama 3.1 8B to 100 concurrent users, answers under two seconds in total.")
    assert p.ttft_target_s is None


@pytest.mark.parametrize(
    "text",
    [
        "Serve Llama 3.1 8B to 100 users; what GPUs should we get in the US?",
        "We want to rent H100s in the United States for Llama 3.1 70B serving, 50 users.",
        "Llama 3.1 8B chatbot for 80 users, servers in the US please.",
        "Llama 3.1 8B chatbot for 80 users on US-based hosting.",
    ],
)
def test_us_hosting_words(extract: Extract, text: str) -> None:
    assert extract(text).us_only is True, text


@pytest.mark.parametrize(
    "text",
    [
        "Serve Llama 3.1 8B to 100 users; most of our users are in the US.",
        "We're a US company serving Llama 3.1 8B to 100 users.",
        "Serve Llama 3.1 8B to 100 users, GPUs anywhere but in the US.",
        "Serve Llama 3.1 8B to 100 users; we can't run it in the US for legal reasons.",
    ],
)
def test_us_said_of_others_or_negated_is_not_read(extract: Extract, text: str) -> None:
    assert extract(text).us_only is not True, text
