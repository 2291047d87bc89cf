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
