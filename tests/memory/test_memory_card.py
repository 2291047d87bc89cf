"""tools.memory_card: on a card smaller than the estimate's reserved figure, the caching allocator's
reserve shrinks (it frees cached blocks and retries before an out-of-memory error), so max_memory_reserved /
nvidia-smi show at most the card; tensors that do not fit are left as estimated."""

from __future__ import annotations

import pytest

from tools.catalog.load import Catalog
from tools.memory import estimate_memory
from tools.memory_card import device_on_card_gib, reserved_on_card_gib, tensors_fit
from tools.memory_types import MemoryEstimate


def _variable_length_lora(catalog: Catalog, batch_size: int) -> MemoryEstimate:
    return estimate_memory(
        arch=catalog.model("llama-2-7b"), method="lora", seq_len=2048, batch_size=batch_size,
        grad_checkpointing=True, variable_length=True, memory_basis="reserved",
    )  # fmt: skip


def test_a_figure_under_the_card_is_unchanged(catalog: Catalog) -> None:
    est = _variable_length_lora(catalog, 1)
    assert est.peak_reserved_gib() < 79.6
    assert reserved_on_card_gib(est, 79.6) == pytest.approx(est.peak_without_context_gib())
    assert device_on_card_gib(est, 79.6) == pytest.approx(est.peak_reserved_gib())


def test_a_reserve_past_the_card_shrinks_to_it_when_the_tensors_fit(catalog: Catalog) -> None:
    est = _variable_length_lora(catalog, 16)
    usable_gib = (est.peak_allocated_gib() + est.peak_without_context_gib()) / 2 + est.cuda_context_gib
    assert tensors_fit(est, usable_gib)
    capped = reserved_on_card_gib(est, usable_gib)
    assert capped == pytest.approx(usable_gib - est.cuda_context_gib)  # the counter excludes the context
    assert est.peak_allocated_gib() < capped < est.peak_without_context_gib()
    assert device_on_card_gib(est, usable_gib) == pytest.approx(usable_gib)


def test_tensors_past_the_card_are_left_as_estimated(catalog: Catalog) -> None:
    est = _variable_length_lora(catalog, 16)
    too_small_gib = est.peak_allocated_gib() / 2
    assert not tensors_fit(est, too_small_gib)
    assert reserved_on_card_gib(est, too_small_gib) == pytest.approx(est.peak_without_context_gib())
    assert device_on_card_gib(est, too_small_gib) == pytest.approx(est.peak_reserved_gib())
