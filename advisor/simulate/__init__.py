"""Memory simulator: run real training steps on fake tensors and measure the exact tensor peak.

Needs the optional extra `gpu-advisor[simulate]` (torch CPU, transformers, peft); those are
imported only when `simulate_training_memory` runs, so importing this package stays light.
"""

from advisor.simulate.engine import simulate_training_memory
from advisor.simulate.hf_config import hf_config_kwargs, model_type_for
from advisor.simulate.result import CudaLine, PhasePeak, SimulationResult

__all__ = [
    "CudaLine",
    "PhasePeak",
    "SimulationResult",
    "hf_config_kwargs",
    "model_type_for",
    "simulate_training_memory",
]
