"""Field types read the general ways teams write them (rd17): thousands grouped with a space ("2 000
tokens"), a pasted nvidia-smi CSV listing, an organisation holding a pool of GPUs, and claims said with
the modal before the cards ("Will 4x L40S hold it?"), as a count of cards named before ("16 of those") or
as part of the team's own machines ("only one server"); each with a near miss that must not fire."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tools.profile import WorkloadProfile

Extract = Callable[..., WorkloadProfile]
SERVE = "We serve Qwen3 32B to 60 users. "


@pytest.mark.parametrize(
    ("text", "prompt", "output"),
    [
        ("Serve Mistral Small 24B, prompts of about 2 000 tokens, answers of about 300 tokens.", 2000, 300),
        ("Serve Mistral Small 24B, prompts of 1\u00a0500 tokens, answers 250 tokens.", 1500, 250),
        ("Serve Mistral Small 24B, prompts of 1\u202f200 input tokens, answers 200 tokens.", 1200, 200),
    ],
)
def test_thousands_grouped_with_a_space(extract: Extract, text: str, prompt: int, output: int) -> None:
    p = extract(text)
    assert (p.prompt_tokens, p.output_tokens) == (prompt, output), text


def test_spaced_digits_that_are_not_one_number_stay_apart() -> None:
    from advisor.extract.spaced_groups import comma_groups

    # a list of batch sizes, a model name, a year: not thousands
    for text in ("batch sizes 32 64 128 256 tokens", "Llama 3 405B", "on Dec 4 2026", "version 2 100-token"):
        assert comma_groups(text) == text, text
    assert comma_groups("12 000 users and 3 500 € a month") == "12,000 users and 3,500 € a month"


NVIDIA_SMI_CSV = (
    "$ nvidia-smi --query-gpu=index,name,memory.total --format=csv\n"
    "index, name, memory.total [MiB]\n"
    "0, NVIDIA RTX A6000, 49140 MiB\n"
    "1, NVIDIA RTX A6000, 49140 MiB\n"
    "2, NVIDIA RTX A6000, 49140 MiB\n\n"
    "that's our lab box. I want a LoRA of Llama 3.1 8B on 200M tokens."
)


def test_nvidia_smi_csv_rows_are_counted_one_gpu_each(extract: Extract) -> None:
    p = extract(NVIDIA_SMI_CSV)
    assert (p.owned_gpu, p.owned_gpu_count) == ("rtx-a6000", 3)


def test_a_sentence_naming_nvidia_cards_with_commas_is_no_listing(extract: Extract) -> None:
    p = extract("We compared 2, NVIDIA H100 and A100, for a LoRA of Llama 3.1 8B on 200M tokens.")
    assert p.owned_gpu is None and p.owned_gpu_count is None


@pytest.mark.parametrize(
    ("text", "gpu", "count"),
    [
        ("The company holds a reserved AWS cluster of 32 H100 (four p5 nodes), prepaid.", "h100-sxm", 32),
        ("Our lab has a pool of 16 A100 80GB.", "a100-80gb-sxm", 16),
        ("The institute operates a partition with 64 H100.", "h100-sxm", 64),
        ("We keep a prepaid block of 8 H200 on Nebius.", "h200", 8),
    ],
)
def test_an_organisation_holding_a_pool_owns_it(extract: Extract, text: str, gpu: str, count: int) -> None:
    p = extract(text + " Fine-tune Llama 3.1 8B on 1B tokens.")
    assert (p.owned_gpu, p.owned_gpu_count) == (gpu, count), text


@pytest.mark.parametrize(
    "text",
    [
        "We have a quote for a cluster of 32 H100.",
        "The company has budget for a cluster of 32 H100.",
        "Our competitor has a cluster of 1,000 H100.",
        "Last year the company had a cluster of 64 A100.",
        "We have on-demand access to a pool of 16 H100.",
    ],
)
def test_a_pool_weighed_or_someone_elses_is_not_owned(extract: Extract, text: str) -> None:
    p = extract(text + " Fine-tune Llama 3.1 8B on 1B tokens.")
    assert p.owned_gpu_count is None, text


@pytest.mark.parametrize(
    ("text", "gpu", "count"),
    [
        ("Will 4x L40S hold it?", "l40s", 4),
        ("Can 2 A100s handle this?", "a100-80gb-sxm", 2),
        ("Would a single H100 cope?", "h100-sxm", 1),
        ("could 8x H200 serve 150 users?", "h200", 8),
    ],
)
def test_modal_before_the_cards_verb_after(extract: Extract, text: str, gpu: str, count: int) -> None:
    p = extract(SERVE + text)
    assert (p.claimed_gpu, p.claimed_gpu_count) == (gpu, count), text


def test_a_plan_on_named_cards_is_no_claim(extract: Extract) -> None:
    p = extract(SERVE + "We will run 4x L40S in Frankfurt.")
    assert p.claimed_gpu is None and p.claimed_gpu_count is None


def test_a_count_of_the_cards_named_before(extract: Extract) -> None:
    p = extract(
        'accelerator = "h100"  # we only want H100s\n\nThe job: full fine-tune of Llama 3.1 70B over 2B'
        " tokens."
        " Is 16 of those enough to finish in 5 days?"
    )
    assert (p.claimed_gpu, p.claimed_gpu_count, p.claimed_hours) == ("h100-sxm", 16, 120)


def test_a_count_of_something_else_after_the_cards_is_no_claim(extract: Extract) -> None:
    p = extract("We want H100s. Serve Llama 3.1 8B to 300 users, 16 of those users are admins.")
    assert p.claimed_gpu_count is None


OWNED_TWO = "We have bought 2 servers with 8 H200 each, in our datacenter. We serve Llama 3.1 405B to 150."
OWNED_TWO += " users. "


def test_one_of_the_teams_machines_asked_about(extract: Extract) -> None:
    p = extract(OWNED_TWO + "It is possible with only one server or we need the two?")
    assert (p.owned_gpu_count, p.claimed_gpu, p.claimed_gpu_count) == (16, "h200", 8)


def test_one_machine_said_as_a_fact_is_no_claim(extract: Extract) -> None:
    p = extract(OWNED_TWO + "One server is in Madrid, the other in Lyon.")
    assert p.claimed_gpu is None and p.owned_gpu_count == 16


def test_a_machine_left_to_the_team_is_owned(extract: Extract) -> None:
    p = extract("A previous project left us a server with 4x A100 40GB PCIe. LoRA Llama 3.1 8B on 3B tokens.")
    assert (p.owned_gpu, p.owned_gpu_count) == ("a100-40gb-pcie", 4)


def test_a_quote_left_with_the_team_is_not_owned(extract: Extract) -> None:
    p = extract("The vendor left us a quote for a server with 4x A100. LoRA Llama 3.1 8B on 300M tokens.")
    assert p.owned_gpu_count is None


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("The department cluster has 32 A100 80GB, but 20 of them belong to the vision group, so in fact"
         " we get 12.", 12),
        ("Our lab has 16 A100 80GB, we can only use 8 of them.", 8),
        # near misses: a rate, not a share; a share no smaller than the pool
        ("Our lab has 16 A100 80GB; we get 12 tokens/s today.", 16),
        ("Our lab has 16 A100 80GB and we use 16.", 16),
    ],
)
def test_the_part_of_the_pool_the_team_gets(extract: Extract, text: str, count: int) -> None:
    p = extract(text + " Full fine-tune of Llama 3.1 8B on 800M tokens.")
    assert p.owned_gpu_count == count, text


@pytest.mark.parametrize(
    ("text", "gpu", "count"),
    [
        ("We own 3 boxes with 4 cards each, all RTX 4090.", "rtx-4090", 12),
        ("Hardware: 2 nodes, 8x H100 per node (owned).", "h100-sxm", 16),
        ("we got 2 boxes w/ 8 H100 each", "h100-sxm", 16),
    ],
)
def test_machines_times_the_cards_in_each(extract: Extract, text: str, gpu: str, count: int) -> None:
    p = extract(text + " Fine-tune Llama 3.1 8B on 1B tokens.")
    assert (p.owned_gpu, p.owned_gpu_count) == (gpu, count), text


@pytest.mark.parametrize(
    "text",
    [
        "We need 2 boxes w/ 8 H100 each.",
        "Lambda quoted us 2 nodes with 8 H100 each.",
        "Our competitor runs 100 nodes with 8 H100 each.",
    ],
)
def test_machines_wanted_quoted_or_someone_elses_are_not_owned(extract: Extract, text: str) -> None:
    assert extract(text + " Fine-tune Llama 3.1 8B on 1B tokens.").owned_gpu_count is None, text


@pytest.mark.parametrize(
    ("text", "gpu", "count"),
    [
        ("Our consultant recommended 8x A100 for this.", "a100-80gb-sxm", 8),
        ("The sales rep proposed 2 H200 nodes.", "h200", 16),  # 8 GPUs a node
        ("We were quoted 4x H100 for this by Lambda.", "h100-sxm", 4),
        ("Planning on 4 H100s - sanity check?", "h100-sxm", 4),
        ("4x L40S should be fine, right?", "l40s", 4),
    ],
)
def test_advised_or_checked_hardware_is_a_claim(extract: Extract, text: str, gpu: str, count: int) -> None:
    p = extract(SERVE + text)
    assert (p.claimed_gpu, p.claimed_gpu_count) == (gpu, count), text


@pytest.mark.parametrize(
    "text",
    ["We use 4 H100s in Frankfurt.", "The consultant recommended not to use spot. We want H100s."],
)
def test_hardware_used_or_advice_on_something_else_is_no_claim(extract: Extract, text: str) -> None:
    assert extract(SERVE + text).claimed_gpu is None, text
