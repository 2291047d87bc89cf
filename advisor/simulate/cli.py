"""`gpu-advisor size --simulate`: run the simulator on the same configuration and set it beside the
analytic estimate. The size command calls `simulate_for_size` and, for tables, `print_simulation`.

Light at import time (no torch); the simulator imports torch/transformers/peft when it runs.
"""

from __future__ import annotations

from typing import Any, get_args

from advisor.simulate import simulate_training_memory
from tools.catalog.schema import ModelArch
from tools.errors import InputError
from tools.sizing_request import SizingRequest
from tools.vocabulary import SimulatedMethod


def _check_simulable(request: SizingRequest) -> None:
    """The simulator runs one GPU's program, unsharded: say which flag to change otherwise."""
    if request.method not in get_args(SimulatedMethod):
        raise InputError(f"--simulate runs --method full or lora, not {request.method}")
    if request.precision not in (None, "bf16"):
        raise InputError(f"--simulate runs 16-bit weights: drop --precision {request.precision}")
    if request.gpus != 1 or request.tp != 1 or request.pp != 1:
        raise InputError("--simulate runs one GPU's program: use --gpus 1 (no --tp/--pp)")
    if request.sharding not in ("none", "ddp") or request.offload != "none":
        raise InputError("--simulate does not model sharding or offload: use --sharding none --offload none")
    if request.activation_offloading:
        raise InputError("--simulate does not model activation offloading: drop --activation-offloading")


def simulate_for_size(request: SizingRequest, analytic: dict[str, Any], arch: ModelArch) -> dict[str, Any]:
    """Simulate the configuration of `gpu-advisor size` and compare it with its analytic result.

    `request` is the size command's request, `arch` the architecture it named; `analytic` is
    advisor.api.size()'s dict. Returns a JSON-ready dict (the `simulation` key of
    `size --format json`), all memory in GiB.
    """
    _check_simulable(request)
    inputs = analytic["inputs"]
    if inputs.get("loss_chunking"):
        raise InputError("--simulate runs transformers' standard loss: add --no-chunked-loss")
    if inputs.get("optimizer_in_backward"):
        raise InputError("--simulate steps the optimizer after backward: drop --optimizer-in-backward")
    sim = simulate_training_memory(
        arch=arch,
        method=request.method,  # type: ignore[arg-type]  # checked by _check_simulable
        training_precision=request.training_precision,  # type: ignore[arg-type]  # the simulator checks
        optimizer=request.optimizer,  # type: ignore[arg-type]  # the simulator checks it
        optimizer_impl=inputs["optimizer_impl"],  # the framework's default unless --optimizer-impl
        lora_dropout=float(inputs.get("lora_dropout") or 0.0),
        # the preset's value unless --peft-fp32-adapters/--no-peft-fp32-adapters (advisor.api memory_options)
        lora_fp32_adapters=bool(analytic["memory_options"]["lora_fp32_adapters"]["value"]),
        lora_rank=request.lora_rank,
        lora_targets=request.lora_targets,
        seq_len=request.seq_len,
        batch_size=request.batch_size,
        grad_checkpointing=request.grad_checkpointing,
        attention="sdpa" if request.flash_attention else "eager",
    )
    analytic_peak = float(analytic["peak_gib_per_gpu"])
    analytic_allocated = analytic_peak - float(analytic["breakdown_gib"]["overhead"])
    return {
        "peak_tensor_gib": sim.peak_tensor_gib,
        "peak_allocated_gib": sim.peak_allocated_gib,
        "total_gib": sim.total_gib,
        "peak_phase": sim.peak_phase,
        "optimizer_impl": sim.optimizer_impl,
        "analytic_peak_phase": analytic["peak_phase"],
        "peak_step": sim.peak_step,
        "phase_peaks_gib": sim.phase_peaks_gib,
        "breakdown_at_peak_gib": sim.breakdown_at_peak_gib,
        "cuda_lines": [line.model_dump() for line in sim.cuda_lines],
        "attention": sim.attention,
        "program": list(sim.program),
        "wall_seconds": sim.wall_seconds,
        "versions": sim.versions,
        "analytic_peak_gib_per_gpu": analytic_peak,
        "analytic_allocated_gib": analytic_allocated,
        "difference_gib": analytic_peak - sim.total_gib,
        "difference_fraction": analytic_peak / sim.total_gib - 1.0,
        "allocated_difference_fraction": analytic_allocated / sim.peak_allocated_gib - 1.0,
    }


def print_simulation(sim: dict[str, Any]) -> None:
    """The simulated peak beside the analytic one, with the CUDA-only lines and the difference."""
    # lazy: rich costs ~20 ms; advisor.api (size as JSON, MCP) imports this module and needs no table
    from rich.console import Console
    from rich.table import Table

    console = Console(highlight=False, soft_wrap=True)
    table = Table(title="Simulated (fake tensors, 2 training steps) vs analytic, GiB per GPU")
    table.add_column("line")
    table.add_column("simulated", justify="right")
    table.add_column("analytic", justify="right")
    table.add_row(
        "tensor peak (max_memory_allocated)",
        f"{sim['peak_allocated_gib']:,.2f}",
        f"{sim['analytic_allocated_gib']:,.2f}",
    )
    for line in sim["cuda_lines"]:
        table.add_row(f"  + {line['name']}", f"{line['memory_gib']:,.2f}", "")
    table.add_row("[bold]peak per GPU[/bold]", f"[bold]{sim['total_gib']:,.2f}[/bold]",
                  f"[bold]{sim['analytic_peak_gib_per_gpu']:,.2f}[/bold]")  # fmt: skip
    console.print(table)
    console.print(
        f"difference (analytic - simulated): {sim['difference_gib']:+,.2f} GiB "
        f"({sim['difference_fraction'] * 100:+.1f}%); "
        f"tensor peak {sim['allocated_difference_fraction'] * 100:+.1f}%"
    )
    phases = ", ".join(f"{k} {v:,.2f}" for k, v in sim["phase_peaks_gib"].items())
    console.print(
        f"simulated peak during {sim['peak_phase']} of step {sim['peak_step']}; phase peaks: {phases}"
    )
    console.print(f"simulated in {sim['wall_seconds']:.1f} s: " + "; ".join(sim["program"]))
