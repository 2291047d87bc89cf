"""Result types of the memory simulator (no torch import here), and the CUDA-only lines it adds.

The simulator measures tensor memory exactly; what a GPU adds on top (the CUDA context, cuBLAS
workspaces, allocator slack) never appears as a tensor, so it is listed line by line, each a named
constant with its source.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from tools.trace import Traced
from tools.units import mib_to_gib

# --- CUDA-only costs (named assumptions) -------------------------------------------------------
# CUDA context with lazy module loading (CUDA >= 11.7, PyTorch's default): "around 400MB"
# (ptrblck, pytorch/pytorch#109888); 426 MiB measured with PyTorch 2.10 + CUDA 13 on an RTX 6000 Ada
# (unslothai/unsloth-zoo#1053). Not counted by torch.cuda.memory_allocated/reserved, only by nvidia-smi.
CUDA_CONTEXT_MIB = 426.0
CUDA_CONTEXT_SOURCE = "pytorch/pytorch#109888 (~400 MB, lazy loading); unslothai/unsloth-zoo#1053 (426 MiB)"
# cuBLAS + cuBLASLt workspaces on Hopper: CUBLAS_WORKSPACE_CONFIG default :4096:8 (8 x 4 MiB) and
# cuBLASLt 32 MiB (pytorch/pytorch#120925, following NVIDIA's cublasSetWorkspace advice for sm90).
# Older GPUs use less (:4096:2:16:8 = 8.125 MiB, cuBLASLt 1-4 MiB): the Hopper figure is the upper bound.
CUBLAS_WORKSPACE_MIB = 64.0
CUBLAS_WORKSPACE_SOURCE = "pytorch/pytorch#120925 (cuBLASLt 32 MiB on sm90) + CUBLAS_WORKSPACE_CONFIG :4096:8"
# Reserved-but-unallocated memory of the caching allocator (segments split and not reusable).
# An engineering estimate, not measured here (no GPU in this session): reserved typically exceeds
# the allocated peak by a few percent in steady training; expandable_segments:True shrinks it.
ALLOCATOR_FRAGMENTATION_FRACTION = 0.05
ALLOCATOR_FRAGMENTATION_SOURCE = "estimate (PyTorch CUDA caching allocator; no GPU measurement yet)"

CUDA_CONTEXT_GIB = mib_to_gib(CUDA_CONTEXT_MIB)
CUBLAS_WORKSPACE_GIB = mib_to_gib(CUBLAS_WORKSPACE_MIB)


class CudaLine(BaseModel):
    """One GPU-only memory cost the simulator cannot see, in GiB, with where the figure comes from."""

    model_config = ConfigDict(frozen=True)

    name: str
    memory_gib: float
    source: str


class PhasePeak(BaseModel):
    """Live tensor memory when one phase of one training step began, and its peak during the phase
    (step 0 = building the model and the optimizer)."""

    model_config = ConfigDict(frozen=True)

    step: int
    phase: str
    start_gib: float
    peak_gib: float


class SimulationResult(Traced):
    """What one simulated training run needed. All memory in GiB (2**30 bytes).

    peak_tensor_gib: exact peak of live tensor storage bytes over the whole run.
    peak_allocated_gib: the same peak with every block rounded as the CUDA caching allocator does
      (what torch.cuda.max_memory_allocated would report for this program).
    phase_peaks_gib: max over steps of each phase's peak (weights, forward, backward, optimizer).
    breakdown_at_peak_gib: live memory by category at the moment of the peak.
    cuda_lines: GPU-only costs, added to peak_allocated_gib to give total_gib.
    """

    model_id: str
    model_type: str
    method: str
    training_precision: str
    optimizer: str
    optimizer_impl: str
    lora_rank: int | None
    lora_targets: str | tuple[str, ...] | None
    seq_len: int
    batch_size: int
    grad_checkpointing: bool
    attention: str
    steps: int
    params: int
    trainable_params: int
    params_catalog: int
    peak_tensor_gib: float
    peak_allocated_gib: float
    peak_phase: str
    peak_step: int
    phase_peaks_gib: dict[str, float]
    step_phase_peaks: tuple[PhasePeak, ...]
    breakdown_at_peak_gib: dict[str, float]
    cuda_lines: tuple[CudaLine, ...]
    total_gib: float
    wall_seconds: float
    ops: int
    versions: dict[str, str]
    program: tuple[str, ...]

    @property
    def cuda_extra_gib(self) -> float:
        return sum(line.memory_gib for line in self.cuda_lines)
