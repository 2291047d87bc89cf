"""Turn a lent GPU's measurements (bench/device_training_measure.py's JSON lines) into bench/data rows.

Each measured set-up gives memory rows in the fresh memory schema (bench/memory_fresh_data.py), one per
basis: allocated (torch.cuda.max_memory_allocated), reserved (max_memory_reserved) and device (reserved +
the CUDA context measured once, what nvidia-smi shows), and one training-throughput row in the calibration
schema (bench/calibration_data.py TrainingRow). Set-ups that ran out of memory or failed give no row; they
are listed. Rows are validated against both schemas before anything is written, so a file this writes
loads with the benches' own loaders:

    .venv/bin/python -m bench.device_rows /work/.device/.../device_training.jsonl \
        --memory bench/data/memory_measurements_device.yaml --time bench/data/training_throughput_device.yaml

The model never saw these figures, so they are a held-out source for the memory and time models; score
them with `bench.accuracy_fresh_memory --file ...` and the time bench once registered as a side.
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path
from typing import Any

import yaml

from bench.calibration_data import TrainingRow
from bench.device_training_measure import catalog_entry
from bench.memory_fresh_data import MemoryFreshRow

SCRIPT = "bench/device_training_measure.py (gpu-advisor repository)"
# device name as torch reports it -> catalog GPU id (tools/catalog/gpus.yaml)
GPU_IDS = {"NVIDIA H200": "h200", "NVIDIA H100 80GB HBM3": "h100-sxm", "NVIDIA H100 PCIe": "h100-pcie"}
BASES = ("allocated", "reserved", "device")
FAMILY = "gpu-advisor-device-measurements"
TIME_SIDES = {"first": "device_held_out", "second": "device2_held_out", "third": "device3_held_out",
               "fourth": "device4_held_out",
               "fifth": "device5_held_out"}
"""The time bench's side for each set measured here: never fitted, scored apart."""


def read_lines(path: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The header (environment, context) and the per-set-up results of one run."""
    lines = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    if not lines or "environment" not in lines[0]:
        raise ValueError(f"{path}: not a device_training.jsonl (no environment header)")
    return lines[0], lines[1:]


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9.\-]+", "-", text.lower()).strip("-")


def _hf_id(entry: dict[str, Any]) -> str | None:
    return next((a for a in entry.get("aliases", []) if "/" in a), None)


def _source(env: dict[str, Any], run_date: str, name: str) -> dict[str, str]:
    versions = f"torch {env.get('torch')}, transformers {env.get('transformers')}, peft {env.get('peft')}"
    return {"url": f"{SCRIPT}, run on one {env.get('gpu')}", "document": f"set-up {name}",
            "date": f"{run_date}; {versions}"}  # fmt: skip


def _family(header: dict[str, Any]) -> str:
    """The source family of a run: the first set's, or one per later set (its own held-out side)."""
    run_set = header.get("set") or "first"
    return FAMILY if run_set == "first" else f"{FAMILY}-{run_set}"


def _peak_phase(result: dict[str, Any]) -> str | None:
    phases: dict[str, float] = result.get("phase_peak_allocated_gib") or {}
    return max(phases, key=lambda k: phases[k]) if phases else None


def _card(env: dict[str, Any], basis: str) -> dict[str, str]:
    """measured.card for a reserved / nvidia-smi row: the card it was read on (the estimate's reserve shrinks
    to it, tools.memory_card); none for allocated rows or a card not in GPU_IDS."""
    gpu_id = GPU_IDS.get(str(env.get("gpu")))
    return {"card": gpu_id} if gpu_id and basis != "allocated" else {}


def memory_rows(header: dict[str, Any], result: dict[str, Any], run_date: str) -> list[dict[str, Any]]:
    """The memory rows of one measured set-up, one per basis (GiB per GPU)."""
    env, s = header["environment"], result["set_up"]
    entry = catalog_entry(s["model"])
    context_gib = header.get("context_gib")
    family = _family(header)
    values = {"allocated": result.get("peak_allocated_gib"), "reserved": result.get("peak_reserved_gib")}
    if values["reserved"] is not None and context_gib is not None:
        values["device"] = values["reserved"] + context_gib
    targets: Any = s["lora_targets"]
    if targets and targets != "all-linear":
        targets = targets.split(",")
    phases = ", ".join(f"{k} {v:.2f} GiB" for k, v in (result.get("phase_peak_allocated_gib") or {}).items())
    rows = []
    for basis in BASES:
        value = values.get(basis)
        if value is None:
            continue
        rows.append({
            "id": _slug(f"{GPU_IDS.get(env.get('gpu'), 'gpu')}-{result['name']}-{basis}"),
            "family": family,
            "model": {"name": entry["name"], "hf_id": _hf_id(entry), "params_b": result["params"] / 1e9},
            "method": s["method"], "training_objective": "sft", "gpu": f"1x {env.get('gpu')}",
            "training_precision": s["training_precision"], "weights_precision": "bf16",
            "optimizer": "adamw", "optimizer_impl": s["optimizer_impl"], "gpus": 1, "sharding": "none",
            "offload": "none", "tp": 1, "pp": 1, "seq_len": s["seq_len"], "batch_size": s["batch_size"],
            "packed": False, "grad_checkpointing": s["grad_checkpointing"],
            "flash_attention": result.get("attn_implementation", "sdpa") != "eager",
            "lora_rank": s["lora_rank"], "lora_targets": targets, "lora_dropout": s["lora_dropout"],
            "loss_chunking": False, "liger_kernels": False, "framework": "hf",
            "measured": {"value": round(value, 3), "unit": "GiB", "basis": basis, "per_gpu": True,
                         **_card(env, basis)},
            "source": _source(env, run_date, result["name"]),
            "ambiguous": None,
            "notes": (f"random weights and tokens, {s['batch_size']}x{s['seq_len']} tokens a step; "
                      f"transformers model (sdpa attention, loss with fp32 logits), torch.optim.AdamW "
                      f"{s['optimizer_impl']}; peak of each phase of a steady step (allocated): {phases}; "
                      f"peak phase {_peak_phase(result)}; CUDA context {context_gib} GiB"),
        })  # fmt: skip
    return rows


def time_row(header: dict[str, Any], result: dict[str, Any], run_date: str) -> dict[str, Any] | None:
    """The training-throughput row of one measured set-up (tokens/s on one GPU), or None."""
    env, s = header["environment"], result["set_up"]
    gpu_id = GPU_IDS.get(env.get("gpu"))
    if gpu_id is None or not result.get("tokens_per_s"):
        return None
    entry = catalog_entry(s["model"])
    steps = ", ".join(f"{t:.3f}" for t in result.get("step_s") or [])
    return {
        "id": _slug(f"{gpu_id}-{result['name']}"), "family": _family(header),
        "model": {"name": entry["name"], "params_b": result["params"] / 1e9, "moe": False},
        "gpu": gpu_id, "gpus": 1, "method": s["method"], "nodes": 1, "precision": "bf16",
        "seq_len": s["seq_len"], "micro_batch_size": s["batch_size"], "global_batch_size": s["batch_size"],
        "batch_unit": "sequences", "gradient_checkpointing": s["grad_checkpointing"], "framework": "hf",
        # the attention kernel transformers ran (Gemma 2: eager), as the run recorded it
        "framework_detail": (f"plain PyTorch loop over a transformers model "
                             f"({result.get('attn_implementation') or 'sdpa'}), torch.optim.AdamW "
                             f"{s['optimizer_impl']}, {s['training_precision']}"
                             + (f", peft LoRA r{s['lora_rank']} {s['lora_targets']}" if s["method"] == "lora"
                                else "")),
        "parallelism": "single GPU",
        "published": [{"metric": "tokens_per_s_per_gpu", "value": round(result["tokens_per_s"], 1),
                       "unit": "tokens/s (batch x sequence / median step time)"}],
        "tokens_per_s_per_gpu": round(result["tokens_per_s"], 1), "tokens_per_s_per_gpu_basis": "published",
        "source": _source(env, run_date, result["name"]),
        "notes": f"timed steps (s, after {s['seq_len']}-token warm-up steps): {steps}",
    }  # fmt: skip


def convert(
    header: dict[str, Any], results: list[dict[str, Any]], run_date: str
) -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[str]]:
    """Validated memory rows, time rows, and one line per set-up that gave no row (read_lines' header and
    results of one run)."""
    memory: list[dict[str, Any]] = []
    timing: list[dict[str, Any]] = []
    skipped: list[str] = []
    for result in results:
        if result["status"] != "ok":
            skipped.append(f"{result['name']}: {result['status']} ({result.get('error')})")
            continue
        memory += memory_rows(header, result, run_date)
        row = time_row(header, result, run_date)
        if row is not None:
            timing.append(row)
    for m in memory:
        MemoryFreshRow.model_validate(m)
    for t in timing:
        TrainingRow.model_validate(t)
    return memory, timing, skipped


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("jsonl", type=Path)
    parser.add_argument("--date", required=True, help="the run's date, YYYY-MM-DD")
    parser.add_argument("--memory", type=Path, default=None, help="write the memory rows here")
    parser.add_argument("--time", type=Path, default=None, help="write the throughput rows here")
    args = parser.parse_args(argv)
    run_header, results = read_lines(args.jsonl)
    memory, timing, skipped = convert(run_header, results, args.date)
    header = f"# Measured by {SCRIPT} on {args.date}; written by bench/device_rows.py. Not fitted on.\n"
    if args.memory:
        args.memory.write_text(header + yaml.safe_dump({"rows": memory}, sort_keys=False, width=110))
    if args.time:  # its own held-out side of the time bench's split (bench/calibration_data.py)
        families = sorted({str(t["family"]) for t in timing})
        side = TIME_SIDES[str(run_header.get("set") or "first")]
        body = {"split": {side: families}, "rows": timing}
        args.time.write_text(header + yaml.safe_dump(body, sort_keys=False, width=110))
    print(f"{len(memory)} memory rows, {len(timing)} throughput rows; no row for {len(skipped)} set-ups")
    for line in skipped:
        print(f"  {line}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
