"""What a reserved or nvidia-smi figure can show on a card of a given size (issue 15).

The allocator's reserve above the live tensors (tools.memory: the fragmentation fraction, and a variable-
length run's stale logits segments) is cached memory, not tensors. When a cudaMalloc fails, PyTorch's
caching allocator first frees cached blocks and retries before it reports out-of-memory (pytorch/pytorch
c10/cuda/CUDACachingAllocator.cpp, DeviceCachingAllocator::malloc: `alloc_block`, then
`release_available_cached_blocks` + `alloc_block`, then `release_cached_blocks` + `alloc_block`; read
2026-11-27 through the stored-code search). So on a card whose usable memory is below the estimate's
reserved figure, a run whose tensors fit does not fail: its reserve shrinks to what the card leaves, and
`max_memory_reserved()` (or nvidia-smi) shows at most the card's usable memory (less the CUDA context for
the reserved counter, which does not count the context). Tensors that do not fit are an out-of-memory error
whatever the reserve: the figure is then left as estimated (the caller compares it with the card).

What the steady step shows after such a release depends on whether its shapes repeat (mem22, from the
fifth lent set): `release_cached_blocks` frees every cached segment with no block in use, which takes the
estimate's whole cached segments (the logits segment, the step temporaries' segments:
MemoryEstimate.releasable_reserve_gib, tools.memory_reserve.releasable_reserve); a step of fixed shapes then
replays its requests on a pool that held them and makes no new segment, so its figure is the tensors plus
the rest of the reserve (the residue), under the card. A variable-length run meets new shapes, grows back
and shows the card (nothing releasable).
"""

from __future__ import annotations

from tools.memory_types import MemoryEstimate


def tensors_fit(estimate: MemoryEstimate, usable_memory_gib: float) -> bool:
    """Whether the live tensors at the peak and the CUDA context fit on a card of `usable_memory_gib`
    (the reserve can always shrink: only these make a run fail)."""
    return estimate.peak_allocated_gib() + estimate.cuda_context_gib <= usable_memory_gib


def reserved_on_card_gib(estimate: MemoryEstimate, usable_memory_gib: float) -> float:
    """`max_memory_reserved()` on a card of `usable_memory_gib` (tools.catalog usable_memory_gib: what the
    runtime reports as the device's memory): the estimate's tensors + reserve when they fit the card less the
    CUDA context; past it, when the tensors fit, the reserve less its releasable segments, at most the card
    less the context (module docstring); the uncapped figure when the tensors do not fit."""
    reserved_gib = estimate.peak_without_context_gib()
    if not tensors_fit(estimate, usable_memory_gib):
        return reserved_gib
    room_gib = usable_memory_gib - estimate.cuda_context_gib
    if reserved_gib <= room_gib:
        return reserved_gib
    # a failed cudaMalloc released the whole cached segments; a fixed-shape step does not make them again
    return min(reserved_gib - estimate.releasable_reserve_gib, room_gib)


def device_on_card_gib(estimate: MemoryEstimate, usable_memory_gib: float) -> float:
    """What nvidia-smi shows on a card of `usable_memory_gib`: reserved_on_card_gib + the CUDA context
    when the tensors fit; the uncapped figure when they do not."""
    if not tensors_fit(estimate, usable_memory_gib):
        return estimate.peak_reserved_gib()
    return reserved_on_card_gib(estimate, usable_memory_gib) + estimate.cuda_context_gib
