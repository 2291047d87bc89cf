"""Every numeric step of the memory trace names its inputs (issue 2: 'each step's formula, inputs with
units, output'). Before: peak_gib_per_gpu, activations_per_gpu, adapters_per_gpu, recomputed_layer,
dequant_buffer and lora_activation_bytes_per_token were recorded with no inputs, so the report's
calculation appendix could not show what the peak was summed from."""

from __future__ import annotations

import pytest

from tools.catalog.load import load_catalog
from tools.memory import estimate_memory


@pytest.mark.parametrize(
    "kw",
    [
        {"method": "qlora"},
        {
            "method": "lora",
            "lora_targets": "q_proj,v_proj",
            "gpus": 2,
            "sharding": "zero3",
            "offload": "optimizer",
        },
        {"method": "full", "gpus": 16, "tp": 8, "pp": 2},
        {"method": "full", "grad_checkpointing": False, "seq_len": 4096},
        {"method": "inference", "precision": "fp8", "concurrency": 8, "context_len": 8192},
    ],
)
def test_numeric_steps_have_inputs_and_units(kw: dict[str, object]) -> None:
    est = estimate_memory(arch=load_catalog().model("llama-3-70b"), **kw)  # type: ignore[arg-type]
    for s in est.trace:
        if isinstance(s.output, int | float) and not isinstance(s.output, bool):
            assert s.formula, s.step
            assert s.unit, s.step
            assert s.inputs, f"{s.step} has no inputs"
    peak = next(s for s in est.trace if s.step == "peak_gib_per_gpu")
    parts = [v for k, v in peak.inputs.items() if k.endswith("_gib")]
    assert len(parts) == 7 and sum(parts) == pytest.approx(est.peak_gib_per_gpu)  # type: ignore[arg-type]


def test_offload_params_trace_explains_the_zero_gradients() -> None:
    # before: the trace showed gradients_per_gpu = 1.87 GiB while the breakdown said 0 (moved to CPU
    # afterwards without a step or an assumption saying so)
    est = estimate_memory(
        arch=load_catalog().model("llama-3-8b"), method="full", gpus=8, sharding="zero3", offload="params"
    )
    assert est.breakdown_gib.gradients == 0.0
    steps = {s.step: s for s in est.trace}
    assert steps["gradients_offloaded"].output == steps["gradients_per_gpu"].output > 0
    assert any(a.name == "offload_params_scope" for a in est.assumptions)
