"""A parenthesis opened 'for reference:' sets its figures aside up to its ')' (advisor/extract/
rules_aside_figures.py; evals v15 bot log: "(For reference: the last team that asked ran 8B on 1 GPU for 20
users.)" was read as at most 1 GPU, and no 70B set-up was picked). Variants and near misses."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tools.profile import WorkloadProfile

Extract = Callable[..., WorkloadProfile]
_ASK = "How many GPUs to serve Llama 3.1 70B? I need peak concurrency and lengths. "


@pytest.mark.parametrize(
    "aside",
    [
        "(For reference:\n  the last team that asked ran 8B on 1 GPU for 20 users.)\n",
        "(for comparison: last year's pilot ran on 1 GPU.)\n",
        "(FYI - the old bot ran on 1 GPU.\nIt was a 7B model.)\n",
    ],
)
def test_a_gpu_count_in_a_reference_parenthesis_is_no_cap(extract: Extract, aside: str) -> None:
    p = extract(_ASK + aside + "Peak is 90 concurrent chats.")
    assert p.max_gpus is None
    assert p.concurrency == 90  # the figures after the ')' stand


def test_near_miss_a_cap_outside_the_parenthesis_stands(extract: Extract) -> None:
    p = extract(_ASK + "(For reference: the last team used 8B.) We can use at most 2 GPUs. Peak is 90 chats.")
    assert p.max_gpus == 2


def test_near_miss_a_plain_parenthesis_keeps_its_figures(extract: Extract) -> None:
    p = extract(_ASK + "Serve it on 1 GPU (our quota). Peak is 90 concurrent chats.")
    assert p.max_gpus == 1
