"""Issue 12, nothing a user states may silently vanish: owned hardware said as a place or after the card,
isolation and no-servers policies as a deployment preference, "X and nothing else" as a GPU requirement,
and corrections in a later turn that lean on what was said before (a bare figure replacing one, owned
cards recounted, a deadline moved). Each reading has a near miss that must not set the field.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from advisor.extract.accounting import account_for
from advisor.extract.rules import RulesExtractor
from tools.profile import WorkloadProfile

Extract = Callable[..., WorkloadProfile]


def turns(extract: Extract, *texts: str) -> WorkloadProfile:
    profile = None
    for text in texts:
        profile = extract(text, profile)
    assert profile is not None
    return profile


# --------------------------------------------------------------------------- owned hardware
@pytest.mark.parametrize(
    ("text", "gpu", "count"),
    [
        (
            "All we've got in the lab is 3 Supermicro boxes with four A100 80GB cards each.",
            "a100-80gb-sxm",
            12,
        ),
        ("What we run in the basement is two GPU servers with 8x H100 in each.", "h100-sxm", 16),
        ("Our kit: what I own right now is 2 machines with 4 L40S apiece.", "l40s", 8),
        ("There are 6 A100 80GB here, idle most nights.", "a100-80gb-sxm", 6),
        ("two RTX 3090 cards in a tower under my desk at the office", "rtx-3090", 2),
        ("QLoRA Mistral 7B on the lone 3090 that I already own, 5M tokens.", "rtx-3090", 1),
        ("Fine-tune Llama 3.1 8B on the two H100 cards we bought last spring.", "h100-sxm", 2),
    ],
)
def test_owned_hardware_said_as_a_place_or_after_the_card(
    extract: Extract, text: str, gpu: str, count: int
) -> None:
    p = extract(text)
    assert (p.owned_gpu, p.owned_gpu_count) == (gpu, count)
    assert p.provenance["owned_gpu"].evidence


def test_plural_cards_owned_without_a_count_give_the_type_only(extract: Extract) -> None:
    p = extract("Serve Qwen2.5 7B on the A100s we own.")
    assert (p.owned_gpu, p.owned_gpu_count) == ("a100-80gb-sxm", None)


@pytest.mark.parametrize(
    "text",
    [
        "We used to have 8 A100s but sold them last year.",
        "The 4 A100s we had were returned to the vendor.",
        "We rent 8 H100 in the cloud for this.",
        "Train on the H100s we have reserved at CoreWeave.",
        "the 3090 that I have access to at the university",
        "We have access to 8 H100s on a cloud we don't own.",
        "There are 8 H100 in an HGX server, as far as I know.",
        "What we have is a quote for two servers with 8 H100 each.",
    ],
)
def test_hardware_not_owned_is_not_owned(extract: Extract, text: str) -> None:
    p = extract(text)
    assert p.owned_gpu is None and p.owned_gpu_count is None


# --------------------------------------------------------------------------- deployment preference
@pytest.mark.parametrize(
    "text",
    [
        "The network is air gapped, so plan for that.",
        "Patient data must never go to a public cloud.",
        "The weights may not be uploaded to any third-party cloud.",
        "This data cannot leave our premises.",
        "It must stay on our own servers.",
        "The public cloud is off the table for this project.",
    ],
)
def test_isolation_policies_are_on_prem(extract: Extract, text: str) -> None:
    assert extract(text).deployment_preference == "on_prem"


@pytest.mark.parametrize(
    "text",
    [
        "Nobody here has time for hardware: we don't want to maintain our own servers.",
        "We will not buy GPUs, full stop.",
        "Cloud-only, please.",
        "No on-prem: we closed the server room.",
        "On-prem is not an option for us.",
        "We rent, not buy.",
    ],
)
def test_no_servers_of_our_own_is_cloud(extract: Extract, text: str) -> None:
    assert extract(text).deployment_preference == "cloud"


@pytest.mark.parametrize(
    "text",
    [
        "We'd rather not buy hardware unless it pays off in a year.",
        "Not sure whether we should buy servers or keep renting.",
        "We don't want to be locked into one cloud.",
        "It doesn't have to run on a public cloud, but it may.",
    ],
)
def test_weighed_or_negated_deployment_sets_nothing(extract: Extract, text: str) -> None:
    assert extract(text).deployment_preference is None


def test_air_gapped_with_owned_cards_uses_them(extract: Extract) -> None:
    p = extract(
        "Nothing here may touch the cloud. What we have in the server room is two GPU servers with 4x A100 "
        "80GB in each. Fine-tune Llama 3.1 8B on 30M tokens."
    )
    assert p.deployment_preference == "on_prem"
    assert (p.owned_gpu, p.owned_gpu_count) == ("a100-80gb-sxm", 8)


def test_a_workstation_holding_owned_datacentre_cards_is_no_consumer_wish(extract: Extract) -> None:
    p = extract("Two A100 80GB cards sit in a workstation under my desk; serve Mistral 7B to 10 users.")
    assert (p.owned_gpu, p.owned_gpu_count, p.deployment_preference) == ("a100-80gb-sxm", 2, None)
    p = extract("We have 2 RTX 4090 in a workstation under my desk.")  # consumer cards: consumer it is
    assert p.deployment_preference == "consumer"


# --------------------------------------------------------------------------- "X and nothing else"
@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("Our committed-use deal is for H200 and nothing more.", ["h200"]),
        ("Procurement lets us use nothing but L4 cards.", ["l4"]),
        ("The grant allocation is limited to A100 80GB.", ["a100-80gb-pcie", "a100-80gb-sxm"]),
        ("H200 is all we can get from the provider this quarter.", ["h200"]),
        ("The quota only covers L40S.", ["l40s"]),
        ("We can run on nothing other than L4.", ["l4"]),
    ],
)
def test_a_single_gpu_type_allowed_is_wanted(extract: Extract, text: str, want: list[str]) -> None:
    assert sorted(extract(text).gpus_wanted) == sorted(want)


@pytest.mark.parametrize(
    "text",
    [
        "We have H100s and nothing else.",  # owned, not a filter
        "L40S is cheaper than H100, nothing else matters.",  # a comparison
    ],
)
def test_nothing_else_beside_owned_or_compared_is_not_wanted(extract: Extract, text: str) -> None:
    assert extract(text).gpus_wanted == []


def test_anything_other_than_excludes(extract: Extract) -> None:
    p = extract("Use anything other than A100 for this.")
    assert p.gpus_wanted == [] and "a100-80gb-sxm" in p.gpus_excluded


# --------------------------------------------------------------------------- corrections across turns
def test_a_bare_figure_takes_the_unit_of_the_one_it_replaces(extract: Extract) -> None:
    p = turns(extract, "QLoRA Qwen2.5 14B on roughly 120M tokens.", "wait, forget the 120M, dedup left 80")
    assert p.dataset_tokens == 80e6
    assert "120M" in p.provenance["dataset_tokens"].evidence


@pytest.mark.parametrize(
    ("second", "field", "value"),
    [
        ("It's 60M, not 120M.", "dataset_tokens", 60e6),
        ("my bad, the 120M should be 150M", "dataset_tokens", 150e6),
        ("sorry, the $18k was a typo: $12k", "budget_usd", 12_000),
        ("correction: 64 concurrent, not 40", "concurrency", 64),
        ("actually change the 40 to 25", "concurrency", 25),
    ],
)
def test_a_replaced_figure_sets_the_field_it_held(
    extract: Extract, second: str, field: str, value: float
) -> None:
    p = turns(
        extract, "LoRA Llama 3.1 8B on 120M tokens, budget $18k, 40 concurrent users at eval time.", second
    )
    assert getattr(p, field) == value


@pytest.mark.parametrize(
    "second",
    [
        "The 120M tokens are mostly English.",  # names the figure, replaces nothing
        "Peak load grew from 40 to 55 last quarter.",  # "from ... to" outside a correction
        "Actually not 120M: 8 GPUs at most.",  # the new figure has another field's unit
        "It's not 40 days of work, more like 50.",  # the old figure has another field's unit
    ],
)
def test_a_figure_named_without_replacing_it_changes_nothing(extract: Extract, second: str) -> None:
    p = turns(extract, "LoRA Llama 3.1 8B on 120M tokens, 40 concurrent users.", second)
    assert (p.dataset_tokens, p.concurrency) == (120e6, 40)


@pytest.mark.parametrize(
    ("second", "count"),
    [
        ("Oops, miscounted: there are 12 of them.", 12),
        ("sorry, it's three servers of four, I forgot one", 12),
        ("my bad, 6 in total", 6),
    ],
)
def test_owned_cards_recounted_in_a_later_turn(extract: Extract, second: str, count: int) -> None:
    p = turns(extract, "We own 8 L40S in a rack downstairs; serve Llama 3.1 8B to 50 users.", second)
    assert (p.owned_gpu, p.owned_gpu_count) == ("l40s", count)


def test_a_count_without_owned_cards_or_correction_is_no_recount(extract: Extract) -> None:
    p = turns(extract, "Serve Llama 3.1 8B to 50 users.", "sorry, 12 of them are internal testers")
    assert p.owned_gpu_count is None
    p = turns(extract, "We own 8 L40S in a rack downstairs.", "There are 12 of them in the queue.")
    assert p.owned_gpu_count == 8


@pytest.mark.parametrize(
    ("second", "low", "high"),
    [
        ("update: 2 epochs, and the deadline was moved up to Thursday", 15, 39),  # Thu 19 Nov, end of day
        ("the due date got pushed back to Dec 4", 399, 399),
        ("heads-up, the deadline is now Monday morning", 120, 120),
    ],
)
def test_a_moved_deadline_replaces_the_old_one(
    extract: Extract, second: str, low: float, high: float
) -> None:
    p = turns(extract, "LoRA Llama 3.1 8B on 200M tokens, 3 epochs, due by the end of the month.", second)
    assert p.deadline_hours is not None and low <= p.deadline_hours <= high


def test_a_moved_meeting_is_no_deadline(extract: Extract) -> None:
    p = turns(
        extract, "LoRA Llama 3.1 8B on 200M tokens.", "Our sync moved to Thursday, nothing else changed."
    )
    assert p.deadline_hours is None


@pytest.mark.parametrize(
    ("first", "second"),
    [
        (
            "We own 8 L40S in a rack downstairs.",
            "Oops, miscounted: there are 12 of them, three boxes of four.",
        ),
        ("QLoRA Qwen2.5 14B on roughly 120M tokens.", "wait, forget the 120M, dedup left 80"),
        ("LoRA Llama 3.1 8B, due by the end of the month.", "the due date got pushed back to Dec 4"),
    ],
)
def test_a_correction_read_is_not_listed_as_unused(rules: RulesExtractor, first: str, second: str) -> None:
    prior = rules.extract(first)
    profile = rules.extract(second, prior)
    account = account_for(second, profile, prior, rules.analysis_of(second))
    assert account.unused == ()
