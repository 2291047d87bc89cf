"""A claim checked by the next sentence ("a single L4 can serve ... at 100 tok/s. Is that realistic?":
expert review 7, R15 without "someone says"), and a choice asked as "A or B?" (review 8, R09)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tools.profile import WorkloadProfile

Extract = Callable[..., WorkloadProfile]


@pytest.mark.parametrize(
    "follow", ["Is that realistic?", "True?", "Is this right?", "Really?", "is that even possible"]
)
def test_a_bare_check_makes_the_sentence_before_a_claim(extract: Extract, follow: str) -> None:
    p = extract(f"a single L4 can serve Llama 3.1 8B at 100 tok/s for one user. {follow}")
    assert (p.claimed_gpu, p.claimed_gpu_count) == ("l4", 1)


def test_no_check_no_claim(extract: Extract) -> None:
    p = extract("a single L4 can serve Llama 3.1 8B at 100 tok/s for one user. We deploy it next week.")
    assert p.claimed_gpu is None


@pytest.mark.parametrize(
    ("text", "ids"),
    [
        ("H100 or B200?", ["h100-sxm", "b200"]),
        ("Should we go with H100s or B200s for this?", ["h100-sxm", "b200"]),
    ],
)
def test_a_choice_asked_is_a_comparison(extract: Extract, text: str, ids: list[str]) -> None:
    assert extract("We need to LoRA Llama 3.1 70B on 300M tokens. " + text).gpus_compared == ids


def test_either_card_is_not_a_comparison(extract: Extract) -> None:
    p = extract("We need to LoRA Llama 3.1 70B on 300M tokens. We could run it on H100 or A100, whatever.")
    assert not p.gpus_compared
