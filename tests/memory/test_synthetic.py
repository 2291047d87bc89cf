"""The --params-b architecture: parameter count honoured, shapes Llama-like and monotone."""

from __future__ import annotations

import pytest

from tools.catalog.load import Catalog
from tools.catalog.synthetic import synthetic_arch
from tools.errors import InputError
from tools.memory import estimate_memory


@pytest.mark.parametrize("params_b", [0.5, 1, 3, 7, 8, 13, 34, 70, 180, 405, 1000])
def test_parameter_count_within_one_percent(params_b: float) -> None:
    arch = synthetic_arch(params_b)
    assert arch.param_count() / 1e9 == pytest.approx(params_b, rel=0.01)
    assert arch.head_dim == 128 and arch.n_heads == arch.hidden_size // 128 and arch.n_kv_heads == 8
    assert 1.0 < arch.intermediate_size / arch.hidden_size < 6.0


def test_anchor_sizes_reproduce_llama_shapes(catalog: Catalog) -> None:
    # At the anchors the synthetic shape is the real one: 70B -> 80 layers x 8192 (Llama 3 70B).
    real = catalog.model("llama-3-70b")
    syn = synthetic_arch(real.param_count() / 1e9)
    assert (syn.n_layers, syn.hidden_size) == (real.n_layers, real.hidden_size)
    # ... and the memory estimate is within 2% of the catalog model's
    a = estimate_memory(arch=real, method="qlora").peak_gib_per_gpu
    b = estimate_memory(arch=syn, method="qlora").peak_gib_per_gpu
    assert b == pytest.approx(a, rel=0.02)


def test_shapes_never_shrink() -> None:
    shapes = [synthetic_arch(p) for p in (0.5, 0.8, 1.2, 2, 5, 9, 20, 50, 100, 300, 800)]
    assert all(
        a.n_layers <= b.n_layers and a.hidden_size <= b.hidden_size
        for a, b in zip(shapes, shapes[1:], strict=False)
    )


@pytest.mark.parametrize("bad", [0, -3, 0.05, float("nan"), float("inf"), 1e6])
def test_out_of_range_raises(bad: float) -> None:
    with pytest.raises(InputError, match="--params-b"):
        synthetic_arch(bad)


def test_tp_on_a_synthetic_shape_needs_only_tp_up_to_heads() -> None:
    arch = synthetic_arch(1.0)  # 1792 wide: 14 invented heads
    assert arch.n_heads % 8 != 0
    assert estimate_memory(arch=arch, method="inference", gpus=8, tp=8).peak_gib_per_gpu > 0
