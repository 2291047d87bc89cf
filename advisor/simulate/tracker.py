"""A TorchDispatchMode that counts live tensor storage bytes and keeps their peak.

Imported only by the simulator (it imports torch at module level). Every ATen op's outputs are
inspected; a storage seen for the first time is added to the live total, and a weakref finalizer
takes it off when Python frees it (PyTorch keeps one Python object per storage, so the finalizer
fires exactly when the storage dies). Views share storages, so they are not double-counted.

Two totals are kept: exact storage bytes, and bytes rounded the way PyTorch's CUDA caching
allocator rounds each block (up to a multiple of 512 bytes, minimum 512: c10 CUDACachingAllocator
kMinBlockSize), which is what torch.cuda.max_memory_allocated() reports on a GPU.

Each live storage carries a category (weights, adapters, weight_casts, gradients, optimizer,
activations) so the peak can be broken down the way the analytic estimate is.
"""

from __future__ import annotations

import weakref
from typing import Any

import torch
from torch.utils._python_dispatch import TorchDispatchMode
from torch.utils._pytree import tree_flatten

CUDA_BLOCK_BYTES = 512  # c10/cuda/CUDACachingAllocator.cpp kMinBlockSize: every block is a multiple of this

CATEGORIES = ("weights", "adapters", "weight_casts", "gradients", "optimizer", "activations")


def rounded_block_bytes(n_bytes: int) -> int:
    """Bytes the CUDA caching allocator hands out for a request of n_bytes (0 stays 0)."""
    if n_bytes <= 0:
        return 0
    return -(-n_bytes // CUDA_BLOCK_BYTES) * CUDA_BLOCK_BYTES


class StorageTracker(TorchDispatchMode):  # type: ignore[no-untyped-call]
    """Counts live storages by identity; `phase` and `step` label where each peak happened."""

    def __init__(self) -> None:
        super().__init__()  # type: ignore[no-untyped-call]
        self._live: dict[int, tuple[int, int, str]] = {}  # id(storage) -> (bytes, rounded, category)
        self.live_bytes = 0
        self.live_rounded_bytes = 0
        self.peak_bytes = 0
        self.peak_rounded_bytes = 0
        self.by_category: dict[str, int] = dict.fromkeys(CATEGORIES, 0)
        self.breakdown_at_peak: dict[str, int] = dict(self.by_category)
        self.phase = "weights"
        self.step = 0
        self.peak_phase = "weights"
        self.peak_step = 0
        self.phase_peaks: dict[tuple[int, str], int] = {}
        self.phase_starts: dict[tuple[int, str], int] = {(0, "weights"): 0}
        self.default_category = "weights"
        self.param_storages: set[int] = set()
        self.ops = 0

    # --- bookkeeping --------------------------------------------------------------------------
    def _free(self, key: int) -> None:
        entry = self._live.pop(key, None)
        if entry is None:
            return
        n, r, cat = entry
        self.live_bytes -= n
        self.live_rounded_bytes -= r
        self.by_category[cat] -= n

    def _note_peak(self) -> None:
        key = (self.step, self.phase)
        if self.live_bytes > self.phase_peaks.get(key, -1):
            self.phase_peaks[key] = self.live_bytes
        if self.live_bytes > self.peak_bytes:
            self.peak_bytes = self.live_bytes
            self.breakdown_at_peak = dict(self.by_category)
            self.peak_phase = self.phase
            self.peak_step = self.step
        if self.live_rounded_bytes > self.peak_rounded_bytes:
            self.peak_rounded_bytes = self.live_rounded_bytes

    def track(self, storage: Any, category: str | None = None) -> None:
        """Count a storage (once); a later call with a category only relabels it."""
        key = id(storage)
        entry = self._live.get(key)
        if entry is not None:
            if category and entry[2] != category:
                n, r, old = entry
                self.by_category[old] -= n
                self.by_category[category] += n
                self._live[key] = (n, r, category)
            return
        n = int(storage.nbytes())
        r = rounded_block_bytes(n)
        cat = category or self.default_category
        self._live[key] = (n, r, cat)
        self.live_bytes += n
        self.live_rounded_bytes += r
        self.by_category[cat] += n
        weakref.finalize(storage, self._free, key)
        self._note_peak()

    def relabel(self, tensor: torch.Tensor, category: str) -> None:
        self.track(tensor.untyped_storage(), category)

    def mark_phase(self, step: int, phase: str, default_category: str) -> None:
        self.step = step
        self.phase = phase
        self.default_category = default_category
        self.phase_starts[(step, phase)] = self.live_bytes
        self._note_peak()

    # --- the dispatch hook --------------------------------------------------------------------
    def __torch_dispatch__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
        out = func(*args, **(kwargs or {}))
        self.ops += 1
        category = None
        # Autocast's cached low-precision copy of a parameter: count it apart from activations.
        if (
            func is torch.ops.aten._to_copy.default
            and args
            and isinstance(args[0], torch.Tensor)
            and id(args[0].untyped_storage()) in self.param_storages
        ):
            category = "weight_casts"
        for t in tree_flatten(out)[0]:
            if isinstance(t, torch.Tensor):
                self.track(t.untyped_storage(), category)
        return out
