"""The agent's tool adapters over the real calculators and catalog: JSON in, JSON out, numbers into the
ledger, docstrings as descriptions, errors as text for the model."""

from __future__ import annotations

import inspect
import json

from advisor.llm.numbers import AllowedNumbers
from advisor.llm.testing import sample_recommendation
from advisor.llm.tools import WHAT_IF_FIELDS, ToolBox
from tools.profile import WorkloadProfile

PROFILE = WorkloadProfile(model_id="llama-3-8b", method="qlora", epochs=1, dataset_tokens=1e8)


def box() -> ToolBox:
    return ToolBox(PROFILE, AllowedNumbers(), recommender=sample_recommendation)


def test_descriptions_are_the_calculators_docstrings() -> None:
    from tools.cost import egress_cost
    from tools.memory import estimate_memory

    tools = {t.name: t for t in box().langchain_tools()}
    assert set(tools) >= {
        "recommend_gpus",
        "estimate_memory",
        "estimate_training_time",
        "estimate_inference",
        "egress_cost",
        "gpu_spec",
    }
    assert tools["estimate_memory"].description.startswith(inspect.getdoc(estimate_memory) or "?")
    assert (inspect.getdoc(egress_cost) or "?").splitlines()[0] in tools["egress_cost"].description


def test_memory_adapter_runs_the_calculator_and_records_numbers() -> None:
    b = box()
    out = json.loads(b.estimate_memory(model="llama-3-8b", method="qlora"))
    peak = out["peak_gib_per_gpu"]
    assert 3 < peak < 40  # an 8B QLoRA run: a few GiB of NF4 weights plus adapters and activations
    assert "trace" not in out  # the trace stays out of the prompt but its numbers are allowed
    assert b.ledger.check(f"Peak memory is {peak:.1f} GiB.").ok


def test_training_time_and_inference_adapters() -> None:
    b = box()
    t = json.loads(
        b.estimate_training_time(
            model="llama-3-8b", gpu="h100-sxm", n_gpus=1, method="qlora", dataset_tokens=1e8, epochs=2
        )
    )
    assert t["gpu_hours"]["low"] <= t["gpu_hours"]["high"]
    i = json.loads(b.estimate_inference(model="llama-3-8b", gpu="h100-sxm", concurrency=8, context_len=4096))
    assert 0 < i["decode_tokens_per_s"]["low"] <= i["decode_tokens_per_s"]["high"]
    assert i["decode_bound"] in ("memory_bandwidth", "compute")


def test_egress_adapter_seed_001() -> None:
    b = box()
    out = json.loads(b.egress_cost(dataset_gb=500, pulls=20, cloud="aws"))
    # seed 001: 500 GB x 20 pulls at $0.09/GB (tiered) = $900 a month
    assert abs(out["monthly_usd"] - 900) / 900 < 0.06
    assert b.ledger.check("Pulling every run costs about $900 a month.").ok


def test_errors_come_back_as_text() -> None:
    b = box()
    assert b.estimate_memory(model="llama-9-999b", method="qlora").startswith("error:")
    assert b.recommend_gpus(changes={"colour": "red"}).startswith("error: cannot change colour")
    assert b.gpu_spec(gpu="h100-sxm").startswith("{")
    assert b.calls == ["estimate_memory", "recommend_gpus", "gpu_spec"]


def test_what_if_applies_changes_to_the_profile() -> None:
    b = box()
    base = json.loads(b.recommend_gpus())
    more = json.loads(b.recommend_gpus(changes={"epochs": 4}))
    assert more["primary"]["cost_usd"]["high"] > base["primary"]["cost_usd"]["high"]
    assert "epochs" in WHAT_IF_FIELDS and b.profile.epochs == 1  # the conversation's profile is untouched
