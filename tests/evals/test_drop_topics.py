"""The silent-drop test sees what the accounting names (evals/drop_topics.py, drops0 2026-11-28): a date or
"due" names a deadline, a GPU name or "cloud" names the owned hardware and where it runs, and a volume names a
rate derived from it. Each: the eval text whose listing was counted as a drop, variants, and a near miss whose
listing is off the topic (still a drop)."""

from __future__ import annotations

import re

import pytest

from evals import harness
from evals.drop_topics import CONSTRAINT_WORDS
from evals.harness import EvalCase
from tools.profile import WorkloadProfile


class _ReadsNothing:
    name = "nothing"

    def extract(self, text: str, prior: WorkloadProfile | None = None) -> WorkloadProfile:
        return prior or WorkloadProfile()


def _drops(text: str, **expect: object) -> list[str]:
    return harness.run_case(EvalCase(id="t", text=text, expect=expect), _ReadsNothing()).silent_drops


def _names(topic: str, listed: str) -> bool:
    """Whether an unused clause reading `listed` names `topic` (the harness's test, evals/drop_topics.py)."""
    return re.search(CONSTRAINT_WORDS[topic], listed, re.I) is not None


@pytest.mark.parametrize(
    "listed",
    [
        # v13-batch-lab-wiki-table-synthetic-qa: the due cell "Dec 10" was listed, its words had no time word
        # (the rules read that table's date and the INI's since ext25: the listings are tested directly)
        "synthetic QA | Llama 3.1 8B | Dec 10",
        "= 2026-12-11",  # v17-two-ini-cpt-then-serve
    ],
)
def test_a_listed_date_names_the_deadline(listed: str) -> None:
    assert _names("time", listed)


def test_a_listed_unread_date_names_the_deadline_end_to_end() -> None:
    assert _drops("| model | finish |\n|---|---|\n| Llama 3.1 8B | 12 January |", deadline_hours=500) == []


def test_near_miss_a_listed_count_does_not_name_the_deadline() -> None:
    assert _drops("| model | shards |\n|---|---|\n| Llama 3.1 8B | 12 shards |", deadline_hours=500) == [
        "deadline_hours"
    ]


def test_a_listed_correction_naming_the_gpu_names_the_owned_hardware() -> None:
    # v17 l40s corrected: "Sorry, 8 L40S" was listed (the rules read the recount since ext25)
    assert _names("owned", "Sorry, 8 L40S, two more arrived")


@pytest.mark.parametrize(
    "text",
    [
        "asset,gpus,gpu_type\nSYD-01,4,L40S 48GB\nSYD-02,4,L40S 48GB",  # v14-owned-cmdb-export-l40s-sydney
        "Got a box under me desk with 4 RTX 4090s in it. LoRA Mistral 7B on 50M tokens.",
    ],
)
def test_a_listed_gpu_names_the_owned_hardware(text: str) -> None:
    assert _drops(text, owned_gpu="l40s") == []


def test_near_miss_an_unread_figure_without_hardware_does_not_name_it() -> None:
    assert _drops("LoRA Mistral 7B on 50M tokens from 3 hospitals", owned_gpu="l40s") == ["owned_gpu"]


def test_a_listed_volume_names_a_derived_rate_and_cloud_names_the_deployment() -> None:
    # v12-batch-rebuttal-rerun-aoe: "37 checkpoints x 5k prompts" was listed, the rate's topic was time only
    text = "we need to rerun the benchmark: 37 checkpoints x 5k prompts x 4 samples each"
    assert _drops(text, target_tokens_per_s=580) == []
    assert _drops("Regenerate about 400k SKUs each Sunday night", target_tokens_per_s=1666) == []
    assert _drops("We have 1,2 million readers.", target_tokens_per_s=900) == ["target_tokens_per_s"]
    # v17-owned-australian-4x-4090-lora-mistral-claim: "Not touching the cloud" was listed
    assert _drops("Not touching the cloud for this one, cheers.", deployment_preference="on_prem") == []
    assert _drops("Cheers mate, thanks.", deployment_preference="on_prem") == ["deployment_preference"]
