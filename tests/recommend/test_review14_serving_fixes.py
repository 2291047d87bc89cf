"""Expert review 14 (evals/reviews/2026-11-27-expert-review-14.md), R11, R13 and R19, each in several
phrasings with a near miss:
- R11: a GPU named at a provider that does not list it is said first, with the nearest offers elsewhere;
  a stated request rate is quoted at the load it puts on the pick, not at the most the memory holds; a
  model kept running 24/7 is served;
- R13: a p95 time-to-first-token target is judged under steady arrivals, and the pick agrees with its check;
- R19: a stated per-user speed is met at the slow end of the pick's range (more replicas) without a budget.
Golden figures are the catalog's (tools/catalog/prices.yaml): L40S runpod-secure $1.09 and nebius $1.55 per
GPU-hour x 730 h = $796 and $1,132 per month."""

from __future__ import annotations

import re

import pytest

from advisor.api import ask


def _reply(text: str) -> str:
    return str(ask(text)["reply"])


def _primary(text: str) -> dict[str, object]:
    rec = ask(text)["recommendation"]
    assert isinstance(rec, dict) and rec["primary"] is not None
    return dict(rec["primary"])


@pytest.mark.parametrize(
    "text",
    [
        "Monthly cost of running Llama 3.1 8B 24/7 on one L4 vs one L40S on GCP? About 30 requests per "
        "minute, ~1k tokens in / 300 out.",
        "Monthly cost of Llama 3.1 8B 24/7 on 1x L40S at GCP?",
        "What would Llama 3.1 8B cost us per month on a single L40S in Google Cloud, running around the "
        "clock?",
    ],
)
def test_a_gpu_the_required_provider_lacks_is_said_with_the_nearest_offers(text: str) -> None:
    reply = _reply(text)
    assert "gcp does not offer the NVIDIA L40S" in reply
    # the nearest established offers with their monthly price for one GPU (module docstring)
    assert "runpod-secure at $1.09 per GPU-hour ($796 per month for 1x)" in reply
    assert "nebius at $1.55 per GPU-hour ($1,132 per month for 1x)" in reply


def test_near_miss_a_gpu_the_provider_lists_gets_no_such_line() -> None:
    reply = _reply("Monthly cost of Llama 3.1 8B 24/7 on one L4 on GCP?")
    assert "does not offer" not in reply
    assert _primary("Monthly cost of Llama 3.1 8B 24/7 on one L4 on GCP?")["provider"] == "gcp"


def test_data_on_a_cloud_is_not_where_the_gpus_must_run() -> None:
    p = ask("Fine-tune Llama 3 8B on H100s with our dataset stored on AWS, 1B tokens")["profile"]
    assert isinstance(p, dict) and "aws" not in (p.get("providers_required") or [])


@pytest.mark.parametrize(
    "text",
    [
        "Monthly cost of Llama 3.1 8B 24/7 on 1x L40S at GCP?",
        "How much per month to keep Qwen2.5 7B up around the clock on one H100?",
    ],
)
def test_a_model_kept_running_around_the_clock_is_served(text: str) -> None:
    p = ask(text)["profile"]
    assert isinstance(p, dict) and p["workload"] == "inference"


def test_near_miss_a_24_7_training_run_stays_training() -> None:
    p = ask("Fine-tune Llama 3.1 8B on 100M tokens, the cluster can run 24/7")["profile"]
    assert isinstance(p, dict) and p["workload"] != "inference"


def test_a_stated_rate_is_quoted_at_the_load_it_puts_on_the_pick() -> None:
    text = (
        "Monthly cost of running Llama 3.1 8B 24/7 on one L4 vs one L40S on GCP? About 30 requests per "
        "minute, ~1k tokens in / 300 out."
    )
    reply = _reply(text)
    # 0.5 requests/s x 300 tokens = 150 tokens/s: an L40S carries it with a handful of streams at ~30+
    # tokens/s each, not at the 155 its memory holds (review: "L40S ~30+")
    m = re.search(r"1x NVIDIA L40S: \$.*?holds the load: (\d+) concurrent requests at ([\d.]+) – ", reply)
    assert m is not None, reply
    assert int(m.group(1)) < 30 and float(m.group(2)) >= 25.0


R13 = (
    "We're launching a chat assistant on Llama 3.1 8B. Expect 50 concurrent users; we need p95 "
    "time-to-first-token under 500 ms and at least 30 tokens/s per user. EU hosting only, on-demand "
    "(no spot)."
)


@pytest.mark.parametrize(
    "text",
    [
        R13,
        R13 + " Would 1x H100 do it?",
        "Llama 3.1 8B chatbot, 50 simultaneous users, p95 TTFT below 0.5 s, >= 30 tok/s each, EU only, "
        "on demand",
    ],
)
def test_a_p95_ttft_is_judged_under_steady_arrivals_and_the_pick_agrees(text: str) -> None:
    reply = _reply(text)
    assert "arriving steadily" in reply and "within your p95 0.5 s target" in reply
    assert "all 50 prompts arriving at once" not in reply
    pick = _primary(text)
    # review: 1x H100 at nebius ($3.85 x 730 h = $2,811 per month) meets both targets; 2x was picked before.
    # Since RunPod's EU data centres count (expert review 19, R12), 1x A100 80GB at runpod-secure does too
    assert pick["total_gpus"] == 1 and pick["gpu"] in ("h100-sxm", "a100-80gb-sxm")


def test_near_miss_a_ttft_target_without_a_percentile_keeps_the_serving_range() -> None:
    reply = _reply("Llama 3.1 8B chatbot, 50 users, first token under 500 ms, 30 tok/s each, EU only")
    assert "arriving steadily" not in reply


@pytest.mark.parametrize(
    "text",
    [
        "Serving Qwen2.5 7B: 300 concurrent sessions, 40 tokens/s each, prompts around 2k tokens.",
        "Qwen2.5 7B for 300 concurrent chat sessions; every session needs at least 40 tok/s",
    ],
)
def test_a_stated_per_user_speed_is_met_at_the_slow_end(text: str) -> None:
    pick = _primary(text)
    serving = pick["serving"]
    assert isinstance(serving, dict)
    assert serving["per_user_tokens_per_s"]["low"] >= 39.95  # printed as 40.0 at three figures


def test_near_miss_under_a_budget_the_pick_says_which_target_it_relaxes() -> None:
    # with a budget the slow end is not forced; the reply says plainly what the pick relaxes (review 13)
    reply = _reply(
        "Qwen2.5 32B chat for 100 simultaneous users, at least 30 tokens per second per user, max $8k per "
        "month"
    )
    assert "relaxes the 30 tokens/s per user" in reply


def test_r19_turn_two_meets_the_per_user_speed_at_the_slow_end() -> None:
    from advisor.conversation import Conversation

    conv = Conversation(explain=False)
    conv.send("We want to serve Qwen2.5 7B for our support chat.")
    reply = conv.send("300 concurrent sessions, 40 tokens/s each, prompts around 2k tokens.").reply
    line = next(x for x in reply.splitlines() if x.startswith("Recommended:"))
    assert "meets your 40 tokens/s" in line and "under your 40" not in line
