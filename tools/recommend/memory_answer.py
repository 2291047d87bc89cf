"""The answer to a memory question ("how much VRAM do I need?", "tell me the GPU memory per card needed";
expert review 13, R14/R16: asked and never answered, and the only figure shown was the pick's per-GPU peak
on a layout the user had not asked about). Every figure is the memory estimate the engine already made
(tools.memory through tools.recommend.candidates.memory_fit): this module only chooses which to quote.

- the pick: GiB per GPU and in all over the GPUs that hold one copy of the model (one serving replica,
  or the whole training job), against the card's usable memory;
- the fewest GPUs that hold it (then the smallest card among those), and the smallest card that holds it
  (then the fewest of those), from every feasible option: the card size a buyer needs."""

from __future__ import annotations

from tools.recommend.candidates import Candidate
from tools.recommend.models import ExpectationCheck
from tools.recommend.outcome import Outcome

CLAIM = "GPU memory needed"


def _one_copy(c: Candidate) -> str:
    """'2x NVIDIA H200: 100.8 GiB per GPU of 139.8 usable, 201.6 GiB in all' (one copy of the model)."""
    n, lay = c.layout.n_gpus, c.layout
    # plain data parallelism (DDP, no sharding, no model parallelism): every GPU holds a whole copy
    copies = lay.sharding in ("none", "ddp") and lay.tp == 1 and lay.pp == 1
    total_gib = c.fit.peak_gib_per_gpu * n
    in_all = "" if n == 1 else ", each GPU a whole copy" if copies else f", {total_gib:,.1f} GiB in all"
    return (
        f"{n}x {c.gpu.name}: {c.fit.peak_gib_per_gpu:,.1f} GiB per GPU of "
        f"{c.fit.usable_gib_per_gpu:,.1f} usable{in_all}"
    )


def memory_answer(outcome: Outcome) -> ExpectationCheck | None:
    """The memory figures of the module docstring; None unless the user asked (profile.memory_asked) and
    some option fits."""
    p = outcome.workload.profile
    pick = outcome.primary
    if not p.memory_asked or pick is None:
        return None
    feasible = outcome.all_feasible or [pick]
    fewest = min(feasible, key=lambda c: (c.layout.n_gpus, c.gpu.usable_memory_gib))
    smallest = min(feasible, key=lambda c: (c.gpu.usable_memory_gib, c.layout.n_gpus))
    copy = " (one replica; the other replicas each hold the same)" if pick.replicas > 1 else ""
    # the pick with the fewest GPUs of any option is the minimum set-up ("What's the minimum setup?", expert
    # review 15, R09): said so, as the fewest that hold it
    least = (
        " It is the minimum set-up: no option with fewer GPUs holds it."
        if (pick.layout.n_gpus <= fewest.layout.n_gpus)
        else ""
    )
    parts = [f"Memory needed: on the pick, {_one_copy(pick)}{copy}.{least}"]
    shown = {(pick.gpu.id, pick.layout.n_gpus)}
    for label, c in (("Fewest GPUs that hold it", fewest), ("Smallest card that holds it", smallest)):
        if (c.gpu.id, c.layout.n_gpus) in shown or (least and label.startswith("Fewest")):
            continue  # the minimum already said: no second card of the same count
        shown.add((c.gpu.id, c.layout.n_gpus))
        parts.append(f"{label}: {_one_copy(c)}.")
    return ExpectationCheck(
        claim=CLAIM, verdict="holds", explanation=" ".join(parts), asked=True, leads=False
    )
