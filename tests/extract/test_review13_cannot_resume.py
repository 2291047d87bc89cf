"""A job that cannot resume from a checkpoint rules out spot and community / marketplace hosts (expert
review 13, R01; advisor/extract/rules_resume.py). Near misses: checkpoints that work, a model checkpoint,
a checkpoint's size."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tools.profile import WorkloadProfile

Extract = Callable[..., WorkloadProfile]
JOB = "LoRA fine-tune Llama 3.1 8B on 300M tokens, cheapest option. "


@pytest.mark.parametrize(
    "said",
    [
        "no spot instances pls, our jobs can't checkpoint well",
        "Our training code cannot resume from a checkpoint.",
        "We don't really checkpoint, so it has to run start to finish.",
        "No checkpointing in our pipeline.",
        "Checkpointing doesn't work for us.",
        "The run can't be restarted once it starts.",
    ],
)
def test_a_job_that_cannot_resume_avoids_interruptible_hosts(extract: Extract, said: str) -> None:
    p = extract(JOB + said)
    assert p.cannot_resume is True, said
    assert "spot" in p.pricing_excluded, said
    assert "runpod-community" in p.providers_excluded and "vast-ai" in p.providers_excluded, said


@pytest.mark.parametrize(
    "said",
    [
        "We checkpoint every hour, so restarts are fine.",
        "Start from the Llama 3.1 8B Instruct checkpoint.",
        "Checkpoints are about 16 GB each.",
    ],
)
def test_checkpoints_that_work_change_nothing(extract: Extract, said: str) -> None:
    p = extract(JOB + said)
    assert p.cannot_resume is not True, said  # "so restarts are fine" reads as resumable (review 20)
    assert "runpod-community" not in p.providers_excluded, said
