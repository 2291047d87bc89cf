"""Expert review 20, reading problems 2, 6 and 7, as classes of phrasing with other wordings and near misses:
a later, smaller training stage does not replace the main stage's data size (rules_stage_data.py); an
exclusion with a lead item takes the class after it, an approved list with a label is read whole
(rules_list_leads.py); a job said to resume reads as cannot_resume False (rules_resume.py)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tools.profile import WorkloadProfile

Extract = Callable[..., WorkloadProfile]
COMMUNITY = {"runpod-community", "spheron", "vast-ai"}


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        # R03
        (
            "We will continue pre-training Mistral-7B-v0.3 on 60B tokens of German legal and administrative "
            "text "
            "(full parameters, sequence length 8192), followed by a short SFT stage of ~150M tokens.",
            60e9,
        ),
        ("Continued pretraining of Mistral 7B on 60B tokens, then SFT on 150M tokens. EU only.", 60e9),
        ("Stage 1: CPT of Llama 3.1 8B on 20B tokens. Stage 2: SFT on 50M tokens.", 20e9),
        ("Full fine-tune Llama 3.1 8B on 2B tokens. Afterwards a DPO pass on 30M tokens.", 2e9),
        # near misses: a correction still wins; a larger later stage is the main one
        ("Full fine-tune Llama 3.1 8B on 2B tokens, sorry, 200M tokens.", 200e6),
        ("Fine-tune Llama 3.1 8B on 500M tokens, then pre-train on 1T tokens.", 1e12),
        ("QLoRA Llama 3 70B on 40M tokens, 3 epochs", 40e6),
    ],
)
def test_the_main_stage_is_sized(extract: Extract, text: str, tokens: float) -> None:
    assert extract(text).dataset_tokens == pytest.approx(tokens), text


@pytest.mark.parametrize(
    "said",
    [
        "Also not Vast or any marketplace.",  # R14
        "No marketplaces.",
        "no Vast.ai or other marketplaces please",
        "Avoid Vast and similar marketplace hosts.",
        "no spot or community hosts",
        "No marketplace providers.",  # P14
    ],
)
def test_a_class_after_a_lead_item_is_excluded_whole(extract: Extract, said: str) -> None:
    p = extract("LoRA on Llama 3.1 70B, 500M tokens. " + said)
    assert set(p.providers_excluded) >= COMMUNITY, (said, p.providers_excluded)


@pytest.mark.parametrize(
    "said",
    ["Not Vast, but any marketplace is fine.", "Not AWS, and community hosts are OK.",
     "Vast or any marketplace would do."],
)  # fmt: skip
def test_a_class_allowed_is_not_excluded(extract: Extract, said: str) -> None:
    p = extract("LoRA on Llama 3.1 70B, 500M tokens. " + said)
    assert "spheron" not in p.providers_excluded, (said, p.providers_excluded)


@pytest.mark.parametrize(
    ("said", "required"),
    [
        (
            "Per our cloud policy, all ML workloads must run on AWS, GCP or Azure (approved vendors), "
            "in US regions.",
            {"aws", "gcp", "azure"},
        ),  # R19
        (
            "Per policy, we must use Lambda, Nebius or CoreWeave (our approved list).",
            {"lambda", "nebius", "coreweave"},
        ),
        ("All ML workloads must run on GCP or Azure, in US regions.", {"gcp", "azure"}),  # P19
        ("must be on AWS, GCP (preferred)", {"aws"}),  # a preference in the parenthesis is no label
    ],
)
def test_an_approved_list_with_a_label_is_required_whole(
    extract: Extract, said: str, required: set[str]
) -> None:
    p = extract("Full fine-tune Llama 3.1 70B on 2B tokens. " + said)
    assert set(p.providers_required) == required, (said, p.providers_required)


@pytest.mark.parametrize(
    "said",
    [
        "Spot is fine since the job is restartable.",  # R09
        "Spot instances are OK: the job checkpoints every few minutes, so losing a host only loses minutes "
        "of work.",  # P09
        "It can resume from its last checkpoint.",
        "The pipeline is fully resumable.",
    ],
)
def test_a_job_said_to_resume(extract: Extract, said: str) -> None:
    p = extract("Generate 2M answers with Llama 3.3 70B within 5 days. " + said)
    assert p.cannot_resume is False, said
    assert "spheron" not in p.providers_excluded


@pytest.mark.parametrize(
    "said", ["We use the Llama 3 checkpoint.", "Checkpoints are 140 GB.", "our jobs can't checkpoint well"]
)
def test_not_a_resumable_job(extract: Extract, said: str) -> None:
    assert extract("Generate 2M answers with Llama 3.3 70B. " + said).cannot_resume is not False, said
