"""Pure half-precision training (issue 15, mem18): an fp16-loaded model trained without autocast (axolotl
`float16: true`, axolotl PR #602's full fine-tune) keeps weights, gradients and optimizer states in 16 bits,
the same bytes as pure-bf16; the calculator takes it as `--training-precision pure-fp16`."""

from __future__ import annotations

import pytest

from advisor.simulate.engine import simulate_training_memory
from tools.catalog.load import load_catalog
from tools.errors import InputError
from tools.memory import estimate_memory


def _full(**kw: object) -> float:
    arch = load_catalog().model("llama-3.2-1b")
    est = estimate_memory(
        arch=arch, method="full", optimizer="adamw", seq_len=1024, batch_size=1, traced=False,
        **kw,  # type: ignore[arg-type]
    )  # fmt: skip
    return est.peak_gib_per_gpu


def test_pure_fp16_has_the_bytes_of_pure_bf16_and_not_of_mixed() -> None:
    fp16 = _full(training_precision="pure-fp16", precision="fp16")
    assert fp16 == pytest.approx(_full(training_precision="pure-bf16", precision="bf16"), rel=1e-9)
    # mixed precision adds an fp32 master and fp32 Adam states: 16 B vs 6 B per parameter (ZeRO paper 3.1)
    assert _full(training_precision="mixed", precision="fp16") > 1.5 * fp16


def test_pure_fp16_with_fp32_weights_is_refused() -> None:
    with pytest.raises(InputError, match="pure-fp16 contradicts --precision fp32"):
        _full(training_precision="pure-fp16", precision="fp32")


def test_the_simulator_refuses_pure_fp16() -> None:
    # refused before torch is imported (the simulator's program is bf16), so this runs without the extra
    arch = load_catalog().model("llama-3.2-1b")
    with pytest.raises(InputError, match="pure-fp16"):
        simulate_training_memory(arch=arch, method="full", training_precision="pure-fp16")
