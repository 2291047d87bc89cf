"""What evals v16 still dropped after ext20 (issue 12; development data): a naira budget and a hryvnia power
price (dated central-bank rates in tools/catalog/costs.yaml), ... Each phrasing from v16, two variants of our
own written the way teams write, and a near miss that must not match."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tools.profile import WorkloadProfile

Extract = Callable[..., WorkloadProfile]


# ------------------------------------------------------------------------------------ naira and hryvnia
# NGN 1,603 per USD (CBN, 23 Apr 2025) and UAH 42.039 per USD (NBU, 31 Dec 2024): tools/catalog/costs.yaml;
# the bounds take the catalog rate +-5%.
@pytest.mark.parametrize(
    ("text", "low", "high"),
    [
        ("Our budget is ₦2.5 million. Please no spot instance.", 1480, 1640),  # evals v16, Nigerian writer
        ("Budget: NGN 4,000,000 max, approved by the MD.", 2370, 2620),
        ("we have maybe 3 million naira from the grant for this", 1780, 1970),
        ("Бюджет / budget: ₴80 000 in total", 1800, 1999),
        ("Max budget is 120k UAH.", 2710, 3000),
    ],
)
def test_budget_in_naira_and_hryvnia(extract: Extract, text: str, low: float, high: float) -> None:
    p = extract(f"Summarise 800k call transcripts with Llama 3.1 8B, 200 tokens each. {text}")
    assert p.budget_usd is not None and low <= p.budget_usd <= high


@pytest.mark.parametrize(
    "text",
    [
        "We have 1.2 million subscribers paying ₦2,000 a month.",  # a price per month, not a budget
        "Last year the company raised 900 million naira.",  # money, but not this job's
    ],
)
def test_not_a_budget_in_naira(extract: Extract, text: str) -> None:
    p = extract(f"Summarise 800k call transcripts with Llama 3.1 8B, 200 tokens each. {text}")
    assert p.budget_usd is None


@pytest.mark.parametrize(
    ("text", "usd"),
    [
        ("Electricity for me costs 4,32 UAH per kWh.", 0.1028),  # evals v16, Ukrainian writer
        ("power is ₴4.32/kWh at the dorm", 0.1028),
        ("our tariff: 225 NGN per kWh (Band A)", 0.1404),
    ],
)
def test_power_price_in_hryvnia_and_naira(extract: Extract, text: str, usd: float) -> None:
    p = extract(f"QLoRA of Llama 3.1 8B on my own RTX 3090, 5M tokens, one epoch. {text}")
    assert p.power_price_usd_per_kwh == pytest.approx(usd, abs=0.002)


def test_hryvnia_per_month_is_no_power_price(extract: Extract) -> None:
    p = extract("QLoRA of Llama 3.1 8B on my own RTX 3090, 5M tokens. Rent is 9000 UAH per month.")
    assert p.power_price_usd_per_kwh is None


# ---------------------------------------------------------------------------- preference pairs' lengths
# a pair runs prompt + chosen and prompt + rejected through the policy (tools.preference.preference_tokens)
@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        # evals v16 (Asana task): 24,000 x (2 x 300 + 400 + 400)
        ("24,000 preference pairs; prompts average ~300 tokens, chosen and rejected answers ~400 tokens "
         "each.", 33_600_000),
        ("10k pairs, prompts averaging 500 tokens, chosen and rejected ~250 tokens each.", 15_000_000),
        ("50k preference pairs. Prompts (mean) 200 tokens; chosen 300, rejected 300 tokens.", 50_000_000),
    ],
)  # fmt: skip
def test_pairs_with_an_average_prompt(extract: Extract, text: str, tokens: float) -> None:
    p = extract(f"Full-parameter DPO on Phi-4, 2 epochs. {text}")
    assert p.dataset_tokens == pytest.approx(tokens, rel=1e-6)


def test_pairs_with_an_average_of_something_else(extract: Extract) -> None:
    # near miss: the average is the reviewers' score, no prompt length: each side a whole sequence
    p = extract(
        "Full-parameter DPO on Phi-4. 10k pairs, reviewers average 3 per pair; ~600 tokens each side."
    )
    assert p.dataset_tokens == pytest.approx(10_000 * 1200, rel=1e-6)


# ------------------------------------------------------------------------------ a recurring batch job
# runs_per_month from the cadence: weeks per month 4.345 and days per month 30.42 (advisor.extract.units_text)
@pytest.mark.parametrize(
    ("text", "runs"),
    [
        # evals v16 (CHANGELOG entry)
        ("- Weekly re-summarisation of the knowledge base with Mistral 7B moves off the laptop farm: each "
         "run generates ~50M output tokens and must complete within 12 hours.", 4.345),
        ("Nightly translation of new tickets with Qwen2.5 7B; every run writes about 5M tokens out.", 30.42),
        ("Monthly summarization of support logs with Llama 3.1 8B, ~20M generated tokens per run.", 1.0),
    ],
)  # fmt: skip
def test_cadence_of_a_batch_job(extract: Extract, text: str, runs: float) -> None:
    p = extract(text)
    assert p.runs_per_month == pytest.approx(runs, abs=0.01)


def test_weekly_users_are_no_cadence(extract: Extract) -> None:
    # near miss: a chat service's weekly users say nothing about runs
    p = extract("Serve Mistral 7B as a chat assistant to 2,000 weekly active users, 30 at once at peak.")
    assert p.runs_per_month is None


# ------------------------------------------------------------------------------ a document's due date
@pytest.mark.parametrize(
    "text",
    [
        # evals v16 (a paper's compute appendix)
        "From our camera-ready draft (due 9 December), Appendix C — Compute:\n> We continue pre-training "
        "Qwen2.5 3B on 15B tokens (sequence length 4096). We estimate the run at 8x A100 80GB for 4 days.",
        "Numbers below are from my thesis draft, due 15 December. LoRA fine-tune of Llama 3.1 8B on 20M "
        "tokens.",
        "Results go into the workshop paper (due 4 December). QLoRA of Llama 3.1 8B on 20M tokens on 1x L4?",
    ],
)
def test_a_documents_due_date_is_no_deadline(extract: Extract, text: str) -> None:
    assert extract(text).deadline_hours is None


def test_a_job_tied_to_the_paper_keeps_its_deadline(extract: Extract) -> None:
    # near miss: the run must finish before the paper's date, so that date is the job's deadline
    p = extract(
        "LoRA fine-tune of Llama 3.1 8B on 20M tokens; it must finish before the paper, due 9 December."
    )
    assert p.deadline_hours is not None and 500 <= p.deadline_hours <= 520  # from Wed 18 Nov 09:00


# ---------------------------------------------------------------------- a system's quote said after it
@pytest.mark.parametrize(
    ("text", "gpu", "usd_per_gpu"),
    [
        # evals v16 (Israeli writer): $515,000 / 8
        ("We are deciding whether to buy a DGX B200; the quote we got is $515,000 for the system (8 GPUs).",
         "b200", 64_375),
        # a DGX/HGX with no count said holds 8 GPUs (NVIDIA datasheets)
        ("We're thinking of purchasing an HGX H200 box, the vendor quote is about $390k all in.", "h200",
         48_750),
        ("We could buy a 4x L40S server from Dell, which costs $60,000 with support.", "l40s", 15_000),
    ],
)  # fmt: skip
def test_quote_after_the_system(extract: Extract, text: str, gpu: str, usd_per_gpu: float) -> None:
    p = extract(f"Serve Qwen3 32B to 100 concurrent analysts on premises. {text}")
    assert p.purchase_gpu == gpu
    assert p.purchase_usd_per_gpu == pytest.approx(usd_per_gpu, rel=1e-6)


def test_a_budget_beside_the_system_is_no_quote(extract: Extract) -> None:
    # near miss: the amount is what they may spend, not the system's price
    p = extract("Serve Qwen3 32B to 100 analysts. We may buy a DGX B200; our capex budget is $515,000.")
    assert p.purchase_usd_per_gpu is None


# -------------------------------------------------------------------- digits grouped with underscores
# TOML v1.0 and Python (PEP 515) allow underscores between digits in a number literal
@pytest.mark.parametrize(
    ("line", "tokens"),
    [
        ("train_tokens = 180_000_000  # after dedup", 180_000_000),  # evals v16 (TOML run config)
        ("dataset_tokens = 1_500_000_000", 1_500_000_000),
        ("total_train_tokens: 40_000_000  # YAML-ish, as in our Python config", 40_000_000),
    ],
)
def test_underscore_grouped_numbers(extract: Extract, line: str, tokens: float) -> None:
    p = extract(f'QLoRA run config:\n[model]\nname = "Qwen/Qwen2.5-32B"\n[data]\n{line}\nmax_seq_len = 4096')
    assert p.dataset_tokens == tokens


def test_an_id_with_underscored_digits_is_no_number(extract: Extract) -> None:
    # near miss: the digits are part of a name, not a literal
    p = extract('QLoRA run config:\n[model]\nname = "Qwen/Qwen2.5-32B"\n[data]\npath = "shard_1_000"\n')
    assert p.dataset_tokens is None


# ------------------------------------------------------------------------- a term already held
@pytest.mark.parametrize(
    "text",
    [
        # evals v16 (Danish writer)
        "We have a 3-year reservation at Azure for 16 A100 80GB and there are still 14 months remaining "
        "on it.",
        "Our 2-year commitment with CoreWeave covers 32 H100s; 9 months left on it.",
        "Our reservation runs for 3 years, 8x H100 on Lambda, and it expires in March 2028.",
    ],
)
def test_a_held_term_is_no_horizon(extract: Extract, text: str) -> None:
    p = extract(f"Serve Llama 3.1 8B to 200 concurrent users. {text}")
    assert p.horizon_months is None


@pytest.mark.parametrize(
    ("text", "months"),
    [
        ("EUR 180,000 for the full 24-month term.", 24),  # a tender's term
        ("We have a 1-year reservation of 8x H100, and we plan over 3 years.", 36),  # the horizon said
        ("We have a 1-month reservation of 8x H200 on Nebius.", 1),  # nothing said left: its window
    ],
)
def test_a_term_weighed_is_the_horizon(extract: Extract, text: str, months: float) -> None:
    p = extract(f"Serve Llama 3.1 8B to 200 concurrent users. {text}")
    assert p.horizon_months == months


def test_a_term_asked_about_is_its_price_question(extract: Extract) -> None:
    # weighed, not held: since review 20's R07 (fix31) the term asked is priced as asked
    # (reserved_months_asked), not the plan's horizon
    p = extract("Serve Llama 3.1 8B to 200 concurrent users. Should we sign a 3-year reservation for 8x H100 "
                "or stay on demand?")  # fmt: skip
    assert p.reserved_months_asked == 36 and p.horizon_months is None


# ------------------------------------------------------------------ people working on it are a team
@pytest.mark.parametrize(
    "text",
    [
        "We want to fine-tune Llama 3.1 8B with LoRA on 20M tokens. 4 people at the same time work on it.",
        "LoRA fine-tune Mistral 7B on 50M tokens; 3 engineers work on the repo at the same time.",
        "QLoRA of Qwen2.5 14B on 30M tokens, 5 researchers collaborating on it in parallel.",
    ],
)
def test_a_team_at_work_is_no_concurrency(extract: Extract, text: str) -> None:
    assert extract(text).concurrency is None


def test_people_using_it_at_once_are_concurrency(extract: Extract) -> None:
    # near miss: the agents use the service at once, whatever else they work on
    p = extract(
        "Serve Llama 3.1 8B to our support desk: 60 agents use it at the same time while working on tickets."
    )
    assert p.concurrency == 60


def test_pairs_in_an_asana_task_beat_the_items_reading(extract: Extract) -> None:
    # evals v16: the task's header and notes; items x size read 24k x 300 = 7.2M before (one length per pair)
    p = extract(
        "☐ Run full-parameter DPO on Phi-4        Due: no date    Section: Alignment\n"
        "  Assignee: Priya R.    Collaborators: 3\n\n"
        "  Notes: Full fine-tune, not LoRA. 24,000 preference pairs; prompts average ~300 tokens, chosen\n"
        "  and rejected answers ~400 tokens each. 2 epochs."
    )
    assert p.dataset_tokens == pytest.approx(24_000 * 1_400, rel=1e-6)
