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


def _fixed_shape_long_lora(catalog: Catalog) -> MemoryEstimate:
    # the fifth lent set's Llama 3.1 8B LoRA set-up (bench/data/memory_measurements_device5.yaml): 4 x 16k
    # tokens, checkpointed, fp32 logits loss: its 31 GiB logits segment takes the reserve past an H200
    return estimate_memory(
        arch=catalog.model("llama-3.1-8b"), method="lora", seq_len=16384, batch_size=4, lora_rank=16,
        lora_targets="all-linear", lora_dropout=0.0, grad_checkpointing=True, memory_basis="reserved",
        framework="hf",
    )  # fmt: skip


def test_a_variable_length_reserve_has_nothing_releasable(catalog: Catalog) -> None:
    # a run of varying shapes grows its segments back after a release: it stays capped at the card
    assert _variable_length_lora(catalog, 16).releasable_reserve_gib == 0.0


def test_a_fixed_shape_step_past_the_card_keeps_only_the_residue(catalog: Catalog) -> None:
    est = _fixed_shape_long_lora(catalog)
    h200_usable_gib = catalog.gpu("h200").usable_memory_gib
    assert 0.0 < est.releasable_reserve_gib < est.fragmentation_gib
    assert tensors_fit(est, h200_usable_gib)
    assert est.peak_without_context_gib() > h200_usable_gib  # the uncapped reserve does not fit
    on_card = reserved_on_card_gib(est, h200_usable_gib)
    assert on_card == pytest.approx(est.peak_without_context_gib() - est.releasable_reserve_gib)
    assert est.peak_allocated_gib() < on_card < h200_usable_gib - est.cuda_context_gib
    assert device_on_card_gib(est, h200_usable_gib) == pytest.approx(on_card + est.cuda_context_gib)
    # on a card that holds the whole reserve nothing is released
    assert reserved_on_card_gib(est, 400.0) == pytest.approx(est.peak_without_context_gib())


def test_the_releasable_segments_are_traced(catalog: Catalog) -> None:
    est = _fixed_shape_long_lora(catalog)
    steps = [s for s in est.trace if s.step == "allocator_reserve_releasable"]
    assert len(steps) == 1
    releasable_bytes = steps[0].output
    assert isinstance(releasable_bytes, float)
    assert releasable_bytes / 2**30 == pytest.approx(est.releasable_reserve_gib)
