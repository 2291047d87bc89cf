"""A day's count of users is not a concurrency (expert review 7, R05: "500 users per day, maximum 30 in same
time" was 500 at once); the figure at once is ("30 in same time", a non-native writer's form)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tools.profile import WorkloadProfile

Extract = Callable[..., WorkloadProfile]


@pytest.mark.parametrize(
    ("text", "n"),
    [
        ("We want chatbot with Llama 3.1 8B, maybe 500 users per day, maximum 30 in same time.", 30),
        ("Chatbot on Llama 3.1 8B, 2000 daily users, peak 40 concurrent.", 40),
        ("Chatbot on Llama 3.1 8B for 500 users.", 500),  # no period: still read as users served at once
    ],
)
def test_the_figure_at_once(extract: Extract, text: str, n: int) -> None:
    assert extract(text).concurrency == n


def test_a_days_count_alone_is_not_a_concurrency(extract: Extract) -> None:
    assert extract("Chatbot on Llama 3.1 8B for 500 users a day.").concurrency is None
