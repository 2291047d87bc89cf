"""Gaps after expert review 20 (issue 12: nothing stated may vanish). An aside that names a provider with a
cue of its own is read apart from the list around it (provider_asides.py): "must run on AWS, GCP or Azure
(not Oracle)" excluded GCP and Azure before. A job said not to resume, in the ways teams say it, reads as
cannot_resume True (spot and marketplace hosts then ruled out); one said to resume reads False
(rules_resume.py). Each with near misses that must not trigger."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tools.profile import WorkloadProfile

Extract = Callable[..., WorkloadProfile]
TRAIN = "Full fine-tune Llama 3.1 8B on 1B tokens. "
BATCH = "Generate 2M answers with Llama 3.3 70B within 5 days. "
BIG3 = {"aws", "gcp", "azure"}


@pytest.mark.parametrize(
    ("said", "required", "excluded"),
    [
        ("It must run on AWS, GCP or Azure (not Oracle).", BIG3, {"oci"}),
        ("Must run on AWS, GCP, or Azure (no Oracle).", BIG3, {"oci"}),
        # IBM Cloud is read since fix34 (the catalog does not price it: the reply says nothing is excluded)
        ("Approved clouds: AWS, GCP and Azure (not Oracle, not IBM).", BIG3, {"oci", "ibm"}),
        ("Must be on AWS, GCP or Azure - not Oracle.", BIG3, {"oci"}),
        ("Must be on AWS, GCP or Azure — no Oracle please.", BIG3, {"oci"}),
        ("Must be on AWS (not Oracle) or GCP.", {"aws", "gcp"}, {"oci"}),
        ("We must use one of our approved vendors (AWS, Azure; not Oracle).", {"aws", "azure"}, {"oci"}),
        ("We can only use AWS or Azure (not GCP).", {"aws", "azure"}, {"gcp"}),
        ("Must run on AWS, GCP or Azure (excluding Oracle).", BIG3, {"oci"}),
        ("Must run on AWS, GCP or Azure (Oracle is not approved).", BIG3, {"oci"}),
        ("Must be AWS/GCP/Azure (no OCI).", BIG3, {"oci"}),  # names joined by slashes are one item
        ("Only AWS & GCP.", {"aws", "gcp"}, set()),
        # a parenthesis inside a dash's aside
        ("We're an enterprise shop - must run on AWS, GCP or Azure (not Oracle), no spot.", BIG3, {"oci"}),
        ("Cloud: AWS, GCP or Azure (not Oracle).", BIG3, {"oci"}),  # a form key's value is the whole list
        ("Cloud: AWS, but Lambda is out.", {"aws"}, {"lambda"}),
        # read before, kept
        ("Must be on AWS, GCP or Azure, but not Oracle.", BIG3, {"oci"}),
        ("AWS, GCP or Azure only (not Oracle).", BIG3, {"oci"}),
        ("Must run on AWS, GCP or Azure (approved vendors).", BIG3, set()),  # a label, not an aside
        ("Providers - AWS, GCP or Azure only.", BIG3, set()),  # the list itself after the dash
    ],
)
def test_an_aside_excludes_only_its_own_names(
    extract: Extract, said: str, required: set[str], excluded: set[str]
) -> None:
    p = extract(TRAIN + said)
    assert set(p.providers_required) == required, (said, p.providers_required)
    assert set(p.providers_excluded) == excluded, (said, p.providers_excluded)


@pytest.mark.parametrize(
    ("said", "excluded", "not_excluded"),
    [
        ("Not on AWS, GCP or Azure (Lambda is fine).", BIG3, "lambda"),
        ("No AWS (too expensive), Lambda or Nebius preferred.", {"aws"}, "nebius"),
        ("No AWS (Lambda is fine).", {"aws"}, "lambda"),
        ("No AWS (use Lambda instead).", {"aws"}, "lambda"),
        ("Not AWS - go with Lambda.", {"aws"}, "lambda"),
        ("No Oracle (use AWS, GCP or Azure).", {"oci"}, "gcp"),
    ],
)
def test_an_aside_allowing_a_name_is_not_an_exclusion(
    extract: Extract, said: str, excluded: set[str], not_excluded: str
) -> None:
    p = extract(TRAIN + said)
    assert set(p.providers_excluded) == excluded, (said, p.providers_excluded)
    assert not_excluded not in p.providers_excluded


@pytest.mark.parametrize(
    ("said", "excluded"),
    [
        ("AWS, GCP and Azure are out.", BIG3),  # the lead item shares the cue after the list
        ("No AWS/GCP.", {"aws", "gcp"}),
        # near misses: a cue before a later name is that name's alone
        ("AWS, no GCP.", {"gcp"}),
        ("AWS or GCP, not Azure.", {"azure"}),
        ("We use AWS, Lambda is out.", {"lambda"}),
        ("AWS, for training, Lambda is out.", {"lambda"}),
    ],
)
def test_a_list_shares_the_cue_after_it(extract: Extract, said: str, excluded: set[str]) -> None:
    p = extract(TRAIN + said)
    assert set(p.providers_excluded) == excluded, (said, p.providers_excluded)


@pytest.mark.parametrize(
    ("said", "preferred"),
    [
        ("Only EU providers (e.g. Scaleway, OVHcloud).", {"scaleway", "ovhcloud"}),  # no cue inside
        ("We prefer Nebius (we have an MSA).", {"nebius"}),  # no provider inside
    ],
)
def test_an_aside_without_its_own_names_and_cue_reads_as_before(
    extract: Extract, said: str, preferred: set[str]
) -> None:
    p = extract(TRAIN + said)
    assert set(p.providers_preferred) == preferred and not p.providers_excluded, said


@pytest.mark.parametrize(
    "said",
    [
        "The job is not restartable.",
        "It isn't resumable.",
        "The job is non-restartable.",
        "The job can't be resumed.",
        "No checkpointing, it has to run in one go.",
        "It has to run in one go.",
        "Needs to finish in a single uninterrupted run.",
        "We can't restart it if it dies.",
        "A crash means starting over, so it must run without interruption.",
        "The pipeline is not resumable, so spot is risky.",
        "If the job dies we lose everything.",
        "A preemption would kill the run and we'd have to start from scratch.",
        "We lose all progress if it gets interrupted.",
        "Once started, it cannot be stopped and resumed.",
        "Our pipeline doesn't support resuming.",
    ],
)
def test_a_job_that_cannot_resume(extract: Extract, said: str) -> None:
    p = extract(BATCH + said)
    assert p.cannot_resume is True, said
    assert "spot" in p.pricing_excluded and "spheron" in p.providers_excluded, said


@pytest.mark.parametrize(
    "said",
    [
        "It resumes from checkpoints.",
        "The job resumes from the last checkpoint.",
        "It can be resumed at any time.",
        "Our trainer supports checkpoint/resume.",
        "Spot is fine since the job is restartable.",
        "We checkpoint every hour.",
        "We can resume if it crashes.",
        "If it crashes we just resume from the last shard.",
    ],
)
def test_a_job_that_resumes(extract: Extract, said: str) -> None:
    p = extract(BATCH + said)
    assert p.cannot_resume is False, said
    assert "spot" not in p.pricing_excluded


@pytest.mark.parametrize(
    "said",
    [
        "Not sure if it's restartable.",  # unknown
        "Can it be resumed?",  # a question
        "Is the job restartable? Not sure.",
        "We'd like to process everything in one go.",  # a wish about batching, not about interruptions
        "We restart the server every night.",
        "We use the Llama 3 checkpoint.",
        "Checkpoints are 140 GB.",
        "Can we resume if it crashes?",
        "We lost everything last week when the server crashed, so we bought a UPS.",  # the past
        "If a node fails, Kubernetes restarts it.",
        "We'd have to start over with a new dataset.",  # no interruption named
    ],
)
def test_near_misses_leave_resume_unknown(extract: Extract, said: str) -> None:
    assert extract(BATCH + said).cannot_resume is None, said


@pytest.mark.parametrize(
    "said",
    [
        "The job is not restartable, and it has to run in one go.",  # both clauses are the fact
        "A crash means starting over, so it must run without interruption.",
        "The pipeline is not resumable, so spot is risky.",  # spot ruled out: honoured
        "It must run on AWS, GCP or Azure (not Oracle).",
        "We lose all progress if it gets interrupted.",
    ],
)
def test_no_clause_of_it_is_left_not_understood(said: str) -> None:
    from advisor.api import ask

    reply = str(
        ask("Generate 2M answers with Llama 3.3 70B within 5 days, 600 tokens in and 900 out. " + said)[
            "reply"
        ]
    )
    assert "I did not use" not in reply, reply


@pytest.mark.parametrize(
    "said",
    [
        # expert review 20, R19: the rule's source in a clause of its own, the request itself
        "Per our cloud policy, all ML workloads must run on AWS, GCP or Azure (approved vendors), in US "
        "regions. Give us the configuration and estimated cost.",
        "According to our security team, no spot instances.",
        "As per company policy: EU only.",
        "Under our procurement rules, we can only use Azure.",
        "We need it on AWS.",
    ],
)
def test_a_rules_source_and_the_request_are_used(said: str) -> None:
    from advisor.api import ask

    reply = str(ask("Full fine-tune Llama 3.1 8B on 1B tokens. " + said)["reply"])
    assert "I did not use" not in reply, reply


@pytest.mark.parametrize(
    "said",
    ["Per our cloud policy, things are complicated.", "Per our cloud policy. Lambda has nice people."],
)
def test_a_source_before_nothing_read_is_still_listed(said: str) -> None:
    from advisor.api import ask

    reply = str(ask("Full fine-tune Llama 3.1 8B on 1B tokens. " + said)["reply"])
    assert "'Per our cloud policy'" in reply.split("Recommended:")[0], reply
