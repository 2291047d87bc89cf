"""A GPU-count cap said after what the count is per (issue 12, evals v15 Makefile comment: "# lab policy: one
GPU per job, never more than 1"): the count after "never/not more than" caps max_gpus. Near misses: the cap
on another unit (nodes, jobs) after a per-node or per-job count.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tools.profile import WorkloadProfile

Extract = Callable[..., WorkloadProfile]
JOB = "QLoRA Qwen2.5 72B on 300M tokens. "


@pytest.mark.parametrize(
    ("said", "cap"),
    [
        ("# lab policy: one GPU per job, never more than 1", 1),
        ("Policy: 2 GPUs per run, not more than 2.", 2),
        ("Cluster rule: 4 GPUs per user, at most 4.", 4),
    ],
)
def test_cap_after_per_unit(extract: Extract, said: str, cap: int) -> None:
    assert extract(JOB + said).max_gpus == cap


@pytest.mark.parametrize(
    "said",
    [
        "We run 8 GPUs per node, never more than 2 nodes.",
        "4 GPUs per job, never more than 3 jobs at once.",
    ],
)
def test_cap_on_another_unit(extract: Extract, said: str) -> None:
    assert extract(JOB + said).max_gpus is None
