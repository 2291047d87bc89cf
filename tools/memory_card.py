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
"""

from __future__ import annotations

from tools.memory_types import MemoryEstimate


def tensors_fit(estimate: MemoryEstimate, usable_memory_gib: float) -> bool:
    """Whether the live tensors at the peak and the CUDA context fit on a card of `usable_memory_gib`
    (the reserve can always shrink: only these make a run fail)."""
    return estimate.peak_allocated_gib() + estimate.cuda_context_gib <= usable_memory_gib


def reserved_on_card_gib(estimate: MemoryEstimate, usable_memory_gib: float) -> float:
    """`max_memory_reserved()` on a card of `usable_memory_gib` (tools.catalog usable_memory_gib: what the
    runtime reports as the device's memory): the estimate's tensors + reserve, at most the card less the CUDA
    context when the tensors fit (module docstring); the uncapped figure when they do not."""
    reserved_gib = estimate.peak_without_context_gib()
    if not tensors_fit(estimate, usable_memory_gib):
        return reserved_gib
    return min(reserved_gib, usable_memory_gib - estimate.cuda_context_gib)


def device_on_card_gib(estimate: MemoryEstimate, usable_memory_gib: float) -> float:
    """What nvidia-smi shows on a card of `usable_memory_gib`: tensors + reserve + context, at most the
    card's usable memory when the tensors fit; the uncapped figure when they do not."""
    device_gib = estimate.peak_reserved_gib()
    if not tensors_fit(estimate, usable_memory_gib):
        return device_gib
    return min(device_gib, usable_memory_gib)
