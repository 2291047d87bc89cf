"""Reading rules from requests written during development spot checks (issue 12): each on its own
phrasing, with a near miss where one applies."""

from __future__ import annotations

from collections.abc import Callable

from advisor.extract.accounting import account_for
from tools.profile import WorkloadProfile

Extract = Callable[..., WorkloadProfile]


def test_a_length_inside_a_parenthesis_that_names_the_kind(extract: Extract) -> None:
    p = extract("Serve Llama 3.3 70B. Prompts are long (RAG, ~6k tokens), answers ~400.")
    assert (p.prompt_tokens, p.output_tokens) == (6000, 400)
    p = extract("Serve Qwen2.5 32B; the inputs are big (contracts: about 12k tokens), replies ~300 tokens.")
    assert (p.prompt_tokens, p.output_tokens) == (12_000, 300)


def test_a_parenthesis_without_a_token_length_sets_nothing(extract: Extract) -> None:
    p = extract("Serve Llama 3.3 70B. Prompts are long (RAG, 6 retrievers), answers vary.")
    assert p.prompt_tokens is None and p.output_tokens is None


def test_models_listed_together_are_sized_for_the_largest(extract: Extract) -> None:
    p = extract(
        "Eval sweep: 12k prompts x 5 models (Llama 3.1 8B, Qwen2.5 7B, Mistral 7B, Gemma 2 9B, Phi-3 mini),"
        " ~1.5k tokens in, ~500 out."
    )
    assert (p.model_id, p.params_b) == ("gemma-2-9b", 9.0)  # id and size from the same model
    assert p.generation_tokens == 12_000 * 500 * 5  # the prompts run once per model
    p = extract("LoRA on Llama 3.1 70B or Llama 3.1 8B, not decided yet.")
    assert p.model_id == "llama-3.1-70b"


def test_models_with_different_roles_are_not_a_list(extract: Extract) -> None:
    p = extract("Serve Qwen2.5 72B instead of Llama 3 70B.")
    assert p.model_id == "qwen2.5-72b"
    p = extract("Score 40k documents with Llama 3.1 8B, about 300 tokens out each.")
    assert p.generation_tokens == 40_000 * 300  # no model count: run once


def test_every_model_of_a_list_is_read(extract: Extract) -> None:
    text = "Eval sweep: 12k prompts on Llama 3.1 8B, Qwen2.5 7B and Gemma 2 9B, ~1k tokens in, ~200 out."
    unused = " ".join(c.text for c in account_for(text, extract(text)).unused)
    assert "Qwen2.5" not in unused and "Llama" not in unused


def test_a_comparison_asked_about_a_counted_configuration_is_checked(extract: Extract) -> None:
    p = extract(
        "We have 4x A100 80GB in our own rack. Continue pretraining Qwen2.5 7B on ~30B tokens. "
        "How long would that take on our box, and would renting 8x H100 for it be much faster?"
    )
    assert (p.owned_gpu, p.owned_gpu_count) == ("a100-80gb-sxm", 4)
    assert (p.claimed_gpu, p.claimed_gpu_count) == ("h100-sxm", 8)
    p = extract("LoRA Llama 3.1 8B on 20M tokens. H100s are faster than A100s, right?")
    assert p.claimed_gpu is None  # no configuration to time


def test_a_double_negative_leaves_one_provider_required(extract: Extract) -> None:
    for text in (
        "We're an AWS shop (us-east-1) and can't use anything else for compliance.",
        "We are on Azure and cannot use other clouds.",
        "We can't use anything but GCP.",
        "Nothing other than Azure, per policy.",
    ):
        p = extract(f"Serve Mixtral 8x7B. {text}")
        assert p.providers_required and not p.providers_excluded, text
    p = extract("Serve Mixtral 8x7B. Anything but CoreWeave is fine.")
    assert p.providers_excluded == ["coreweave"] and not p.providers_required
    p = extract("Serve Mixtral 8x7B. We use GCP, but can't use anything else than spot there.")
    assert not p.providers_required and not p.providers_excluded


def test_a_double_negative_leaves_one_pricing(extract: Extract) -> None:
    p = extract("Serve Mixtral 8x7B. We can't use anything other than spot.")
    assert "spot" not in p.pricing_excluded and "on_demand" in p.pricing_excluded
    p = extract("Serve Mixtral 8x7B. Nothing but reserved.")
    assert "reserved" not in p.pricing_excluded and "spot" in p.pricing_excluded
    p = extract("Serve Mixtral 8x7B. Anything but spot is fine.")
    assert p.pricing_excluded == ["spot"]


def test_requests_per_month_are_a_steady_rate_not_one_batch(extract: Extract) -> None:
    p = extract("Serve Mixtral 8x7B. Traffic: ~2M requests/month, avg 800 tokens prompt, 250 completion.")
    assert (p.prompt_tokens, p.output_tokens) == (800, 250)
    assert p.generation_tokens is None
    # 2M x 250 / 730 h = 190 tokens/s on average, sized at the assumed 2x peak (expert review 19, R11)
    assert p.target_tokens_per_s is not None and 300 < p.target_tokens_per_s < 500


def test_a_latency_budget_for_the_full_response(extract: Extract) -> None:
    p = extract("Serve Mixtral 8x7B, answers ~250 tokens. p95 latency budget 3s for the full response.")
    assert p.latency_ms_per_token is not None and abs(p.latency_ms_per_token - 12.0) < 0.01
    p = extract("Serve Mixtral 8x7B, answers ~250 tokens. Our latency budget is 3s for the team.")
    assert p.latency_ms_per_token is None


def test_capacity_the_team_can_get_is_a_preference_and_a_cap(extract: Extract) -> None:
    p = extract("Full FT of Llama 3.1 70B on 2B tokens; we can get up to 64 H100s on CoreWeave.")
    assert p.providers_preferred == ["coreweave"] and p.max_gpus == 64
    assert "h100-sxm" in p.gpus_wanted
    p = extract("Full FT of Llama 3.1 70B on 2B tokens. Nebius can give us 32 H200s.")
    assert p.providers_preferred == ["nebius"] and "h200" in p.gpus_wanted
    p = extract("Full FT of Llama 3.1 70B on 2B tokens, up to 8 H100 per node.")
    assert p.max_gpus is None  # a node's size, not a cap on the job


def test_would_rather_is_a_preference_not_a_question() -> None:
    from advisor.extract.accounting import clause_kind

    assert clause_kind("but would rather use less") != "question"
    assert clause_kind("but would it fit on one node?") == "question"


def test_a_count_glued_to_a_consumer_card_in_a_box(extract: Extract) -> None:
    p = extract("can i qlora llama 3.1 70b on my 2x3090 box?")
    assert (p.owned_gpu, p.owned_gpu_count) == ("rtx-3090", 2)
    p = extract("Our H100 cluster is busy this month. LoRA Llama 3 8B on 20M tokens.")
    assert p.owned_gpu == "h100-sxm" and p.owned_gpu_count is None  # a cluster's size is not said


def test_not_looking_at_consumer_cards_rules_them_out(extract: Extract) -> None:
    for text in ("Not looking at consumer GPUs.", "We're not considering gaming cards."):
        p = extract(f"Serve Qwen2.5 32B to 20 users. {text}")
        assert "rtx-4090" in p.gpus_excluded, text


def test_money_committed_at_a_provider_is_a_preference(extract: Extract) -> None:
    p = extract("Serve Qwen2.5 32B. We have a GCP commitment we need to burn down.")
    assert p.providers_preferred == ["gcp"]
    p = extract("Serve Qwen2.5 32B. We still have Azure credits.")
    assert p.providers_preferred == ["azure"]
    p = extract("Serve Qwen2.5 32B. No long-term commitment with AWS, please.")
    assert p.providers_preferred == [] and p.providers_excluded == [] and p.pricing_excluded == ["reserved"]


def test_a_wish_with_its_requirement_lifted_stays_a_wish(extract: Extract) -> None:
    p = extract("Pretrain a 1.3B model on 26B tokens. GCP would be nice but it's not mandatory.")
    assert p.providers_preferred == ["gcp"] and p.providers_excluded == []
    p = extract("Pretrain a 1.3B model on 26B tokens. GCP would be nice, Azure is not an option.")
    assert p.providers_excluded == ["azure"]


def test_an_item_count_and_the_items_size_in_different_sentences(extract: Extract) -> None:
    p = extract("LoRA Llama 3.1 8B on our tickets, about 40k of them. They're around 600 tokens each.")
    assert p.dataset_tokens == 40_000 * 600
    p = extract("LoRA Llama 3.1 8B on about 40k support tickets. Each one is ~600 tokens.")
    assert p.dataset_tokens == 40_000 * 600
    p = extract("LoRA Llama 3.1 8B on 40k tickets. Our GPUs have 80 GB each.")
    assert p.dataset_tokens is None  # a size that is not the items'


def test_items_described_with_hyphenated_or_slashed_words(extract: Extract) -> None:
    p = extract("QLoRA Llama 3.1 70B. Data: ~180,000 de-identified note/summary pairs, avg 1,100 tokens each")
    assert p.dataset_tokens == 180_000 * 1_100


def test_a_line_keyed_by_part_inside_a_shared_section(rules: object) -> None:
    brief = (
        "# Sizing\n\n## Phase 1 - fine-tuning\n- QLoRA of Llama 3.1 70B on 200M tokens, 2 epochs\n\n"
        "## Phase 2 - serving\n- peak 90 concurrent sessions, prompts 3,500 tokens, answers ~350 tokens\n\n"
        "## Budget\nTraining: up to $25,000 one-off. Serving: ideally below $15k per month.\n"
    )
    a = rules.analyse(brief)  # type: ignore[attr-defined]
    training = {f.field: f.value for f in a.findings}
    serving = {f.field: f.value for f in a.other}
    assert training["budget_usd"] == 25_000 and serving["budget_usd"] == 15_000


def test_a_monthly_ceiling_without_the_word_budget(extract: Extract) -> None:
    p = extract("Serve Llama 3.1 70B to 90 users; it must cost less than $8k/month.")
    assert p.budget_usd == 8_000


def test_an_answer_length_per_item_is_not_the_prompt(extract: Extract) -> None:
    p = extract(
        "Need to classify 20M documents (avg 800 tokens each) with Llama 3.1 8B, output is ~5 tokens per doc."
        " Must finish within 48 hours."
    )
    assert (p.prompt_tokens, p.output_tokens) == (800, 5)
    assert p.deadline_hours == 48


def test_community_clouds_ruled_out_and_eu_hosting_needed(extract: Extract) -> None:
    p = extract("LoRA Llama 3.1 8B on 50M tokens. Security said no community clouds. We need EU hosting.")
    assert {"vast-ai", "runpod-community", "spheron"} <= set(p.providers_excluded)
    assert "aws" not in p.providers_excluded and p.eu_only is True
    p = extract("Serve Llama 3.1 8B to 15 users. Nothing outside Azure, please.")
    assert p.providers_required == ["azure"]


def test_a_later_turn_names_another_size_of_the_same_model(rules: object) -> None:
    from advisor.extract.rules import RulesExtractor

    assert isinstance(rules, RulesExtractor)
    first = rules.extract("LoRA fine-tune Llama 3.1 8B on 50M tokens of our docs")
    p = rules.extract("Actually scratch that, it's the 70B.", first)
    assert p.model_id == "llama-3.1-70b" and p.params_b is not None and p.params_b > 70
    p = rules.extract("it's the 13B", first)  # no Llama 3.1 13B in the catalog: nothing invented
    assert p.model_id == "llama-3.1-8b"


def test_can_we_on_a_counted_node_is_a_question_about_that_hardware(extract: Extract) -> None:
    p = extract("Can we serve Llama 3.1 405B in FP16 on a single 8x H100 node for ~30 users?")
    assert (p.claimed_gpu, p.claimed_gpu_count) == ("h100-sxm", 8)
    p = extract("Fine tune llama 2 13b with lora on 5M tokens. Could we just use a T4?")
    assert p.claimed_gpu is None  # no count written: weighed by the answer, not a configuration to check


def test_the_low_end_of_a_money_range_is_not_an_amount(extract: Extract) -> None:
    # "$2-3k" had been read as a $2 budget
    assert extract("Serve Llama 3.1 8B to 40 users. We pay $2-3k a month for the API now.").budget_usd is None
    assert extract("Serve Llama 3.1 8B to 40 users, budget $2-3k a month.").budget_usd == 3000
    assert extract("LoRA Llama 3.1 8B on 50M tokens, budget $2-3k.").budget_usd == 3000
    assert extract("Serve Llama 3.1 8B to 40 users; H100s cost $2-3 per hour.").budget_usd is None


def test_nine_to_five_is_eight_hours_and_office_hours_nine(extract: Extract) -> None:
    # 8 h x 5 days / 168 h; "office hours" keeps the assumed 9 h day (9 to 6)
    nine_to_five = extract("Serve Llama 3.1 8B to 40 users, only 9 to 5, weekdays.").utilization
    office = extract("Serve Llama 3.1 8B to 40 users during business hours.").utilization
    assert nine_to_five is not None and abs(nine_to_five - 40 / 168) < 1e-9
    assert office is not None and abs(office - 45 / 168) < 1e-9
