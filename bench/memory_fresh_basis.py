"""The estimate on a fresh-set measurement's basis (bench.accuracy_fresh_memory): allocated, reserved
(max_memory_reserved) or device (nvidia-smi), on the named card where the row gives one, and the interval
error of a figure taken at the card's limit."""

from __future__ import annotations

from typing import Any

from tools.catalog.load import load_catalog
from tools.errors import InputError
from tools.memory import MemoryEstimate
from tools.memory_card import device_on_card_gib, reserved_on_card_gib


class CardSkip(Exception):
    """measured.card is not a catalog GPU id (bench.accuracy_fresh_memory turns it into a skipped row)."""


def card_usable_gib(card: Any, basis: str, notes: list[str]) -> float | None:
    """The named card's usable memory (tools.catalog) for a reserved / nvidia-smi figure; None otherwise."""
    if card is None or basis == "allocated":
        return None
    try:
        usable = float(load_catalog().gpu(str(card)).usable_memory_gib)
    except InputError as exc:
        raise CardSkip(f"measured.card {card!r} not in the GPU catalog: {exc}") from exc
    notes.append(f"card {card} ({usable:g} GiB usable): the allocator's reserve shrinks to fit it")
    return usable


def on_basis(est: MemoryEstimate, basis: str, card_usable_gib: float | None = None) -> float:
    """The estimate as the measurement's counter shows it, GiB per GPU."""
    if basis == "allocated":
        return est.peak_allocated_gib()
    if card_usable_gib is not None:  # the reserve shrinks to the card (tools.memory_card)
        if basis == "reserved":
            return reserved_on_card_gib(est, card_usable_gib)
        return device_on_card_gib(est, card_usable_gib)
    return est.peak_without_context_gib() if basis == "reserved" else est.peak_reserved_gib()


def bounded_error(est_gib: float, allocated_gib: float, measured_gib: float, capped_at_gib: float) -> float:
    """Signed error against a figure taken at the card's limit. The caching allocator had grown to the card,
    so the figure is a LOWER bound on what the run would have reserved with more memory, and the run's
    tensors fit on the card (it trained): any estimate with est >= measured and allocated <= the card is
    consistent (0); below the figure the error is est / measured - 1, tensors above the card
    allocated / card - 1."""
    if est_gib < measured_gib:
        return est_gib / measured_gib - 1.0
    if allocated_gib > capped_at_gib:
        return allocated_gib / capped_at_gib - 1.0
    return 0.0
