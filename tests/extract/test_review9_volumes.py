"""Expert review 9: "twenty million outputs of roughly five hundred tokens each ... within ten days" is a
batch volume (R07, it was sized as 8 chat users), and "500 open sessions but only ~10% are generating" is
50 at once (R15, it was 8 assumed)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tools.profile import WorkloadProfile

Extract = Callable[..., WorkloadProfile]


@pytest.mark.parametrize(
    "text",
    [
        "generate with llama three point one eight b twenty million outputs of roughly five hundred tokens "
        "each within ten days",
        "Generate 20M outputs of ~500 tokens each with Llama 3.1 8B within 10 days.",
        "Generate 20M completions of about 500 tokens each with Llama 3.1 8B within 10 days.",
    ],
)
def test_counted_outputs_with_their_size_are_a_volume(extract: Extract, text: str) -> None:
    p = extract(text)
    assert p.generation_tokens == pytest.approx(1e10)
    assert p.deadline_hours == pytest.approx(240)


def test_a_share_of_open_sessions_is_the_concurrency(extract: Extract) -> None:
    p = extract("Serve Llama 3.1 8B: 500 open sessions but only ~10% are generating at any time.")
    assert p.concurrency == 50


def test_sessions_without_a_share_stay_as_said(extract: Extract) -> None:
    assert extract("Serve Llama 3.1 8B, 40 concurrent sessions.").concurrency == 40
