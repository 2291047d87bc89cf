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
from tools.errors import InputError
from tools.sizing_request import SizingRequest, cli_flag


def _flag(name: str) -> Any:
    """The typer option of a SizingRequest field: its flag, default and help text."""
    field = SizingRequest.model_fields[name]
    return typer.Option(field.default, cli_flag(name), help=field.description)


@app.command()
def size(
    model: str | None = _flag("model"),
    config: Path | None = _flag("config"),
    params_b: float | None = _flag("params_b"),
    kv_heads: int | None = _flag("kv_heads"),
    layers: int | None = _flag("layers"),
    hidden: int | None = _flag("hidden"),
    method: str = _flag("method"),
    precision: str | None = _flag("precision"),
    training_precision: str = _flag("training_precision"),
    optimizer: str = _flag("optimizer"),
    lora_rank: int = _flag("lora_rank"),
    lora_targets: str = _flag("lora_targets"),
    seq_len: int = _flag("seq_len"),
    batch_size: int = _flag("batch_size"),
    grad_checkpointing: bool = _flag("grad_checkpointing"),
    flash_attention: bool = _flag("flash_attention"),
    gpus: int = _flag("gpus"),
    sharding: str = _flag("sharding"),
    tp: int = _flag("tp"),
    pp: int = _flag("pp"),
    offload: str = _flag("offload"),
    concurrency: int = _flag("concurrency"),
    context_len: int | None = _flag("context_len"),
    framework: str = _flag("framework"),
    optimizer_impl: str | None = _flag("optimizer_impl"),
    loss_chunking: bool | None = _flag("loss_chunking"),
    lora_dropout: float | None = _flag("lora_dropout"),
    activation_offloading: bool | None = _flag("activation_offloading"),
    optimizer_in_backward: bool | None = _flag("optimizer_in_backward"),
    loss_impl: str | None = _flag("loss_impl"),
    loss_upcast: bool | None = _flag("loss_upcast"),
    model_code: str | None = _flag("model_code"),
    lora_fp32_adapters: bool | None = _flag("lora_fp32_adapters"),
    fp32_unquantized: bool | None = _flag("fp32_unquantized"),
    quant_saves_input: bool | None = _flag("quant_saves_input"),
    returns_kv_cache: bool | None = _flag("returns_kv_cache"),
    fsdp_limit_all_gathers: bool | None = _flag("fsdp_limit_all_gathers"),
    fp8_linears: bool | None = _flag("fp8_linears"),
    fp8_params: bool | None = _flag("fp8_params"),
    grad_reduce_in_fp32: bool | None = _flag("grad_reduce_in_fp32"),
    variable_length: bool = _flag("variable_length"),
    training_objective: str = _flag("training_objective"),
    precompute_ref_log_probs: bool = _flag("precompute_ref_log_probs"),
    memory_basis: str = _flag("memory_basis"),
    gpu: str | None = _flag("gpu"),
    fmt: str = typer.Option("table", "--format", help="table | json"),
    simulate: bool = typer.Option(
        False, "--simulate", help="also run 2 training steps on fake tensors (needs gpu-advisor[simulate])"
    ),
) -> None:
    """Estimate peak GPU memory (GiB) per GPU and in total, with the trace of every step."""
    if fmt not in ("table", "json"):
        raise InputError(f"unknown --format {fmt!r}: use table or json")
    # typer passes the options as keywords named as SizingRequest's fields (tests/memory checks it)
    flags = {name: value for name, value in locals().items() if name in SizingRequest.model_fields}
    # lazy: the calculators and catalogs behind advisor.api cost ~40 ms of every command's start
    from advisor.api import size as api_size

    result = api_size(**flags, simulate=simulate)
    if fmt == "json":
        typer.echo(json.dumps(result, indent=2, default=str))
    else:
        print_size_table(result)
        if simulate:
            # lazy: the simulator's modules cost ~15 ms of every command's start
            from advisor.simulate.cli import print_simulation

            print_simulation(result["simulation"])


def print_size_table(result: dict[str, Any]) -> None:
    """Readable summary: inputs, breakdown per GPU, peak and total, GPU fit, assumptions."""
    # lazy: rich costs ~20 ms of every command's start (only --help and tables use it)
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
    table.add_row(
        "[bold]peak per GPU[/bold]",
        f"[bold]{result['peak_gib_per_gpu']:,.2f}[/bold] ({result['peak_phase']} phase, "
        f"{result['memory_basis']} basis)",
    )
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
