"""Weight bytes are one formula (tools.memory_states.stored_weight_bytes) used by memory and compute.

Before the fix tools.compute had its own table (nf4 0.516, int4 0.516) and its own copy of the
'quantise the linear layers only' formula, while tools.memory used 0.515875 (QLoRA's 4 + 0.127 bits)
and 0.5195 (GPTQ int4, group 128: 4 + 20/128 bits): the decode-bandwidth and memory figures of the
same model disagreed.
"""

from __future__ import annotations

import pytest

from tools import memory_states
from tools.catalog.load import load_catalog
from tools.compute import flops, inference
from tools.memory import estimate_memory
from tools.units import bytes_to_gib


@pytest.mark.parametrize("precision", ["fp32", "bf16", "fp8", "int8", "int4", "nf4"])
def test_compute_weight_bytes_equal_the_memory_calculators(precision: str) -> None:
    arch = load_catalog().model("llama-3-70b")
    est = estimate_memory(arch=arch, method="inference", precision=precision)
    assert inference.weight_bytes(arch=arch, precision=precision) == memory_states.stored_weight_bytes(
        arch, precision
    )
    assert bytes_to_gib(inference.weight_bytes(arch=arch, precision=precision)) == pytest.approx(
        est.breakdown_gib.weights, rel=1e-9
    )


def test_one_bytes_per_weight_table() -> None:
    assert flops.BYTES_PER_WEIGHT is memory_states.WEIGHT_BYTES
    # QLoRA paper: 4 bits + 0.127 bits of double-quantised constants per weight
    assert flops.BYTES_PER_WEIGHT["nf4"] == pytest.approx((4 + 0.127) / 8)
