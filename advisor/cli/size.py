"""`gpu-advisor size`: peak GPU memory of one training or inference configuration.

Flags follow shared/design.md. `--format json` prints advisor.api.size()'s dict; the table shows the
breakdown, the peak per GPU and in total, the fit against `--gpu`, and the assumptions used.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import typer

from advisor.cli.app import app


@app.command()
def size(
    model: str | None = typer.Option(None, "--model", help="catalog model id or alias, e.g. llama-3-70b"),
    config: Path | None = typer.Option(None, "--config", help="a Hugging Face config.json"),
    params_b: float | None = typer.Option(
        None, "--params-b", help="parameters in billions (Llama-like shape)"
    ),
    method: str = typer.Option("full", "--method", help="full | lora | qlora | pretraining | inference"),
    precision: str | None = typer.Option(
        None,
        "--precision",
        help="weights: bf16 | fp16 | fp32 | fp8 | int8 | int4 | nf4 (default nf4 for qlora)",
    ),
    training_precision: str = typer.Option("mixed", "--training-precision", help="mixed | pure-bf16"),
    optimizer: str = typer.Option(
        "adamw", "--optimizer", help="adamw | adamw-8bit | paged-adamw-8bit | sgd | adafactor"
    ),
    lora_rank: int = typer.Option(16, "--lora-rank", help="LoRA rank r"),
    lora_targets: str = typer.Option(
        "all-linear", "--lora-targets", help="attention | all-linear | mlp | q_proj,v_proj,..."
    ),
    seq_len: int = typer.Option(2048, "--seq-len", help="training sequence length, tokens"),
    batch_size: int = typer.Option(1, "--batch-size", help="micro-batch per GPU, sequences"),
    grad_checkpointing: bool = typer.Option(
        True, "--grad-checkpointing/--no-grad-checkpointing", help="activation recomputation"
    ),
    flash_attention: bool = typer.Option(
        True, "--flash-attention/--no-flash-attention", help="memory-efficient attention kernel"
    ),
    gpus: int = typer.Option(1, "--gpus", help="number of GPUs"),
    sharding: str = typer.Option("none", "--sharding", help="none | ddp | zero1 | zero2 | zero3 | fsdp"),
    tp: int = typer.Option(1, "--tp", help="tensor-parallel degree"),
    pp: int = typer.Option(1, "--pp", help="pipeline-parallel degree"),
    offload: str = typer.Option("none", "--offload", help="none | optimizer | params (to CPU)"),
    concurrency: int = typer.Option(1, "--concurrency", help="inference: sequences in flight"),
    context_len: int | None = typer.Option(None, "--context-len", help="inference: tokens per sequence"),
    chunked_loss: bool = typer.Option(
        False, "--chunked-loss/--no-chunked-loss", help="chunked cross-entropy (torchtune-style)"
    ),
    gpu: str | None = typer.Option(None, "--gpu", help="catalog GPU id: show fit against its usable memory"),
    fmt: str = typer.Option("table", "--format", help="table | json"),
    simulate: bool = typer.Option(
        False, "--simulate", help="also run 2 training steps on fake tensors (needs gpu-advisor[simulate])"
    ),
) -> None:
    """Estimate peak GPU memory (GiB) per GPU and in total, with the trace of every step."""
    from tools.errors import InputError

    if fmt not in ("table", "json"):
        raise InputError(f"unknown --format {fmt!r}: use table or json")
    flags: dict[str, Any] = {
        "model": model,
        "config": config,
        "params_b": params_b,
        "method": method,
        "precision": precision,
        "training_precision": training_precision,
        "optimizer": optimizer,
        "lora_rank": lora_rank,
        "lora_targets": lora_targets,
        "seq_len": seq_len,
        "batch_size": batch_size,
        "grad_checkpointing": grad_checkpointing,
        "flash_attention": flash_attention,
        "gpus": gpus,
        "sharding": sharding,
        "tp": tp,
        "pp": pp,
        "offload": offload,
        "concurrency": concurrency,
        "context_len": context_len,
        "loss_chunking": chunked_loss,
        "gpu": gpu,
    }
    from advisor.api import size as api_size

    result = api_size(**flags, simulate=simulate)
    if fmt == "json":
        typer.echo(json.dumps(result, indent=2, default=str))
    else:
        print_size_table(result)
        if simulate:
            from advisor.simulate.cli import print_simulation

            print_simulation(result["simulation"])


def print_size_table(result: dict[str, Any]) -> None:
    """Readable summary: inputs, breakdown per GPU, peak and total, GPU fit, assumptions."""
    from rich.console import Console
    from rich.table import Table

    console = Console(highlight=False, soft_wrap=True)
    m, inp = result["model"], result["inputs"]
    synthetic = " (synthetic Llama-like shape)" if m["synthetic"] else ""
    console.print(f"[bold]{m['name']}[/bold]{synthetic}: {m['params'] / 1e9:.2f}B params, {inp['method']}, "
                  f"{inp['precision']} weights")  # fmt: skip
    if inp["method"] == "inference":
        console.print(f"concurrency {inp['concurrency']} x context {inp['context_len']} tokens; "
                      f"{inp['gpus']} GPU(s), tp {inp['tp']}, pp {inp['pp']}")  # fmt: skip
    else:
        lora = f", LoRA r{inp['lora_rank']} on {','.join(inp['lora_targets'])}" if inp["lora_rank"] else ""
        console.print(
            f"{inp['training_precision']} precision, {inp['optimizer']}{lora}; batch {inp['batch_size']} x "
            f"{inp['seq_len']} tokens, checkpointing {'on' if inp['grad_checkpointing'] else 'off'}, "
            f"flash attention {'on' if inp['flash_attention'] else 'off'}; {inp['gpus']} GPU(s), "
            f"{inp['sharding']}, tp {inp['tp']}, pp {inp['pp']}, offload {inp['offload']}"
        )
    table = Table(title="Peak memory per GPU (GiB)")
    table.add_column("component")
    table.add_column("GiB", justify="right")
    for name, value in result["breakdown_gib"].items():
        table.add_row(name.replace("_", " "), f"{value:,.2f}")
    table.add_row("[bold]peak per GPU[/bold]", f"[bold]{result['peak_gib_per_gpu']:,.2f}[/bold]")
    table.add_row("total (all GPUs)", f"{result['total_gib']:,.2f}")
    if result["cpu_offload_gib_per_gpu"]:
        table.add_row("offloaded to CPU per GPU", f"{result['cpu_offload_gib_per_gpu']:,.2f}")
    console.print(table)
    fit = result.get("fit")
    if fit:
        verdict = "fits" if fit["fits"] else "does NOT fit"
        console.print(f"{fit['name']}: {fit['usable_memory_gib']:.1f} GiB usable -> {verdict} "
                      f"(headroom {fit['headroom_gib']:+.1f} GiB)")  # fmt: skip
        if fit["fits"] and not fit.get("fits_with_headroom", True):
            share = fit.get("required_headroom_fraction", 0.1)
            console.print(f"  but the recommender keeps {share:.0%} of usable memory free: not a pick there")
        if not fit["fits"] and fit["fits_with_paging"]:
            console.print("  fits only if the paged optimizer state spills to host memory (slower)")
    console.print(f"seed 001 rule of thumb: {result['seed_rule_gb']:,.1f} GB in total")
    console.print("[bold]Assumptions[/bold]")
    for a in result["assumptions"]:
        unit = f" {a['unit']}" if a["unit"] else ""
        src = f" ({a['source']})" if a["source"] else ""
        console.print(f"  - {a['name']}: {a['value']}{unit}{src}")
    console.print("Use --format json for the full trace of every step.")
