"""`gpu-advisor time`: training time and throughput of one run (serving time: `--method inference`).

Flags are tools.time_request.TimeRequest's fields. `--format json` prints advisor.api.time()'s dict;
the text is a short summary: the duration range on the GPUs with the framework it assumes, tokens/s
per GPU, the MFU band, seed 001's 100%-MFU lower bound, and what would narrow the range.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import typer

from advisor.cli.app import app
from tools import present
from tools.errors import InputError
from tools.ranges import Range
from tools.time_request import TimeRequest, cli_flag


def _flag(name: str) -> Any:
    """The typer option of a TimeRequest field: its flag, default and help text."""
    field = TimeRequest.model_fields[name]
    return typer.Option(field.default, cli_flag(name), help=field.description)


@app.command(name="time")
def time_command(
    model: str | None = _flag("model"),
    config: Path | None = _flag("config"),
    params_b: float | None = _flag("params_b"),
    method: str = _flag("method"),
    gpu: str | None = _flag("gpu"),
    gpus: int = _flag("gpus"),
    tokens: float | None = _flag("tokens"),
    epochs: float = _flag("epochs"),
    seq_len: int = _flag("seq_len"),
    batch_size: int | None = _flag("batch_size"),
    grad_accumulation: int | None = _flag("grad_accumulation"),
    precision: str = _flag("precision"),
    training_precision: str | None = _flag("training_precision"),
    grad_checkpointing: bool = _flag("grad_checkpointing"),
    flash_attention: bool = _flag("flash_attention"),
    packed: bool = _flag("packed"),
    framework: str | None = _flag("framework"),
    training_objective: str = _flag("training_objective"),
    precompute_ref_log_probs: bool = _flag("precompute_ref_log_probs"),
    pairs: float | None = _flag("pairs"),
    pair_prompt_tokens: int | None = _flag("pair_prompt_tokens"),
    chosen_tokens: int | None = _flag("chosen_tokens"),
    rejected_tokens: int | None = _flag("rejected_tokens"),
    concurrency: int | None = _flag("concurrency"),
    prompt_tokens: int | None = _flag("prompt_tokens"),
    output_tokens: int | None = _flag("output_tokens"),
    fmt: str = typer.Option("text", "--format", help="text | json"),
) -> None:
    """Estimate training time (hours) and throughput (tokens/s per GPU) of one run, with its trace."""
    if fmt not in ("text", "json"):
        raise InputError(f"unknown --format {fmt!r}: use text or json")
    # typer passes the options as keywords named as TimeRequest's fields (tests/compute checks it)
    flags = {name: value for name, value in locals().items() if name in TimeRequest.model_fields}
    # lazy: the calculators and catalogs behind advisor.api cost ~40 ms of every command's start
    from advisor.api import time as api_time

    result = api_time(**flags)
    if fmt == "json":
        typer.echo(json.dumps(result, indent=2, default=str))
    else:
        typer.echo(time_text(result))


def _range(r: dict[str, float] | None) -> Range | None:
    return Range(**r) if r is not None else None


def _release(result: dict[str, Any]) -> str:
    """' 0.5' when the caller stated the engine's release (--framework vllm-0.5), else ''."""
    version = result.get("engine_version")
    return f" {version}" if version else ""


def serving_text(result: dict[str, Any]) -> str:
    """The human summary of a `time --method inference` result (every figure worded by tools.present)."""
    inp, m, gpu = result["inputs"], result["model"], result["gpu"]
    where = f"{inp['gpus']}× {gpu['name']}"
    lines = [
        f"{m['name']}, serving, {inp['precision']}, {inp['concurrency']:,} requests in flight, "
        f"{present.count(inp['prompt_tokens'])} tokens in / {present.count(inp['output_tokens'])} out "
        f"({result['framework']}{_release(result)})",
        f"One replica on {where}: "
        f"{present.tokens_per_s_range(_range(result['output_tokens_per_s']))} in all, "
        f"{present.tokens_per_s_range(_range(result['per_user_tokens_per_s']))} per user",
        f"  {present.ms_range(_range(result['ms_per_output_token']))} per output token; first token in "
        f"{present.seconds_range(_range(result['time_to_first_token_s']))}",
        f"  the KV cache holds {result['max_concurrency']:,} requests; decode is "
        f"{'memory-bandwidth' if result['decode_bound'] == 'memory_bandwidth' else 'compute'} bound",
    ]
    if not result["weights_fit"]:
        lines.append("  The weights do not fit on these GPUs: add GPUs or quantise.")
    lines.append("Use --format json for the assumptions and the trace of every step.")
    return "\n".join(lines)


def time_text(result: dict[str, Any]) -> str:
    """The human summary of a `time` result (every figure worded by tools.present)."""
    inp, m, gpu = result["inputs"], result["model"], result["gpu"]
    if inp["method"] == "inference":
        return serving_text(result)
    where = f"{inp['gpus']}× {gpu['name']}"
    framework = result["framework_text"]
    wall = _range(result["wall_hours"])
    synthetic = " (synthetic Llama-like shape)" if m["synthetic"] else ""
    goal = inp.get("training_objective", "sft")
    objective = "" if goal == "sft" else f" {goal.upper()}"
    lines = [
        f"{m['name']}{synthetic}, {present.method_text(inp['method'])}{objective}, {inp['precision']}, "
        f"sequence {inp['seq_len']:,} tokens, checkpointing {'on' if inp['grad_checkpointing'] else 'off'}"
    ]
    if wall is not None:
        peak = result["gpu_hours_at_peak"]
        tokens = present.count(result["tokens_timed"])
        lines.append(f"About {present.hours_range(wall)} on {where} ({framework}) for {tokens} tokens")
        lines.append(
            f"  {present.gpu_hours_range(_range(result['gpu_hours']))}; at 100% of peak (seed 001's lower "
            f"bound) {present.gpu_hours_range(Range(low=peak, high=peak))}"
        )
    else:
        lines.append(f"On {where} ({framework}); give --tokens for the duration")
    lines.append(
        f"  {present.tokens_per_s_range(_range(result['tokens_per_s_per_gpu']))} per GPU, "
        f"MFU {present.pct(result['mfu']['low'])}–{present.pct(result['mfu']['high'])}"
    )
    if result["framework_note"]:
        lines.append(f"  Framework: {result['framework_note']}")
    if result["narrowing"]:
        lines.append("To narrow it: " + "; ".join(result["narrowing"]))
    lines.append("Use --format json for the assumptions and the trace of every step.")
    return "\n".join(lines)
