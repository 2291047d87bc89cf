"""EU residency counts a multi-area provider's EU data centres (expert review 19, R12 / P12 / R02): RunPod
lists data centres in RO, SE, NL, CZ and FR (tools/catalog/prices.yaml areas), so its offers serve an EU-only
request, placed in words ('choose an EU location at launch'); providers whose sourced list has no EU data
centre, or no list at all, stay out. Wordings here differ from the review's."""

from __future__ import annotations

import pytest

from advisor.api import ask
from tests.recommend.conftest import Runner, conversation_reply, reply_line
from tools.catalog.load import Catalog
from tools.profile import WorkloadProfile
from tools.recommend.regions import COMMUNITY_EU_NOTE, allowed, region_note

EU = WorkloadProfile(eu_only=True)
NO_EU_SITE = ("lambda", "lambda-cluster", "spheron", "vast-ai", "aws", "gcp", "azure")
"""Providers whose records are outside the EU by region, by a sourced list without 'eu', or with no list."""


def _eu_placed(o: object) -> bool:
    return bool(getattr(o, "eu", False)) or "eu" in getattr(o, "areas", ())


def test_a_provider_list_with_eu_data_centres_is_allowed_under_eu_only() -> None:
    assert allowed(None, False, ("us", "eu", "other"), EU)
    assert allowed(None, False, ("us", "eu"), EU)
    # near misses: a list without the EU, no list at all, a record priced in a named non-EU region
    assert not allowed(None, False, ("us", "other"), EU)
    assert not allowed(None, False, (), EU)
    assert not allowed("us-east-1", False, ("us", "eu"), EU)


def test_the_placement_is_said_with_an_article_that_reads() -> None:
    note = region_note(
        provider="runpod-secure", region=None, eu=False, areas=("us", "eu"), deployment="cloud", p=EU
    )
    assert note is not None and "choose an EU location at launch" in note and "stock" in note


def test_eu_only_options_are_all_placed_in_the_eu_and_runpod_is_among_them(run: Runner) -> None:
    rec = run(eu_only=True)
    assert rec.primary is not None
    assert all(_eu_placed(o) for o in rec.options), [(o.provider, o.areas) for o in rec.options]
    assert not any(o.provider in NO_EU_SITE for o in rec.options)
    # the same job with RunPod left out falls back to EU-region records only (Nebius): the areas did the work
    without = run(eu_only=True, providers_excluded=["runpod"])
    assert without.primary is not None and all(o.eu or "eu" in o.areas for o in without.options)
    assert any(o.provider.startswith("runpod") for o in rec.options)


def test_a_community_host_under_eu_only_says_whose_machine_it_is(run: Runner) -> None:
    rec = run(eu_only=True, objective="cheapest")
    community = [o for o in rec.options if o.provider == "runpod-community"]
    assert community, [o.provider for o in rec.options]
    assert any(COMMUNITY_EU_NOTE in r for r in community[0].risks)
    # not said without EU only, nor of a secure-tier option
    free = run(objective="cheapest")
    assert not any(COMMUNITY_EU_NOTE in r for o in free.options for r in o.risks)
    assert not any(
        COMMUNITY_EU_NOTE in r for o in rec.options if o.provider == "runpod-secure" for r in o.risks
    )


@pytest.mark.parametrize(
    "text",
    [
        "Serve Llama 3.3 70B for our contract-review tool; everything has to run in EU data centres. About "
        "12 concurrent users with 24k-token contexts.",
        "GDPR: inference must stay inside the EU. Model: Llama 3.1 70B, ~20 simultaneous sessions, 16k "
        "context.",
    ],
)
def test_eu_serving_of_a_70b_model_uses_the_eu_data_centres_of_runpod(text: str) -> None:
    out = ask(text)
    assert out["profile"]["eu_only"] is True
    rec = out["recommendation"]
    shown = [rec["primary"], *rec["alternatives"]]
    assert any(o["provider"].startswith("runpod") for o in shown), [o["provider"] for o in shown]
    assert not any(o["provider"] in NO_EU_SITE for o in shown)
    head = reply_line(str(out["reply"]), "Recommended:")
    why = reply_line(str(out["reply"]), "Why:")
    if " at runpod-" in head:  # placed in words, never silently
        assert "EU data centres on runpod-" in why and "choose an EU location" in why


def test_naming_runpod_eu_no_longer_leaves_nothing(catalog: Catalog) -> None:
    # P12's shape in other words: RunPod named, an EU data centre required
    reply = conversation_reply(
        "We want to self-host Llama 3.3 70B for a legal research assistant.",
        "It has to be RunPod, in one of their European data centres. Around 15 users at once, 32k context.",
    )
    assert "Nothing in the catalog" not in reply, reply
    head = reply_line(reply, "Recommended:")
    assert " at runpod-" in head, head
    assert "EU data centres on runpod-" in reply_line(reply, "Why:")


def test_us_only_is_unchanged_by_the_eu_rule(run: Runner) -> None:
    rec = run(us_only=True)
    assert rec.primary is not None
    assert not any(o.eu for o in rec.options)  # Nebius (EU region) never serves a US-only request


def test_the_providers_left_out_under_eu_only_are_named_with_the_reason(run: Runner) -> None:
    rec = run(eu_only=True)
    said = [a for a in rec.assumptions if a.name == "constraint applied: EU only"]
    assert said and "vast-ai" in said[0].source and "spheron" in said[0].source
    assert "residency cannot be confirmed" in said[0].source
    assert not any(a.name == "constraint applied: EU only" for a in run().assumptions)
