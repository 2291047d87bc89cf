"""Readings the evals v18 development cases lost (issue 12, burn18): each with variants written the way
teams write and a near miss that must not be read. FX values are computed through the catalog rate
(advisor.extract.units_text.usd_from), not copied from output."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from advisor.extract.rules import RulesExtractor
from advisor.extract.units_text import usd_from
from tools.profile import WorkloadProfile

Extract = Callable[..., WorkloadProfile]
_FT = "LoRA fine-tune of Llama 3.1 8B on 20M tokens, 2 epochs. "
_SERVE = "Serve Llama 3.1 8B to 40 concurrent users, 1,000 prompt and 200 output tokens. "


# --------------------------------------------------------------------------- currencies with a catalog rate
@pytest.mark.parametrize(
    ("said", "amount", "code"),
    [("Budget RM4,000 max.", 4000, "MYR"), ("Budget: MYR 2,500 max.", 2500, "MYR"),
     ("Our budget is CLP 800.000 in total.", 800_000, "CLP")],
)  # fmt: skip
def test_a_budget_in_ringgit_or_chilean_pesos_is_converted(
    extract: Extract, said: str, amount: float, code: str
) -> None:
    assert extract(_FT + said).budget_usd == pytest.approx(usd_from(amount, code).value)


@pytest.mark.parametrize(
    ("said", "price", "code"),
    [("Electricity is AED 0.30 per kWh.", 0.30, "AED"), ("Power costs about 9 ISK per kWh.", 9.0, "ISK")],
)
def test_a_power_price_in_dirham_or_kronur_is_not_read_as_dollars(
    extract: Extract, said: str, price: float, code: str
) -> None:
    want = price * usd_from(1.0, code).value
    assert extract(_SERVE + said).power_price_usd_per_kwh == pytest.approx(want)


def test_a_ringgit_sign_is_no_other_word(extract: Extract) -> None:
    assert extract(_FT + "The RMS error was 4,000 before tuning.").budget_usd is None


# --------------------------------------------------------------------------- spot said without a verb
@pytest.mark.parametrize("said", ["Spot OK.", "Still spot OK, it checkpoints.", "Spot can, no problem.",
                                  "Spot / preemptible: allowed."])  # fmt: skip
def test_spot_welcomed_without_a_verb(extract: Extract, said: str) -> None:
    assert extract(_FT + said).spot_ok is True


@pytest.mark.parametrize("said", ["Spot instances - no, we lost a run last time.", "Y nada de spot.",
                                  "Spot — no."])  # fmt: skip
def test_spot_refused_without_a_verb(extract: Extract, said: str) -> None:
    p = extract(_FT + said)
    assert "spot" in p.pricing_excluded and p.spot_ok is not True


def test_a_spot_question_is_no_verdict(extract: Extract) -> None:
    assert extract(_FT + "Is spot / pre-emptible capacity acceptable?").spot_ok is not True


# --------------------------------------------------------------------------- providers and regions
@pytest.mark.parametrize("said", ["And don't use Azure.", "just don't use Vast ya", "Stay away from GCP."])
def test_dont_use_a_provider_excludes_it(extract: Extract, said: str) -> None:
    assert extract(_FT + said).providers_excluded


@pytest.mark.parametrize("said", ["Processor: Nebius (required; contract signed).", "Nebius is mandatory."])
def test_a_requirement_after_the_name(extract: Extract, said: str) -> None:
    assert extract(_FT + said).providers_required == ["nebius"]


def test_a_provider_not_required_is_no_requirement(extract: Extract) -> None:
    assert extract(_FT + "Nebius is not required.").providers_required == []


@pytest.mark.parametrize("said", ["US data residency (HIPAA).", "It must be US-hosted."])
def test_us_residency_is_us_only_not_eu(extract: Extract, said: str) -> None:
    p = extract(_SERVE + said)
    assert p.us_only is True and p.eu_only is not True


def test_plain_data_residency_still_reads_eu(extract: Extract) -> None:
    assert extract(_SERVE + "Data residency matters to us.").eu_only is True


# --------------------------------------------------------------------------- owned cards asked about
def test_an_organisation_owns_the_cards_and_a_belief_about_them_is_a_claim(extract: Extract) -> None:
    p = extract(
        "We have a cluster of 16x A100 80GB SXM that the institute owns outright. Continued pre-training of "
        "Llama 3.1 8B on 2B tokens. My professor thinks the 16 cards can do it in 4 days. Right?"
    )
    assert (p.owned_gpu_count, p.claimed_gpu_count, p.claimed_hours) == (16, 16, 96)


def test_whether_the_owned_cards_are_enough_is_a_count_claim(extract: Extract) -> None:
    p = extract(
        "We bought 8x H200 for our own data centre. Serve DeepSeek V3 in FP8 to 40 concurrent users. "
        "Please confirm whether the 8 cards are sufficient."
    )
    assert (p.claimed_gpu, p.claimed_gpu_count, p.claimed_hours) == ("h200", 8, None)


def test_a_labelled_feasibility_question_asks_about_the_owned_cards(extract: Extract) -> None:
    p = extract(
        "We have 4x A100 80GB PCIe in our server room. QLoRA on Qwen2.5 72B, 30M tokens, 3 epochs. "
        "Question: can we do it over one weekend?"
    )
    assert (p.claimed_gpu_count, p.claimed_hours) == (4, 60)


# --------------------------------------------------------------------------- training shape
@pytest.mark.parametrize(
    ("said", "n"), [("sequences of 1024", 1024), ("with sequences of 4,096 tokens", 4096)]
)
def test_sequences_of_n_is_the_length(extract: Extract, said: str, n: int) -> None:
    assert extract(f"Full fine-tune of Qwen2.5 1.5B on 240M tokens, {said}.").seq_len == n


def test_sequences_of_a_count_is_no_length(extract: Extract) -> None:
    assert extract("Full fine-tune of Qwen2.5 1.5B on sequences of 2 million chats.").seq_len is None


def test_command_line_flags(extract: Extract) -> None:
    p = extract("Fine-tune: python train_lora.py --base Qwen/Qwen3-8B --lora-r 32 --seq-len 4096 --epochs 2")
    assert (p.method, p.lora_rank, p.seq_len, p.epochs) == ("lora", 32, 4096, 2)


def test_a_set_of_choices_is_no_method(extract: Extract) -> None:
    p = extract("Fine-tune Llama 3.2 3B. --method {full,lora,qlora} (we pass: lora)")
    assert p.method == "lora"


@pytest.mark.parametrize(("said", "want"), [("4-bit NF4 (QLoRA)", "nf4"), ("QLoRA, 4-bit base", "int4")])
def test_qlora_four_bit_is_the_stored_precision(extract: Extract, said: str, want: str) -> None:
    assert extract(f"Fine-tune Llama 3.3 70B with {said}, rank 64, on 180M tokens.").precision == want


def test_four_bit_optimizer_in_full_training_is_no_precision(extract: Extract) -> None:
    assert extract("Full fine-tune of Llama 3.1 8B on 1B tokens with a 4-bit optimizer.").precision is None


def test_a_bold_figure_is_read(extract: Extract) -> None:
    assert extract("Pre-train a 1.1B model from scratch.\n\n* Tokens: **40B**\n").dataset_tokens == 40e9


# --------------------------------------------------------------------------- GPU count caps and schedules
@pytest.mark.parametrize(
    ("said", "n"),
    [("GPUs: H100 only, at most 32 at once.", 32), ("One GPU, two at the very most.", 2),
     ("Ideally 1 GPU, at most 2.", 2)],
)  # fmt: skip
def test_a_cap_after_the_gpu(extract: Extract, said: str, n: int) -> None:
    assert extract(_FT + said).max_gpus == n


def test_nine_to_half_five_is_a_working_day(extract: Extract) -> None:
    p = extract(_SERVE + "Only needed 9 to 5:30 on weekdays.")
    assert p.utilization == pytest.approx(8.5 * 5 / 168)


def test_a_night_window_still_wraps(extract: Extract) -> None:
    p = extract(_SERVE + "Runs weekdays 22:00-06:00 only.")
    assert p.utilization == pytest.approx(8 * 5 / 168)


# --------------------------------------------------------------------------- two workloads
def test_decimal_subsections_headed_by_a_workload_are_two_parts(rules: RulesExtractor) -> None:
    text = (
        "4.1 Training. A LoRA adapter (rank 8) is trained on Mistral 7B, 2 epochs. Location: EU only.\n\n"
        "4.2 Inference. Up to 20 concurrent sessions, ~2,000 tokens in and ~800 out. Same location "
        "requirements as 4.1."
    )
    analysis = rules.analyse(text)
    other = {f.field: f.value for f in analysis.other}
    assert other.get("concurrency") == 20 and other.get("eu_only") is True


def test_a_contracts_numbered_clauses_stay_one_workload(rules: RulesExtractor, extract: Extract) -> None:
    text = (
        "3.1 Consultant shall adapt Llama 3.3 70B by LoRA.\n3.2 The corpus is 250M tokens, two epochs.\n"
        "3.3 Data shall be processed within the EU."
    )
    analysis = rules.analyse(text)
    assert analysis.other == () and extract(text).eu_only is True


def test_everything_hosted_in_the_eu_is_both_parts(rules: RulesExtractor, extract: Extract) -> None:
    text = (
        "Full fine-tuning of Gemma 2 9B on 15M tokens, 3 epochs. After that we will serve it to 60 officers "
        "concurrently, 600 tokens in and 400 out. Everything must be hosted in the EU."
    )
    analysis = rules.analyse(text)
    assert extract(text).eu_only is True
    assert any(f.field == "eu_only" and f.value is True for f in analysis.other)


# --------------------------------------------------------------------------- logs, forms and pastes
def test_a_clarification_logs_answer_belongs_to_its_question(extract: Extract) -> None:
    p = extract(
        _SERVE + "\n\nQ6 (Bidder B): Availability?\nA6: 99.9% monthly, 24x7 service.\n\n"
        "Q7 (Bidder C): Is spot / pre-emptible capacity acceptable?\nA7: No.\n"
    )
    assert (p.availability_target, p.utilization) == (0.999, 1.0) and "spot" in p.pricing_excluded


def test_a_yes_no_answer_to_another_question_states_nothing(extract: Extract) -> None:
    p = extract(_SERVE + "\n\nQ2: Is the deadline firm?\nA2: Yes.\n")
    assert p.deadline_hours is None and p.spot_ok is None


def test_an_exercises_parts_are_one_workload(extract: Extract) -> None:
    p = extract(
        "Scenario: fully fine-tune Qwen2.5 14B with sequences of 4,096 tokens.\n"
        "Part A: how much GPU memory does the job need?\n"
        "Part B: propose a GPU count. Constraints: at most 8 GPUs; no consumer cards.\n"
        "Part C: the team believes 8x A100 80GB can do 3 epochs over 500M tokens in 48 hours. Check it."
    )
    assert (p.max_gpus, p.memory_asked, p.claimed_hours) == (8, True, 48) and p.gpus_excluded


def test_an_alert_threshold_on_the_first_token_is_the_target(extract: Extract) -> None:
    assert extract(_SERVE + 'summary: "p95 time to first token above 1.5 s"').ttft_target_s == 1.5


def test_a_measured_first_token_time_is_no_target(extract: Extract) -> None:
    assert extract(_SERVE + "Time to first token is above 3 s today.").ttft_target_s is None


def test_a_spoken_filler_does_not_hide_the_figure(extract: Extract) -> None:
    p = extract("we wanna run mixtral eight by seven B, prompts like three thousand tokens, answers maybe "
                "five hundred um and it has to be in Europe")  # fmt: skip
    assert p.output_tokens == 500


def test_a_corrigendum_replaces_the_figure(extract: Extract) -> None:
    p = extract(_FT + 'At most 32 GPUs. Corrigendum 1: in M3, "32 GPUs" is replaced by "16 GPUs".')
    assert p.max_gpus == 16


def test_an_org_mode_deadline(extract: Extract) -> None:
    p = extract(
        "* TODO QLoRA run\n  DEADLINE: <2026-12-04 Fri>\n** Setup\n   - QLoRA on Llama 3.3 70B, 180M tokens"
    )
    assert p.deadline_hours is not None and 375 <= p.deadline_hours <= 407  # end of 4 Dec, any US/EU zone


def test_a_chat_logs_timestamp_is_no_date(extract: Extract) -> None:
    assert extract("[2026-11-20 16:02] alice: LoRA on Llama 3.1 8B, 20M tokens").deadline_hours is None


def test_a_help_paste_reads_the_values_passed(extract: Extract) -> None:
    p = extract(
        "Hi, that's our fine-tuning script.\n"
        "  --method        {full,lora,qlora} (we pass: lora)\n"
        "  --lora-rank N   default 8 (we pass 16)\n"
        "  --epochs E      default 1 (we pass 4)\n"
        "  --max-len L     default 512 (we pass 2048)\n"
        "  --data PATH     jsonl; ours has 95k rows, ~700 tokens a row\n"
        "Model: Llama 3.2 3B."
    )
    want = ("lora", 16, 4, 2048, 95_000 * 700)
    assert (p.method, p.lora_rank, p.epochs, p.seq_len, p.dataset_tokens) == want


def test_a_snakefiles_rules_are_two_workloads(rules: RulesExtractor) -> None:
    text = (
        "rule cpt:\n    # continued pre-training of Qwen2.5 14B on our 6B-token corpus, 1 epoch\n"
        "    resources: gpus=8    # upper bound: the cluster quota\n\n"
        "rule generate_abstracts:\n"
        "    # after cpt: generate 2M abstracts, ~250 tokens each, within 72 hours\n"
    )
    analysis = rules.analyse(text)
    mine = {f.field: f.value for f in analysis.findings}
    other = {f.field: f.value for f in analysis.other}
    assert mine.get("max_gpus") == 8 and "deadline_hours" not in mine and other.get("deadline_hours") == 72


def test_a_setting_turned_off(extract: Extract) -> None:
    p = extract("Full DPO on Qwen2.5 7B, 22,000 pairs.\nprecompute_ref_log_probs: false\n")
    assert p.ref_log_probs_precomputed is False


def test_a_reservation_on_the_teams_invoice_is_held(extract: Extract) -> None:
    p = extract(
        "Microsoft Azure invoice, October 2026: Reservations - ND H100 v5 (8x H100) 3-Year, billed monthly, "
        "USD 61,320.00. About 13 months are left on it. Can we serve Qwen3 32B to 70 users on it?"
    )
    want = (8, True, "azure", 13)
    assert (p.owned_gpu_count, p.owned_reserved, p.owned_provider, p.owned_months_left) == want


def test_a_quote_for_a_reservation_is_not_held(extract: Extract) -> None:
    p = extract("AWS sent a quote for a 1-year reservation of one p5.48xlarge (8x H100). Serve Qwen3 32B.")
    assert p.owned_gpu_count is None


@pytest.mark.parametrize(("said", "want"), [("Hosted on a cloud GPU, not on-prem.", "cloud"),
                                            ("We host on-prem, not in the cloud.", "on_prem")])  # fmt: skip
def test_the_negated_deployment_is_the_one_ruled_out(extract: Extract, said: str, want: str) -> None:
    assert extract(_SERVE + said).deployment_preference == want


def test_an_ollama_modelfile(extract: Extract) -> None:
    p = extract(
        "FROM qwen2.5:14b\nPARAMETER num_ctx 8192\n# fine for one user. Going live:\n"
        "#   - ~60 guests chatting at once\n#   - prompts ~3,000 tokens, replies up to 512\n"
        "#   - hosted on a cloud GPU; US region (the guests are US)"
    )
    assert (p.model_id, p.concurrency, p.context_len, p.us_only) == ("qwen2.5-14b", 60, 3512, True)


@pytest.mark.parametrize(
    "said",
    ["Previous model we trained on 1.2 billion tokens, but this is not important now.",
     "The bank's total outsourcing spend (EUR 14.2M) is reported separately.",
     "The server cost USD 1.9 million, for your information."],
)  # fmt: skip
def test_figures_set_aside(extract: Extract, said: str) -> None:
    p = extract("LoRA fine-tune of Llama 3.1 8B on 20M tokens, 2 epochs. Budget EUR 250. " + said)
    assert p.dataset_tokens == 20e6 and p.budget_usd == pytest.approx(usd_from(250, "EUR").value)


def test_a_forms_gpu_count_and_a_german_date(extract: Extract) -> None:
    p = extract(
        "Batch job with Qwen2.5 32B over 4.2 million files, ~120 output tokens each.\n"
        "| Frist / Deadline | spätestens Freitag, 11.12.2026 |\n"
        "| GPU-Anzahl / GPU count | höchstens 8 / at most 8 |"
    )
    assert p.max_gpus == 8 and p.deadline_hours is not None and 543 <= p.deadline_hours <= 575


def test_a_service_up_some_hours_a_day_is_scheduled(extract: Extract) -> None:
    p = extract(_SERVE + "The service runs 12 hours a day, every day.")
    assert p.utilization == 0.5 and p.serving_scheduled is True


def test_a_busy_share_of_the_day_is_not_a_schedule(extract: Extract) -> None:
    assert extract(_SERVE + "It is busy 12 hours a day.").serving_scheduled is not True


def test_one_pass_is_one_epoch(extract: Extract) -> None:
    assert extract("QLoRA on Llama 3.3 70B, 180M tokens of contracts, one pass.").epochs == 1


def test_letters_of_n_tokens_each(extract: Extract) -> None:
    p = extract("A LoRA adapter is trained on Mistral 7B using 12,000 letters of ~1,500 tokens each.")
    assert p.dataset_tokens == 12_000 * 1_500
