"""Reading rules written from the failure lines of evals v10 (issue 12; v10 scored blind first, then read
as development data), each tested on the case's phrasing, phrasings of our own and a near miss read the
other way."""

from __future__ import annotations

from collections.abc import Callable

from tools.profile import WorkloadProfile

Extract = Callable[..., WorkloadProfile]


def test_a_guess_about_owned_hardware_named_by_a_pronoun_is_a_claim(extract: Extract) -> None:
    p = extract(
        "We have 8x RTX A6000 in one server. QLoRA Llama 3.1 70B on 90M tokens. "
        "I reckon it'd take ~5 days on ours."
    )
    assert (p.claimed_gpu, p.claimed_gpu_count, p.claimed_hours) == ("rtx-a6000", 8, 120)
    p = extract("We own 4x L40S. LoRA Llama 3.1 8B on 50M tokens. Could they finish it in 2 days?")
    assert (p.claimed_gpu, p.claimed_gpu_count, p.claimed_hours) == ("l40s", 4, 48)
    p = extract(
        "We own 2 H100s. LoRA Llama 3.1 8B on 50M tokens. How many days on the box? Our guess is a week."
    )
    assert (p.claimed_gpu, p.claimed_hours) == ("h100-sxm", 168)
    # near miss: a deadline with no reference to the owned cards stays a deadline, not a claim
    p = extract("We own 4x L40S. LoRA Llama 3.1 8B on 50M tokens. We need it done in 2 days.")
    assert p.claimed_gpu is None and p.deadline_hours == 48


def test_a_feasibility_question_in_a_later_turn_asks_about_the_owned_cards(extract: Extract) -> None:
    prior = extract("We own 4x H100 PCIe. Full fine-tune of Mistral 7B, 3B tokens, 1 epoch.")
    p = extract("Can we get that done over a long weekend, like 3.5 days?", prior)
    assert (p.claimed_gpu, p.claimed_gpu_count, p.claimed_hours) == ("h100-pcie", 4, 84)
    p = extract("Could we do it in 10 days?", prior)
    assert (p.claimed_gpu, p.claimed_hours) == ("h100-pcie", 240)
    # near miss: other hardware named in the question is that hardware's claim, not the owned cards'
    p = extract("Could we do it in 10 days on 8x B200?", prior)
    assert p.claimed_gpu == "b200"


def test_that_window_is_the_date_span_the_owned_box_is_free(extract: Extract) -> None:
    p = extract(
        "Our DGX H100 (one box, 8 GPUs) is free over the holidays, 20 Dec to 4 Jan. Can we pretrain a "
        "3B-parameter model from scratch on 60B tokens in that window?"
    )
    assert (p.claimed_gpu, p.claimed_gpu_count, p.claimed_hours) == ("h100-sxm", 8, 360)
    p = extract(
        "We own 8x A100 80GB, idle from Dec 1 to Dec 8. Could we LoRA Llama 3.1 70B on 1B tokens "
        "during that period?"
    )
    assert (p.claimed_gpu, p.claimed_hours) == ("a100-80gb-sxm", 168)
    # near miss: no window named, no claim hours
    p = extract("Our DGX H100 is free over the holidays. Can we pretrain a 3B model on 60B tokens?")
    assert p.claimed_hours is None


def test_nodes_asked_about_of_an_owned_node_cluster(extract: Extract) -> None:
    p = extract(
        "Our uni cluster (SLURM) has 4 nodes with 4x A100 40GB each. Continued pretraining of Llama 3.2 3B "
        "on 5B tokens. Is it realistic to do it in one 48h job on 2 nodes?"
    )
    assert (p.owned_gpu_count, p.claimed_gpu_count, p.claimed_hours) == (16, 8, 48)
    p = extract(
        "Our lab cluster has 3 servers with 8x H100 each. Pretrain a 1B model on 20B tokens. "
        "Can it be done in a single 3-day run on 1 server?"
    )
    assert (p.owned_gpu_count, p.claimed_hours) == (24, 72)


def test_a_lease_for_years_is_hardware_in_hand_a_short_one_is_not(extract: Extract) -> None:
    p = extract(
        "We leased one HGX B200 box (8 GPUs) for two years, it's ours to use. Generate 5M dialogues with "
        "Llama 3.3 70B."
    )
    assert (p.owned_gpu, p.owned_gpu_count) == ("b200", 8)
    p = extract("We leased 8x H100 for 3 years. Serve Llama 3.1 70B to 100 users.")
    assert (p.owned_gpu, p.owned_gpu_count) == ("h100-sxm", 8)
    p = extract("We leased 8x H100 on Lambda last week. Serve Llama 3.1 70B to 100 users.")
    assert p.owned_gpu is None


def test_power_priced_in_pence_per_kwh(extract: Extract) -> None:
    p = extract("LoRA Llama 3.1 8B on 20M tokens on our 8x A6000. Electricity is about 24p per kWh.")
    assert p.power_price_usd_per_kwh is not None and 0.28 <= p.power_price_usd_per_kwh <= 0.34
    p = extract("LoRA Llama 3.1 8B on 20M tokens on our 8x A6000. We pay 30p a kWh.")
    assert p.power_price_usd_per_kwh is not None and 0.36 <= p.power_price_usd_per_kwh <= 0.42
    p = extract("LoRA Llama 3.1 8B on 20M tokens on our 8x A6000. Power: 20p/kWh.")
    assert p.power_price_usd_per_kwh is not None and 0.24 <= p.power_price_usd_per_kwh <= 0.28
    # near miss: a power draw per rack is not a price
    p = extract("LoRA Llama 3.1 8B on 20M tokens. Our rack draws 24 kW per rack.")
    assert p.power_price_usd_per_kwh is None


def test_more_kinds_of_counted_batch_items(extract: Extract) -> None:
    p = extract(
        "Scoring job with Phi-4 as the judge: 600k pairs, ~1.5k tokens in, ~20 tokens out. Any time in "
        "the next 2 weeks."
    )
    assert p.generation_tokens == 600e3 * 20
    p = extract("Batch job: generate 5M synthetic dialogues with Llama 3.3 70B, ~600 tokens each.")
    assert p.generation_tokens == 5e6 * 600 and p.output_tokens == 600
    p = extract("Batch job: write 2M product headlines with Qwen2.5 7B, ~15 tokens each, by Friday.")
    assert p.generation_tokens == 2e6 * 15
    # near miss: a few pairs are not a batch volume
    p = extract("Serve Phi-4 to 30 users; compare 3 pairs of answers, ~20 tokens out each.")
    assert p.generation_tokens is None


def test_overnight_granted_with_a_hedged_length(extract: Extract) -> None:
    p = extract("classify ~1.5M product titles w/ qwen2.5 7b. answer is 5 tokens. overnight is fine (12h?)")
    assert p.deadline_hours == 12
    p = extract("Summarise 200k tickets with Llama 3.1 8B, ~100 tokens out each. Overnight would be ok (10h)")
    assert p.deadline_hours == 10
    p = extract("Summarise 200k tickets with Llama 3.1 8B, ~100 tokens out each. Overnight is fine.")
    assert p.deadline_hours == 12  # units_text.OVERNIGHT_HOURS
    # near miss: a restart overnight is not a deadline
    p = extract("Serve Llama 3.1 8B to 50 users; we restart it overnight.")
    assert p.deadline_hours is None


def test_the_answer_described_before_its_length(extract: Extract) -> None:
    p = extract("classify 1.5M titles w/ qwen2.5 7b, answer is just a label so like 5 tokens. overnight ok")
    assert p.output_tokens == 5 and p.generation_tokens == 1.5e6 * 5
    p = extract("Serve Qwen2.5 7B to 40 users; the answer is only a yes/no so about 2 tokens.")
    assert p.output_tokens == 2
    # near miss: a count of labels is not the answer's length
    p = extract("Serve Qwen2.5 7B to 40 users; the answer is just a label, we have 5 labels.")
    assert p.output_tokens is None
