"""Provider lists and pricing ruled out as teams write them (rd12): priority tables (MoSCoW), approved
vendor lists spread over commas and relative clauses, verbs enumerated before the names, a cue after the
name, where the team is moving, and "spot" wishes softened in the same sentence. Each concept has a
phrase that must NOT set it (a distractor: last year's clouds, a budget that was approved, a contrast)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from advisor.extract.base import merge_findings
from advisor.extract.rules import RulesExtractor
from evals.harness import match_field
from tools.profile import WorkloadProfile

Extract = Callable[..., WorkloadProfile]
JOB = " LoRA Llama 3 8B on 50M tokens."


# --------------------------------------------------------------------------- required: lists and policies
@pytest.mark.parametrize(
    ("text", "required"),
    [
        # the list after the cue is one list: every name in it is required
        ("The vendor must be on our approved list: AWS, Azure or Google Cloud.", {"aws", "azure", "gcp"}),
        # a relative clause names what the clause before it requires
        (
            "Workloads may only run on vendors on the approved list, which today is AWS and Google Cloud.",
            {"aws", "gcp"},
        ),
        (
            "Only vendors on our approved-supplier list can be used, which for cloud means AWS or Azure.",
            {"aws", "azure"},
        ),
        ("Hard requirements from infra: it lives in AWS or GCP next to our stack.", {"aws", "gcp"}),
        ("Must be AWS (it has to live in our VPC), on-demand or reserved.", {"aws"}),
        ("- Runs in our GCP project (data sits in a us-central1 bucket)", {"gcp"}),
        ("Must: AWS", {"aws"}),  # a priority table's first rank ("| Must | AWS |")
    ],
)
def test_required_providers(extract: Extract, text: str, required: set[str]) -> None:
    p = extract(text + JOB)
    assert set(p.providers_required) == required
    assert not set(p.providers_excluded) & required


@pytest.mark.parametrize(
    "text",
    [
        "Last year we ran on AWS, Azure and GCP.",  # history, no cue
        "Our approved budget is 5k and the data is on AWS.",  # an approved budget is not a vendor list
        "It must be cheaper than AWS.",  # "must be" a comparison, not the provider
        "Requirements: 8 H100s, we have credits on GCP.",  # the credits make GCP a preference only
    ],
)
def test_not_required(extract: Extract, text: str) -> None:
    assert extract(text + JOB).providers_required == []


# --------------------------------------------------------------------------- excluded
@pytest.mark.parametrize(
    ("text", "excluded"),
    [
        # verbs enumerated before the names: the negation covers all of them and every name of the list
        (
            "Buyer Data must not be transferred to, stored on or processed by Amazon Web Services, "
            "Microsoft Azure or Google Cloud.",
            {"aws", "azure", "gcp"},
        ),
        ("No AWS, Azure or GCP.", {"aws", "azure", "gcp"}),
        ("Vast.ai is a no-go.", {"vast-ai"}),
        ("Azure is off the table.", {"azure"}),
        ("Won't: Vast.ai", {"vast-ai"}),  # a priority table's last rank
    ],
)
def test_excluded_providers(extract: Extract, text: str, excluded: set[str]) -> None:
    assert set(extract(text + JOB).providers_excluded) == excluded


def test_a_list_item_with_its_own_words_keeps_them(extract: Extract) -> None:
    p = extract("We don't want AWS, Lambda is fine." + JOB)
    assert p.providers_excluded == ["aws"]
    assert "lambda" in p.providers_preferred


# --------------------------------------------------------------------------- preferred
@pytest.mark.parametrize(
    ("text", "preferred"),
    [
        # after the name the nearest cue is its own, not the "no" of the hyperscalers in brackets
        (
            "Nebius or Scaleway ideally (EU sovereignty thing, management insists: no US hyperscalers).",
            {"nebius", "scaleway"},
        ),
        ("Should: Nebius (we already have a contract)", {"nebius"}),
        ("We have a contract with Nebius.", {"nebius"}),
        ("RunPod or anything else is ok.", {"runpod-community", "runpod-secure"}),
        ("AWS is out of the question, Lambda is fine.", {"lambda"}),
        ("We used to be all Azure but we're moving to GCP for everything new.", {"gcp"}),
        ("We used to run everything on GCP, please plan on Azure.", {"azure"}),
    ],
)
def test_preferred_providers(extract: Extract, text: str, preferred: set[str]) -> None:
    p = extract(text + JOB)
    assert set(p.providers_preferred) == preferred
    assert not set(p.providers_excluded) & preferred


def test_nebius_with_no_hyperscalers_in_brackets(extract: Extract) -> None:
    p = extract("Nebius or Scaleway ideally (EU sovereignty thing, management insists: no US hyperscalers).")
    assert set(p.providers_excluded) == {"aws", "azure", "gcp"}


def test_the_provider_left_behind_is_not_preferred(extract: Extract) -> None:
    # the contrast ends the clause the cue after a name is looked for in
    p = extract("We used to be all Azure but we're moving to GCP for everything new." + JOB)
    assert "azure" not in p.providers_preferred


# --------------------------------------------------------------------------- pricing ruled out
@pytest.mark.parametrize(
    ("text", "kinds"),
    [
        ("- nothing preemptible", {"spot"}),
        ("No preemptibles please.", {"spot"}),
        ("We can't do spot.", {"spot"}),
        ("Please quote on-demand prices; we do not want a long commitment.", {"reserved"}),
    ],
)
def test_pricing_ruled_out(extract: Extract, text: str, kinds: set[str]) -> None:
    assert set(extract(text + JOB).pricing_excluded) == kinds


@pytest.mark.parametrize(
    "text",
    [
        "We'd rather avoid spot, the last run got preempted three times, but it's not a hard no.",
        "No spot ideally, but not a must.",
        "We have nothing reserved yet.",  # a state, not a rule
        "There is nothing spot-related in the plan.",
    ],
)
def test_pricing_not_ruled_out(extract: Extract, text: str) -> None:
    assert extract(text + JOB).pricing_excluded == []


# --------------------------------------------------------------------------- two workloads
def test_constraints_after_the_last_step_are_both_steps(rules: RulesExtractor) -> None:
    a = rules.analyse(
        "(a) fine-tuning: full fine-tune of Gemma 2 9B on 2B tokens, 3 epochs;\n"
        "(b) serving the resulting model to ~400 concurrent agents, 24/7.\n"
        "The vendor must be on our approved list: AWS, Azure or Google Cloud. No spot instances.\n"
        "Please quote (a) first."
    )
    train, serve = merge_findings(None, a.findings), merge_findings(None, a.other)
    assert set(train.providers_required) == {"aws", "azure", "gcp"}
    assert train.pricing_excluded == ["spot"]
    assert serve.concurrency == 400 and set(serve.providers_required) == {"aws", "azure", "gcp"}
    assert train.concurrency is None


def test_a_last_step_keeps_its_own_numbers(rules: RulesExtractor) -> None:
    a = rules.analyse(
        "(a) LoRA fine-tune of Llama 3.1 8B on 50M tokens.\n"
        "(b) serve it to our agents. About 300 concurrent at peak."
    )
    assert merge_findings(None, a.other).concurrency == 300
    assert merge_findings(None, a.findings).concurrency is None


# --------------------------------------------------------------------------- the eval harness
def test_a_provider_family_meets_its_name() -> None:
    # "RunPod" as the user says it is met by the catalog's RunPod tiers, not by another provider
    assert match_field("providers_preferred", ["runpod"], ["runpod-community", "runpod-secure"])
    assert not match_field("providers_preferred", ["runpod"], ["lambda"])
    assert not match_field("pricing_excluded", ["spot"], ["spot-x"])


# --------------------------------------------------------------------------- a phase table's key and value
def test_a_table_key_with_its_unit_in_brackets(rules: RulesExtractor) -> None:
    a = rules.analyse(
        "## Phase 1 - fine-tuning\n- Base model: Llama 3.1 70B\n- Method: QLoRA, rank 64\n"
        "- Data: 180M tokens\n\n## Phase 2 - serving\n| metric | value |\n|---|---|\n"
        "| concurrent users (peak) | 350 |\n| prompt length (tokens) | 2,500 |\n"
        "| answer length (tokens) | 700 |\n| per-user speed (tok/s) | 25 |\n"
    )
    serve = merge_findings(None, a.other)
    assert (serve.concurrency, serve.prompt_tokens, serve.output_tokens) == (350, 2500, 700)
    assert serve.latency_ms_per_token == pytest.approx(40)  # 1000 ms / 25 tokens/s
    assert merge_findings(None, a.findings).concurrency is None


def test_a_bracket_that_is_not_a_unit_stays_with_its_key(extract: Extract) -> None:
    # "(2025)" names a year, not a unit: the row keeps its words and reads no figure from the year
    p = extract("| Serving Llama 3.1 8B | |\n| concurrent users (2025) | peak 40 |\n")
    assert p.concurrency != 2025


# --------------------------------------------------------------------------- names as heard, marks, policies
@pytest.mark.parametrize(
    ("text", "field", "ids"),
    [
        ("We can't use a zur.", "providers_excluded", {"azure"}),  # voice-to-text
        ("It has to run on A W S.", "providers_required", {"aws"}),  # spelt out
        ("Must be on G C P.", "providers_required", {"gcp"}),
        ("We'd prefer lamda labs.", "providers_preferred", {"lambda"}),
        ("Core weave is fine.", "providers_preferred", {"coreweave"}),
        ("None of the big clouds please.", "providers_excluded", {"aws", "azure", "gcp"}),
        ("Nothing from the big three.", "providers_excluded", {"aws", "azure", "gcp"}),
        ("We're an Azure shop.", "providers_preferred", {"azure"}),
        ("Providers: AWS ✅, Azure ❌", "providers_preferred", {"aws"}),
        ("Providers: AWS ✅, Azure ❌", "providers_excluded", {"azure"}),
        ("Allowed clouds: AWS, GCP.", "providers_required", {"aws", "gcp"}),
        ("Keep it in Google Cloud.", "providers_preferred", {"gcp"}),
    ],
)
def test_provider_names_marks_and_policies(extract: Extract, text: str, field: str, ids: set[str]) -> None:
    assert set(getattr(extract(text + JOB), field)) == ids


def test_an_account_with_room_for_others_is_a_preference(extract: Extract) -> None:
    p = extract("We already have an AWS account but are open to others." + JOB)
    assert p.providers_required == [] and p.providers_preferred == ["aws"]


@pytest.mark.parametrize(
    "text",
    ["We got lamb data from the farm.", "The big three models we compared were all too slow."],
)
def test_words_near_provider_names_are_not_providers(extract: Extract, text: str) -> None:
    p = extract(text + JOB)
    assert p.providers_preferred == p.providers_excluded == p.providers_required == []


@pytest.mark.parametrize(
    ("text", "kinds"),
    [
        ("Spot: no.", {"spot"}),  # a key and its answer
        ("Spot ❌.", {"spot"}),
        ("Spot's a no from security.", {"spot"}),
        ("We won't commit to 1-year reservations.", {"reserved"}),
        ("No long-term contracts.", {"reserved"}),
        ("Pay as you go only.", {"spot", "reserved", "owned"}),
    ],
)
def test_pricing_keys_and_contracts(extract: Extract, text: str, kinds: set[str]) -> None:
    assert set(extract(text + JOB).pricing_excluded) == kinds


@pytest.mark.parametrize("text", ["Spot: no problem.", "Spot, no problem, we checkpoint.", "Spot: yes."])
def test_spot_welcome_in_key_form(extract: Extract, text: str) -> None:
    assert extract(text + JOB).pricing_excluded == []


def test_a_key_followed_by_another_no_is_not_its_answer(extract: Extract) -> None:
    # "on-demand capacity: no commitments": the "no" belongs to the commitments, on-demand is the one kept
    p = extract("We can only use on-demand capacity: no commitments (so no reserved) and no spot." + JOB)
    assert set(p.pricing_excluded) == {"spot", "reserved", "owned"}
