"""The training step's memory by phase, and the peak as the largest phase (issue 15).

A training step does not hold all its memory at once. Per GPU, in bytes (W weights, O optimizer states,
A adapters with their gradients and states, G gradients, T the optimizer step's temporaries, C AMP's
cached bf16 weight copies; activations from tools.memory_activations.ActivationParts):

    forward   = W + O + A + C + kept + logits at the loss forward + dequant
    loss      = W + O + A + (C without checkpointing) + kept + logits at the loss backward + dequant
    backward  = W + O + A + dequant + one layer + max(kept + G_head, G)
                (early: every kept input and the head's gradient; late: all gradients)
    optimizer = W + O + A + G + T        (the activations are dead by the step)

The peak is the largest phase (checked against the fake-tensor simulator's per-phase peaks,
bench/accuracy_sim.py). G_head is the lm_head's share of the gradients, made in the loss backward.
"""

from __future__ import annotations

from dataclasses import dataclass

from tools.memory_activations import ActivationParts
from tools.memory_states import StateBytes
from tools.memory_types import Plan
from tools.trace import TraceBuilder


@dataclass(frozen=True)
class PhaseLines:
    """What is live at one phase, bytes per GPU, by breakdown line."""

    weights: float
    gradients: float
    optimizer: float
    activations: float
    adapters: float

    step_temporaries: float = 0.0
    """The part of `optimizer` that is the step's temporaries (dynamic, like activations)."""

    def total(self) -> float:
        return self.weights + self.gradients + self.optimizer + self.activations + self.adapters

    def dynamic(self) -> float:
        """Bytes allocated and freed within the step (what the caching allocator keeps a reserve around)."""
        return self.activations + self.gradients + self.adapters + self.step_temporaries


def training_phases(plan: Plan, states: StateBytes, act: ActivationParts) -> dict[str, PhaseLines]:
    """Every phase of one training step (module docstring), bytes per GPU by line."""
    w, o, a, g = states.weights, states.optimizer, states.adapters, states.gradients
    arch = plan.arch
    head_share = min(1.0, arch.vocab_size * arch.hidden_size / max(1, arch.param_count()))
    g_head = g * head_share if not plan.optimizer_in_backward else g
    casts = states.weight_casts
    kept_plus_layer = act.kept + act.layer if plan.grad_checkpointing else 0.0
    early, late = kept_plus_layer + g_head, g + act.layer
    bwd_grads = g_head if early > late else g
    bwd_act = (kept_plus_layer if early > late else act.layer) + act.dequant
    return {
        "forward": PhaseLines(w + casts, 0.0, o, act.kept + act.logits_forward + act.dequant, a),
        "loss": PhaseLines(
            w + (0.0 if plan.grad_checkpointing else casts),
            0.0,
            o,
            act.kept + act.logits_backward + act.dequant,
            a,
        ),
        "backward": PhaseLines(w, bwd_grads, o, bwd_act, a),
        "optimizer": PhaseLines(w, g, o + states.step_temporaries, 0.0, a, states.step_temporaries),
    }


def largest_phase(
    phases: dict[str, PhaseLines], tb: TraceBuilder, reserve_fraction: float = 0.0
) -> tuple[str, PhaseLines]:
    """The phase with the most bytes (ties: the earlier phase), traced with every phase's total.
    `reserve_fraction` (reserved basis) ranks phases by total + fraction x dynamic bytes, so the peak
    never falls when a phase's share grows."""
    name = max(phases, key=lambda k: phases[k].total() + reserve_fraction * phases[k].dynamic())
    tb.step(
        "peak_phase_bytes",
        "max over phases (forward, loss, backward, optimizer) of the bytes live then",
        phases[name].total(),
        "B",
        peak_phase=name,
        forward_bytes=phases["forward"].total(),
        loss_bytes=phases["loss"].total(),
        backward_bytes=phases["backward"].total(),
        optimizer_bytes=phases["optimizer"].total(),
    )
    return name, phases[name]
