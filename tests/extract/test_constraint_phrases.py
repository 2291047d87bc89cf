"""Issue 12's constraint vocabulary as teams write it: required providers, pricing ruled out and data
residency in its many wordings, each with a phrase that must NOT set it."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tools.profile import WorkloadProfile

Extract = Callable[..., WorkloadProfile]
JOB = " LoRA Llama 3 8B on 50M tokens."


# --------------------------------------------------------------------------- pricing ruled out
@pytest.mark.parametrize(
    ("text", "kinds"),
    [
        ("No spot please.", {"spot"}),
        ("We can't use spot instances.", {"spot"}),
        ("no preemptible VMs", {"spot"}),
        ("We can't deal with preemptions.", {"spot"}),
        ("The job must not be interrupted.", {"spot"}),
        ("Reserved only.", {"spot", "on_demand", "owned"}),
        (
            "Finance only signs reserved capacity (1-year), no on-demand and no spot.",
            {"spot", "on_demand", "owned"},
        ),
        ("On-demand only, no commitments.", {"spot", "reserved", "owned"}),
    ],
)
def test_pricing_ruled_out(extract: Extract, text: str, kinds: set[str]) -> None:
    p = extract(text + JOB)
    assert set(p.pricing_excluded) == kinds
    assert p.status_of("pricing_excluded") in ("stated", "inferred")
    assert p.provenance["pricing_excluded"].evidence


@pytest.mark.parametrize(
    "text",
    [
        "We used spot before and it was fine.",
        "Spot is fine for us, we checkpoint every 30 minutes.",
        "We don't mind preemptions.",
        "Is reserved capacity cheaper than on-demand?",
    ],
)
def test_spot_that_is_welcome_or_asked_about_is_not_ruled_out(extract: Extract, text: str) -> None:
    assert extract(text + JOB).pricing_excluded == []


def test_every_quote_behind_a_pricing_list_is_kept_as_evidence(extract: Extract) -> None:
    p = extract("No on-demand. We can't deal with preemptions either." + JOB)
    assert set(p.pricing_excluded) == {"on_demand", "spot"}
    ev = p.provenance["pricing_excluded"].evidence or ""
    assert "no on-demand" in ev.lower() and "preemptions" in ev


# --------------------------------------------------------------------------- providers required
@pytest.mark.parametrize(
    "text",
    [
        "Company policy: must be on AWS, no spot instances.",
        "Must be on AWS.",
        "Only AWS.",
        "AWS only.",
        "Everything runs in our AWS account.",
        "Company policy: AWS.",
        "We have to use AWS for this.",
    ],
)
def test_required_provider_is_a_hard_requirement_and_a_preference(extract: Extract, text: str) -> None:
    p = extract(text + JOB)
    assert p.providers_required == ["aws"]
    assert p.providers_preferred == ["aws"]  # ranked first too
    assert p.providers_excluded == []
    assert p.status_of("providers_required") == "stated"


@pytest.mark.parametrize(
    ("text", "preferred", "excluded"),
    [
        ("Not AWS.", [], ["aws"]),
        ("We must not use AWS.", [], ["aws"]),
        ("It doesn't have to be on AWS.", [], []),
        ("We'd like to use AWS.", ["aws"], []),  # a wish, not a requirement
        ("We tried AWS only once.", [], []),
        ("Our data is in our AWS account.", [], []),  # where the data is, not a policy
    ],
)
def test_phrases_that_do_not_require_a_provider(
    extract: Extract, text: str, preferred: list[str], excluded: list[str]
) -> None:
    p = extract(text + JOB)
    assert p.providers_required == []
    assert p.providers_preferred == preferred
    assert p.providers_excluded == excluded


def test_examples_of_a_class_are_preferences_not_requirements(extract: Extract) -> None:
    p = extract("Only EU providers (e.g. Scaleway, OVHcloud)." + JOB)
    assert p.providers_required == []
    assert set(p.providers_preferred) == {"scaleway", "ovhcloud"}


def test_a_later_exclusion_lifts_the_requirement(extract: Extract) -> None:
    p = extract("Must be on AWS." + JOB)
    p = extract("Actually, not AWS after all.", p)
    assert p.providers_required == [] and p.providers_excluded == ["aws"]


# --------------------------------------------------------------------------- EU residency
@pytest.mark.parametrize(
    "text",
    [
        "Everything has to stay inside the European Union.",
        "All customer data must be processed and stored inside the European Union.",
        "GDPR applies to the training data.",
        "Data must stay in the EEA.",
        "EEA hosting is required.",
        "The data can't leave Germany.",
        "Frankfurt only for the data, hard requirement from legal.",
        "It may be processed in Germany only.",
    ],
)
def test_eu_residency_wordings(extract: Extract, text: str) -> None:
    p = extract(text + JOB)
    assert p.eu_only is True
    assert p.provenance["eu_only"].evidence


def test_a_city_is_read_as_eu_only_and_says_it_is_coarser(extract: Extract) -> None:
    p = extract("Frankfurt only." + JOB)
    assert p.eu_only is True and p.status_of("eu_only") == "inferred"
    assert "EU only" in (p.provenance["eu_only"].evidence or "")


@pytest.mark.parametrize(
    "text",
    [
        "We have an office in Frankfurt.",
        "Our team is based in Germany.",
        "German only training data, legal texts.",
        "No EU requirement.",
    ],
)
def test_an_eu_place_that_is_not_a_residency_rule(extract: Extract, text: str) -> None:
    assert extract(text + JOB).eu_only is not True


# ---- serving where the users are (expert review, 2026-11-25) ----------------------------------------------
@pytest.mark.parametrize(
    "text", ["Serve it to 200 concurrent users in the EU.", "Host it in Europe.", "Our customers in the EU"]
)
def test_serving_in_the_eu_is_read_as_eu_hosting(extract: Extract, text: str) -> None:
    # before: 'Serve Llama 3.1 70B to 200 concurrent users in the EU' -> 8x A100 at a US provider, EU only no
    p = extract(text + " Serve Llama 3.1 70B.")
    assert p.eu_only is True and p.status_of("eu_only") == "inferred"
    assert "host in the EU" in (p.provenance["eu_only"].evidence or "")


@pytest.mark.parametrize(
    "text", ["Our team is based in Europe.", "We have users in the EU but no EU requirement."]
)
def test_a_team_in_europe_is_not_eu_hosting(extract: Extract, text: str) -> None:
    assert extract(text + JOB).eu_only is not True


# --------------------------------------------------------------------------- provider names -> catalog ids
@pytest.mark.parametrize(
    ("text", "field", "ids"),
    [
        ("We'd prefer vastai.", "providers_preferred", ["vast-ai"]),
        ("Vast.ai only please.", "providers_required", ["vast-ai"]),
        ("Must be on RunPod.", "providers_required", ["runpod-community", "runpod-secure"]),
        ("RunPod Secure Cloud only.", "providers_required", ["runpod-secure"]),
        ("Avoid RunPod community.", "providers_excluded", ["runpod-community"]),
    ],
)
def test_provider_names_become_catalog_ids(extract: Extract, text: str, field: str, ids: list[str]) -> None:
    assert getattr(extract(text), field) == ids, text


def test_a_named_runpod_tier_does_not_bring_the_other_tier(extract: Extract) -> None:
    p = extract("Avoid RunPod community.")
    assert "runpod-secure" not in p.providers_excluded


CONSUMER = ["rtx-3090", "rtx-4090", "rtx-5090"]


@pytest.mark.parametrize(
    "text",
    [
        "Serve Llama 3.1 8B for 200 users. Consumer cards are fine for tests only.",
        "Serve Llama 3.1 8B for 200 users; gaming GPUs only for local testing.",
        "Serve Llama 3.1 8B for 200 users; consumer GPUs are not for production.",
        "Serve Llama 3.1 8B for 200 users; no gaming cards in prod.",
    ],
)
def test_consumer_cards_only_for_tests_rule_them_out_here(extract: Extract, text: str) -> None:
    assert sorted(extract(text).gpus_excluded) == CONSUMER, text


def test_consumer_cards_that_are_fine_are_not_ruled_out(extract: Extract) -> None:
    assert extract("Serve Llama 3.1 8B for 200 users; consumer cards are fine.").gpus_excluded == []
