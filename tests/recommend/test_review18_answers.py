"""Expert review 18 (evals/reviews/2026-11-28-expert-review-18.md): the review's requests themselves, each
with the GPU, workload or constraint that must come out, and a near miss. Expected figures come from the tools
(catalog estimates, tools.cost_owned), not from the review's arithmetic."""

from __future__ import annotations

import pytest

from advisor.api import ask
from tools.catalog.load import load_catalog
from tools.cost_owned import it_kw_per_gpu

R11 = (
    "Two things: (1) we want to serve Mixtral 8x7B for an internal tool, ~20 users, and (2) separately we'll "
    "run a QLoRA of Llama 3 8B on 10M tokens once a month. Can one box do both? Budget $2k/month."
)


def _one_box(out: dict) -> list[dict]:  # type: ignore[type-arg]
    checks = out["recommendation"]["expectation_checks"]
    return [c for c in checks if c["claim"].startswith("one box for both:")]


@pytest.mark.parametrize(
    "text",
    [
        R11,
        "We host Qwen2.5 14B for about 30 support agents. Separately, we fine-tune Llama 3.1 8B with LoRA on "
        "50M tokens every quarter. Could a single server handle both?",
    ],
)
def test_r11_one_box_question_is_answered(text: str) -> None:
    out = ask(text)
    checks = _one_box(out)
    assert len(checks) == 1 and checks[0]["verdict"] == "holds"
    assert checks[0]["explanation"].startswith("Yes, one box can do both")
    assert "could not answer" not in out["reply"]  # the question is answered, not listed
    assert "size the serving part" in out["reply"]  # the serving part is named as the other workload


def test_r11_budget_is_held_by_the_serving_part() -> None:
    out = ask(R11)
    assert out["profile"]["method"] == "qlora"
    explanation = _one_box(out)[0]["explanation"]
    assert "$2,000 a month budget" in explanation
    assert "'Budget $2k/month'" not in out["reply"]  # read, not listed as unused


def test_r11_near_miss_no_question_no_one_box_check() -> None:
    out = ask(R11.replace(" Can one box do both?", ""))
    assert _one_box(out) == []


def test_r08_vendor_claim_is_checked_not_a_cap() -> None:
    out = ask(
        "My vendor says we need 4x H100 to serve Llama 3.1 8B for 50 concurrent users with 8k context. That "
        "seems like a lot to me. Is it?"
    )
    p = out["profile"]
    assert p["max_gpus"] is None and p["claimed_gpu_bound"] == "minimum"
    assert out["recommendation"]["primary"]["total_gpus"] < 4
    checks = out["recommendation"]["expectation_checks"]
    assert any("4 is not the minimum" in c["explanation"] for c in checks)  # answered: no, fewer do it
    assert "'Is it?'" not in out["reply"]


def test_r07_owned_card_and_question_answered() -> None:
    out = ask(
        "Hello, I am need to make lora on gemma 3 27b for our turkish dataset, it have 15 million token. We "
        "have only one RTX 4090 in office, is it possible or we must rent? Thanks"
    )
    p = out["profile"]
    assert (p["owned_gpu"], p["owned_gpu_count"]) == ("rtx-4090", 1)
    assert "not on 1x NVIDIA GeForce RTX 4090" in out["reply"]  # the verdict on their card
    assert "is it possible" not in out["reply"]


def test_r10_every_option_on_the_required_cloud() -> None:
    out = ask(
        "We're an AWS shop (us-east-1, security does not allow other clouds). Need to LoRA fine-tune Llama "
        "3.1 70B on 50M tokens, seq 4096, 2 epochs. Which instance and how much?"
    )
    rec = out["recommendation"]
    assert out["profile"]["providers_required"] == ["aws"]
    assert all(o["provider"].startswith("aws") for o in [rec["primary"], *rec["alternatives"]])
    assert "also offered by gcp" not in out["reply"]


def test_r19_region_is_read_and_said() -> None:
    out = ask(
        "Need inference for Llama 3.1 8B hosted in Japan (users in Tokyo, latency matters), around 100 "
        "requests/min, 1k tokens in / 300 out. Which provider and GPU?"
    )
    primary = out["recommendation"]["primary"]
    assert out["profile"]["region_asked"] == "Japan"
    assert "other" in primary["areas"]  # a provider whose region list reaches beyond the US and the EU
    assert any("Japan" in w for w in primary["why"])
    assert "also offered by nebius" not in out["reply"]  # nebius lists no site outside the US and EU


P06 = (
    "We are evaluating whether to purchase one 8x H200 server or keep renting for serving Llama 3.1 70B. "
    "Expected utilization ~60%. Horizon 3 years. We have no data centre, we would need colocation. Please "
    "provide a TCO comparison."
)


def test_p06_colocation_is_in_the_tco() -> None:
    colo = ask(P06)["recommendation"]["buy_vs_rent"]
    own_site = P06.replace(" We have no data centre, we would need colocation.", "")
    own = ask(own_site)["recommendation"]["buy_vs_rent"]
    cat = load_catalog()
    gpu = cat.gpu("h200")
    assert gpu.tdp_w is not None
    # tools.cost_owned: colo per GPU-month = it_kw x colo_usd_per_kw_month, for the 8 GPUs bought
    rate = cat.estimate("colo_usd_per_kw_month").value
    expected = it_kw_per_gpu(gpu.tdp_w) * rate * 8
    assert colo["running_usd_per_month"] - own["running_usd_per_month"] == pytest.approx(expected, rel=1e-6)
