"""Owned GPUs held as a cloud reservation, where they are and the term left (advisor/extract/
rules_reservation.py; expert review 4, R12), each with a near miss read the other way."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from advisor.extract.units_text import WEEKS_PER_MONTH
from tools.profile import WorkloadProfile

Extract = Callable[..., WorkloadProfile]


def test_a_held_reservation_is_reserved_capacity_with_its_host_and_term(extract: Extract) -> None:
    p = extract(
        "We hold a 1-year reservation of 16 H100s on AWS (two p5 nodes), 5 months left on it. Can we "
        "pretrain a 7B model on 1T tokens on it before the reservation ends?"
    )
    assert (p.owned_gpu, p.owned_gpu_count) == ("h100-sxm", 16)
    assert p.owned_reserved is True and p.owned_provider == "aws" and p.owned_months_left == 5


def test_reserved_until_a_date_is_reserved_capacity(extract: Extract) -> None:
    p = extract(
        "we have 8x H200 reserved at CoreWeave until end of March. full fine-tune llama 3.1 8b on 2B tokens"
    )
    assert (p.owned_gpu, p.owned_gpu_count, p.owned_reserved) == ("h200", 8, True)
    assert p.owned_provider == "coreweave"


def test_our_reservation_of_with_time_remaining(extract: Extract) -> None:
    p = extract("our reservation of 32 H100s at Lambda has 3 months remaining. LoRA llama 3.1 70B, 1B tokens")
    assert (p.owned_gpu_count, p.owned_reserved, p.owned_provider) == (32, True, "lambda")
    assert p.owned_months_left == 3


def test_a_lease_is_owned_hardware_with_a_term_but_not_a_reservation(extract: Extract) -> None:
    p = extract("Our lease on the 16 A100s runs out in 10 weeks. QLoRA Llama 3.3 70B on 500M tokens.")
    assert (p.owned_gpu, p.owned_gpu_count) == ("a100-80gb-sxm", 16)
    assert p.owned_reserved is None  # a lease of servers still draws power where they stand
    assert p.owned_months_left == pytest.approx(10 / WEEKS_PER_MONTH)


def test_bought_hardware_is_not_reserved_and_time_before_launch_is_no_term(extract: Extract) -> None:
    p = extract("We own 8 A100 80GB. We have 2 months left before launch to LoRA Llama 3.1 70B, 300M tokens")
    assert p.owned_gpu_count == 8 and p.owned_reserved is None
    assert p.owned_months_left is None  # the time before a launch is a deadline, not the hardware's term
    p = extract("We own 8 H100s. We'll serve Llama 3.1 70B on them for the next 6 months.")
    assert p.owned_months_left is None  # how long they will serve, not a term on the hardware


def test_an_adverb_after_the_model_says_full_fine_tuning(extract: Extract) -> None:
    p = extract("Can we finetune llama 3.1 70B fully on 5B tokens on 32 H100s?")
    assert p.method == "full"
    p = extract("Fine-tune llama 3.1 8B with LoRA, fully managed by the provider.")
    assert p.method == "lora"


def test_renting_on_a_reservation_the_team_means_to_sign_is_reserved_pricing_only(extract: Extract) -> None:
    for text in (
        "Serve Llama 3.1 70B to ~40 concurrent chats, on a 1-year reservation.",
        "Serve Llama 3.1 8B, 30 users, we'd like a 1-year reserved setup at ~$10k per month max.",
        "We'll go with a 1-year reservation for serving Qwen2.5 32B to 60 users.",
    ):
        p = extract(text)
        assert sorted(p.pricing_excluded) == ["on_demand", "owned", "spot"], text
        assert p.owned_gpu is None and p.owned_reserved is None, text


def test_a_reservation_allowed_rules_nothing_out_and_one_held_is_capacity(extract: Extract) -> None:
    p = extract("Serving Qwen2.5 32B to 60 users at once. Reserved instances for 1 year are fine.")
    assert p.pricing_excluded == []
    p = extract("Serve Qwen2.5 32B to 60 users; we're open to a 1-year reservation.")
    assert p.pricing_excluded == []
    p = extract("We hold a 1-year reservation of 16 H100s on AWS. Serve Llama 3.1 70B to 200 users on it.")
    assert p.owned_reserved is True and p.pricing_excluded == []


def test_a_monthly_ceiling_said_after_the_period(extract: Extract) -> None:
    assert extract("Serve Llama 3.1 8B, 30 users, ~$10k per month max.").budget_usd == 10_000
    assert extract("Serve Llama 3.1 8B to 30 users; we pay $8k a month tops.").budget_usd == 8_000
    p = extract("Serve Llama 3.1 8B to 30 users; we paid $8k a month for the old vendor.")
    assert p.budget_usd is None  # what was paid before, not a ceiling


def test_reservations_held_said_the_way_review_6_wrote_them(extract: Extract) -> None:
    p = extract(
        "We already hold a 3-month reservation for 16x H100 SXM on CoreWeave (two nodes, InfiniBand). Is "
        "that enough for a full-parameter SFT of Qwen2.5 72B on 2B tokens?"
    )
    assert (p.owned_gpu, p.owned_gpu_count, p.owned_reserved) == ("h100-sxm", 16, True)
    assert p.owned_provider == "coreweave"
    p = extract("We have 16x H200 (two nodes) reserved on Nebius for 6 weeks. Pretrain 3B on 200B tokens.")
    assert (p.owned_gpu, p.owned_gpu_count, p.owned_reserved) == ("h200", 16, True)
    p = extract("We'd rent 16x H200 reserved on Nebius, on demand is too pricey. Pretrain 3B on 200B tokens")
    assert p.owned_gpu is None  # a rental the team means to take, not capacity it holds


def test_nodes_of_gpus_held_on_a_reservation(extract: Extract) -> None:
    # review 6, R20: "a 2-node 8x H200 reservation" was never read as held capacity
    p = extract("We have a 2-node 8x H200 reservation on Nebius for the next 6 weeks. Continue pretraining "
                "Qwen2.5 32B on 50B tokens with it.")  # fmt: skip
    assert (p.owned_gpu, p.owned_gpu_count, p.owned_reserved) == ("h200", 16, True)
    assert p.owned_provider == "nebius"
    p = extract("We want a 2-node 8x H200 cluster for pretraining Qwen2.5 32B on 50B tokens.")
    assert p.owned_gpu is None  # wanted, not held


def test_a_machine_spelled_out_in_brackets_names_its_card(extract: Extract) -> None:
    # review 6, R16: "a DGX A100 (8x A100 40GB)" was read as the 80 GB card
    p = extract("Our lab has a DGX A100 (8x A100 40GB). Could we serve Llama 3.3 70B for 40 users on it?")
    assert (p.owned_gpu, p.owned_gpu_count) == ("a100-40gb-sxm", 8)
    assert extract("We have two DGX A100s. Serve Llama 3.3 70B to 40 users.").owned_gpu_count == 16
