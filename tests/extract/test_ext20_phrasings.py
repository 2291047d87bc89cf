"""How v16's writers said what the rules missed (evals v16, development data; issue 12): each phrasing, two
variants of our own written the way teams write, and a near miss that must not match."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from advisor.extract.rules_text import transcript_lines
from tools.profile import WorkloadProfile

Extract = Callable[..., WorkloadProfile]
SERVE = "Serve Llama 3.1 8B to 30 users. "
TRAIN = "Full fine-tuning of Llama 3.2 1B on 400M tokens. "


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        ("We have 120.000 examples with more or less 500 tokens each one.", 6.0e7),  # v16, Brazilian
        ("Wir haben 40.000 Beispiele, also 40.000 examples of 800 tokens each.", 3.2e7),
        ("dataset: 2.500 samples x 1,000 tokens each", 2.5e6),
        ("We have 1.5k examples of 400 tokens each.", 6.0e5),  # near miss: a decimal with a multiplier
    ],
)
def test_dot_grouped_item_counts(extract: Extract, text: str, tokens: float) -> None:
    assert extract(f"LoRA on Gemma 3 27B. {text}").dataset_tokens == pytest.approx(tokens)


@pytest.mark.parametrize(
    ("text", "ok"),
    [
        ("Spot instances is no problem, we save checkpoint.", True),  # v16
        ("Preemptible VMs are not a problem for us.", True),
        ("spot is really no issue, we resume from S3", True),
        ("Spot is no problem for them, but we cannot use it.", None),  # near miss: someone else's
    ],
)
def test_spot_no_problem(extract: Extract, text: str, ok: bool | None) -> None:
    assert extract(f"LoRA Gemma 3 27B on 60M tokens. {text}").spot_ok is ok


@pytest.mark.parametrize(
    ("text", "target"),
    [
        ("Uptime commitment in the MSA: 99.9%", 0.999),  # v16, a CRM record
        ("availability guarantee per the SLA is 99.95%", 0.9995),
        ("uptime requirement: 99.5%", 0.995),
        ("Our uptime last month was 99.2% per the dashboard.", None),  # near miss: a measurement
    ],
)
def test_availability_commitment(extract: Extract, text: str, target: float | None) -> None:
    assert extract(SERVE + text).availability_target == target


@pytest.mark.parametrize(
    ("text", "excluded", "required"),
    [
        ("Customer refuses AWS (competitor relationship)", ["aws"], []),  # v16
        ("Legal rejected GCP last year.", ["gcp"], []),
        ("the bank refuses to use Azure.", ["azure"], []),
        ("AWS refused our quota request last week.", [], []),  # near miss: the provider refused
        ("And it has to be Azure, everything we have is on Azure.", [], ["azure"]),  # v16, Loom
        ("It needs to be CoreWeave for billing.", [], ["coreweave"]),
        ("It has to be cheap, Azure or GCP.", [], []),  # near miss: the requirement is the price
    ],
)
def test_refusals_and_has_to_be(
    extract: Extract, text: str, excluded: list[str], required: list[str]
) -> None:
    p = extract(SERVE + text)
    assert p.providers_excluded == excluded
    assert p.providers_required == required


@pytest.mark.parametrize(
    ("text", "seconds"),
    [
        ("Whole answer must be ready in 3 seconds at p95.", 3.0),  # v16, Finnish writer
        ("The answer should be done within 2 s.", 2.0),
        ("replies must be ready in under 4 seconds", 4.0),
        ("The answer must be ready in German.", None),  # near miss: no time
    ],
)
def test_answer_ready_in(extract: Extract, text: str, seconds: float | None) -> None:
    assert extract(SERVE + text).response_target_s == seconds


@pytest.mark.parametrize(
    ("text", "cheapest"),
    [
        ("We are 6 persons company, so please cheap.", True),  # v16
        ("Keep it cheap, please.", True),
        ("please keep it cheap, it is a pilot", True),
        ("Cheap GPUs were slow for us before.", False),  # near miss
    ],
)
def test_please_cheap(extract: Extract, text: str, cheapest: bool) -> None:
    assert (extract(SERVE + text).objective == "cheapest") is cheapest


@pytest.mark.parametrize(
    ("text", "workload"),
    [
        (
            "We run Mistral NeMo 12B for a library search assistant. 25 users at same time in peak.",
            "inference",
        ),
        ("Mistral NeMo 12B, 40 people at the same time.", "inference"),
        ("Qwen2.5 7B as a search assistant for the intranet.", "inference"),
        ("Fine-tune Mistral NeMo 12B on 20M tokens; 4 people at the same time work on it.", "fine_tuning"),
    ],
)
def test_serving_said_as_people_at_once(extract: Extract, text: str, workload: str) -> None:
    assert extract(text).workload == workload


@pytest.mark.parametrize(
    ("text", "budget"),
    [
        ("Amount: $480,000 (3-year contract value)", None),  # v16 Salesforce record: the deal's value
        ("Amount: $48,000 (TCV)", None),
        ("Amount: $9,000 (one-off)", 9000.0),  # near miss: a budget field
    ],
)
def test_deal_value_is_no_budget(extract: Extract, text: str, budget: float | None) -> None:
    assert extract(f"Serve Qwen3 32B to 150 users.\n{text}\n").budget_usd == budget


@pytest.mark.parametrize(
    ("text", "excluded"),
    [
        ("B200 also we do not need, too big for this.", ["b200"]),  # v16, Hungarian writer
        ("H100s we don't want either.", ["h100-pcie", "h100-sxm", "h100-nvl"]),
        ("L40S I won't use, no NVLink.", ["l40s"]),
        ("B200 we do not need for training, only for serving.", []),  # near miss: the clause goes on
    ],
)
def test_gpu_then_refusal(extract: Extract, text: str, excluded: list[str]) -> None:
    assert sorted(extract(TRAIN + text).gpus_excluded) == sorted(excluded)


@pytest.mark.parametrize(
    ("text", "cap"),
    [
        ("need to QLoRA qwen3 8b this weekend, 1 gpu, under 50 bucks total. not runpod pls", 1),  # v16 SMS
        ("LoRA Llama 3.1 8B on 20M tokens; 2 GPUs; done by Friday.", 2),
        ("LoRA Llama 3.1 8B on 20M tokens, on a single GPU.", 1),
        ("we have a rig, 1 gpu, so LoRA Llama 3.1 8B on 20M tokens.", None),  # near miss: owned hardware
        ("LoRA Llama 3.1 8B on 20M tokens, 1 GPU hour is fine.", None),  # near miss: not a count of GPUs
    ],
)
def test_bare_gpu_count(extract: Extract, text: str, cap: int | None) -> None:
    assert extract(text).max_gpus == cap


def test_transcript_caption_breaks(extract: Extract) -> None:
    text = (
        "[Loom transcript, auto-generated — 02:14]\n"
        "0:00 okay so, hi. We're serving Llama 3.1 8B for the receipts\n"
        "0:06 extractor. Um, it's about five hundred concurrent — no, sorry, wrong dashboard, three hundred\n"
        "0:12 and fifty concurrent, that's the real peak. We quantise it to int4, AWQ.\n"
        "0:25 And it has to be Azure, everything we have is on Azure."
    )  # v16
    p = extract(text)
    assert p.concurrency == 350 and p.providers_required == ["azure"]


@pytest.mark.parametrize(
    "text",
    [
        "00:00:01 Hi all.\n00:00:04 We serve Qwen2.5 7B\n00:00:09 to about 80 users.",  # hh:mm:ss
        "[0:01] Hi all.\n[0:04] We serve Qwen2.5 7B\n[0:09] to about 80 users.",  # bracketed
    ],
)
def test_transcript_variants(text: str) -> None:
    assert "We serve Qwen2.5 7B to about 80 users." in transcript_lines(text)


def test_two_times_are_not_a_transcript() -> None:
    text = "10:00 standup\n14:30 planning\nServe Qwen2.5 7B to 80 users."  # near miss: an agenda of two
    assert transcript_lines(text) == text


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        (
            "Continued pre-training of Mistral Small 24B on 8 Mrd. tokens of German court decisions.",
            8e9,
        ),  # v16
        ("CPT Mistral Small 24B, 1,5 Mrd. Tokens Korpus.", 1.5e9),
        ("CPT Mistral Small 24B on 2 mrd tokens.", 2e9),
        ("CPT Mistral Small 24B on 2 Mio. tokens.", 2e6),  # near miss: Mio. is a million, not a billion
    ],
)
def test_german_milliarden(extract: Extract, text: str, tokens: float) -> None:
    assert extract(text).dataset_tokens == pytest.approx(tokens)


@pytest.mark.parametrize(
    ("text", "eu"),
    [
        ("Because of the data protection the whole training must take place in the EU.", True),  # v16
        ("Everything runs in the EU. Full stop.", True),  # v16, a Notion page
        ("All processing takes place within the European Union.", True),
        ("Our offsite took place in the EU last year.", None),  # near miss: a past event
    ],
)
def test_eu_take_place_and_everything_runs(extract: Extract, text: str, eu: bool | None) -> None:
    assert extract(f"LoRA Llama 3.1 8B on 20M tokens. {text}").eu_only is eu


@pytest.mark.parametrize(
    ("text", "excluded"),
    [
        ("Spot instances we do not want.", True),  # v16, a German writer
        ("Preemptible VMs we won't use.", True),
        ("spot we can't accept for this job", True),
        ("Spot instances we do not want, but for evals they are fine.", False),  # near miss: a but
    ],
)
def test_spot_then_refusal(extract: Extract, text: str, excluded: bool) -> None:
    assert ("spot" in extract(f"LoRA Llama 3.1 8B on 20M tokens. {text}").pricing_excluded) is excluded


@pytest.mark.parametrize(
    ("text", "wanted"),
    [
        ("H100s only, no more than 16 GPUs at a time.", True),  # v16, an e-mail
        ("A100 only, at most 8 GPUs, less than 8 would be fine too.", True),
        ("Is H100 faster than A100 for this?", False),  # near miss: a comparison
    ],
)
def test_gpu_only_beside_a_cap(extract: Extract, text: str, wanted: bool) -> None:
    p = extract(f"Generate 2B tokens with Qwen3 8B. {text}")
    assert bool(p.gpus_wanted) is wanted


@pytest.mark.parametrize(
    ("text", "pre"),
    [
        ("Reference log-probs are computed in a first pass and cached.", True),  # v16, Asana task
        ("reference logprobs were precomputed offline", True),
        ("ref log-probs are cached", True),
        ("reference log-probs NOT precomputed (we compute them on the fly).", False),  # v16, A/B plan
        ("Log-probs are computed in a first pass for the eval set.", None),  # near miss: not the reference's
    ],
)
def test_reference_log_probs(extract: Extract, text: str, pre: bool | None) -> None:
    p = extract(f"Full DPO on Phi-4, 24,000 preference pairs. {text}")
    assert p.ref_log_probs_precomputed is pre


def test_notion_toggles_are_sections(extract: Extract) -> None:
    p = extract(
        "📄 Vendor-Contract Copilot — compute plan\n\n▾ Phase 1 — Fine-tune\n"
        "    LoRA (rank 16) on Qwen2.5 72B, 90M tokens of annotated contracts, 3 epochs.\n"
        "    Training budget: €4,000.\n"
        "▾ Phase 2 — Serve\n    After training, serve the tuned model to ~80 concurrent lawyers, 24/7.\n"
        "▸ Decisions (applies to both phases)\n    Everything runs in the EU. Full stop.\n"
        "▸ Archive\n    Team offsite budget €12k (not compute)"
    )  # v16: the toggles' bodies were one sentence
    assert p.eu_only is True and p.budget_usd is not None and 4000 <= p.budget_usd <= 4800


@pytest.mark.parametrize(
    ("text", "budget"),
    [
        ("Team offsite budget €12k (not compute)", None),  # v16
        ("Marketing budget $5k, not for GPUs", None),
        ("Budget $12k (compute only)", 12000.0),  # near miss: it is the compute budget
    ],
)
def test_budget_said_not_for_compute(extract: Extract, text: str, budget: float | None) -> None:
    assert extract(f"LoRA Qwen2.5 7B on 20M tokens. {text}").budget_usd == budget
