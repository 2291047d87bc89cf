"""Reading rules written from the failure lines of evals v9 (issue 12; v9 scored blind first, then read),
each tested on its own phrasing with a near miss where one applies."""

from __future__ import annotations

from collections.abc import Callable

from tools.profile import WorkloadProfile

Extract = Callable[..., WorkloadProfile]


def test_the_output_described_before_its_length(extract: Extract) -> None:
    p = extract(
        "Batch job: tag 10M support emails with Llama 3.1 8B. The response is a short label set, ~12 tokens."
    )
    assert p.output_tokens == 12 and p.generation_tokens == 10e6 * 12
    p = extract("Serve Llama 3.1 8B. The output is streamed to 40 users, ~2 s apart.")
    assert p.output_tokens is None  # no length in tokens


def test_an_items_read_length_is_not_its_output_when_the_output_is_said(extract: Extract) -> None:
    p = extract("Every night we summarise ~50k tickets, ticket text ~1k tokens each, summary ~150 tokens.")
    assert p.output_tokens == 150 and p.generation_tokens == 50e3 * 150
    assert p.concurrency is None  # counted tickets in a batch, not streams open at once


def test_a_clock_window_written_with_a_dash(extract: Extract) -> None:
    p = extract("Nightly job with Llama 3.1 8B: 2M prompts x 300 output tokens. Our window is 22:00-04:00.")
    assert p.deadline_hours == 6


def test_the_time_a_relaxed_asker_grants_is_the_deadline(extract: Extract) -> None:
    p = extract("Translate 300k articles with Gemma 3 12B, ~700 tokens each. No rush, three weeks is fine.")
    assert p.deadline_hours == 21 * 24
    p = extract("LoRA Llama 3.1 8B on 20M tokens. 24 GB is enough for us.")
    assert p.deadline_hours is None


def test_lengths_in_parentheses_and_of_the_answer(extract: Extract) -> None:
    p = extract("Serve Qwen2.5 32B. Inputs are long (~5k tokens of contracts), replies short (~90 tokens).")
    assert (p.prompt_tokens, p.output_tokens) == (5000, 90)
    p = extract("Serve Gemma 2 27B, 2k tokens of prompt and ~300 of answer.")
    assert (p.prompt_tokens, p.output_tokens) == (2000, 300)


def test_tokens_taken_out_of_each_item_and_traces(extract: Extract) -> None:
    p = extract("By Friday: run Llama 3.1 8B on 2M invoices, ~900 tokens in, we pull ~80 tokens out of each")
    assert p.output_tokens == 80 and p.generation_tokens == 2e6 * 80
    p = extract("We need 4B tokens out of Llama 3.1 405B within a month.")
    assert p.output_tokens is None and p.generation_tokens == 4e9  # a volume out of a model
    p = extract("Run Qwen3-32B over 100k puzzles; reasoning traces run ~2,500 tokens on average.")
    assert p.output_tokens == 2500


def test_tomorrow_abbreviated(extract: Extract) -> None:
    p = extract("lora on llama 3.1 8b, ~30M toks, by tmrw EOD?")
    assert p.deadline_hours is not None and 24 < p.deadline_hours < 48  # ref time: Wed 18 Nov 09:00 UTC


def test_gpu_wanted_but_unavailable_is_ruled_out(extract: Extract) -> None:
    p = extract("LoRA Llama 3.1 70B on 250M tokens. H200s would be great but we can't get any allocation.")
    assert "h200" in p.gpus_excluded and "h200" not in p.gpus_wanted
    p = extract("LoRA Llama 3.1 70B on 250M tokens. H200s would be great, please.")
    assert "h200" not in p.gpus_excluded


def test_one_box_of_n_gpus_and_budget_for_one_gpu_cap_the_count(extract: Extract) -> None:
    assert extract("Serve Mixtral 8x22B from a single 8-GPU node.").max_gpus == 8
    assert extract("qlora llama 3.1 8b on 20M tokens; we only have budget for one gpu").max_gpus == 1


def test_nobody_here_does_infra_and_twelve_grand(extract: Extract) -> None:
    p = extract("Two of us, nobody here does infra. LoRA Phi-3.5 mini on 30M tokens, budget ~twelve grand.")
    assert p.ops_capacity == "none" and p.budget_usd == 12_000


def test_more_item_nouns_and_tok_per_item(extract: Extract) -> None:
    assert extract("QLoRA Mixtral 8x7B on ~12k claim summaries, avg 1,500 tokens each").dataset_tokens == 18e6
    assert extract("QLoRA mistral 7b on our 20k tickets (~500 tok each, 3 epochs)").dataset_tokens == 10e6


def test_workstation_cards_named_bare_and_owned_actually(extract: Extract) -> None:
    p = extract("Full FT Qwen2.5 1.5B on 6B tokens. We actually have 4 A6000s. Could they do it in 7 days?")
    assert (p.owned_gpu, p.owned_gpu_count) == ("rtx-a6000", 4)
    assert (p.claimed_gpu, p.claimed_hours) == ("rtx-a6000", 168)


def test_only_to_eu_regions(extract: Extract) -> None:
    p = extract("LoRA Qwen2.5 72B on 900M tokens. We can burst to the cloud, but only to EU regions.")
    assert p.eu_only is True


def test_a_population_and_its_active_share_in_one_sentence(extract: Extract) -> None:
    p = extract("Serving Llama 3.1 8B. 800 clinicians, and at peak about 10% of them are active.")
    assert p.concurrency == 80
    p = extract("Serve Llama 3.1 8B. 800 clinicians use it; we have no figures on peaks.")
    assert p.concurrency != 80
