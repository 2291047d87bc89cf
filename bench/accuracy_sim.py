"""Calibration benchmark, simulator side: the analytic memory estimate against the simulator and the
published measurements, with the simple rules people use instead on the same rows.

    .venv/bin/python bench/accuracy_sim.py            # full grid (25 configurations, a few minutes)
    .venv/bin/python bench/accuracy_sim.py --quick    # 8 small configurations (about a minute)
    .venv/bin/python bench/accuracy_sim.py --json out.json

Estimators compared on every row:
- analytic: tools.memory.estimate_memory (H2).
- seed001:  seed 001's bytes-per-parameter rule (18 B/param full; 2 B/param + ~9 GB adapters LoRA),
            via tools.memory.seed_rule_gb.
- accelerate: Hugging Face `accelerate estimate-memory`, "Training using Adam (Peak vRAM)" for a
            16-bit model = max(model, gradients, optimizer, step) = 8 B/param (its
            estimate_training_usage: optimizer = 2 x fp32 size); applied to LoRA rows too, as users do.
- seed000:  seed 000's reference table (7B / 13B / 34B / 70B: full fine-tuning 120-160 / 200-300 /
            500-600 / 1000+ GB total; LoRA 12-24 / 24-48 / 40-80 / 80-160 GB per GPU), the midpoint
            of the nearest size class scaled linearly to the model's parameter count.

Two references:
(a) published measurements: tools.memory_calibration.CALIBRATION_ROWS (H2's rows, reused as they
    are; the analytic figure is put on each row's basis: reserved / device / allocated). The
    simulator also runs the rows it can (single GPU, full or LoRA, AdamW, no chunked loss).
(b) the simulator over a grid of model families, methods, sequence lengths and batch sizes. The
    goal metric compares tensor memory with tensor memory: the analytic peak minus its overhead line
    (= what torch.cuda.max_memory_allocated would show) against the simulator's allocator-rounded
    peak. Simple rules, which claim to be whole-GPU figures, are compared with the simulator's total
    (tensor peak + CUDA context + workspaces + fragmentation).

Errors are signed relative errors (estimate / reference - 1); summaries give the median and the
worst absolute error.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tools.catalog.schema import ModelArch  # noqa: E402
from tools.units import BYTES_PER_GIB, gb_to_gib  # noqa: E402

# ---- simple rules ------------------------------------------------------------------------------
ACCELERATE_ADAM_16BIT_BYTES_PER_PARAM = 8.0
"""accelerate estimate-memory, 16-bit row: max(model 4, grads 6, optimizer 8, step 8) B/param."""
SEED000_TABLE_GB: tuple[tuple[float, float, float], ...] = (
    # (params, full fine-tuning total GB midpoint, LoRA/QLoRA per-GPU GB midpoint) - seed 000's table
    (7e9, 140.0, 18.0),
    (13e9, 250.0, 36.0),
    (34e9, 550.0, 60.0),
    (70e9, 1000.0, 120.0),
)


def seed000_rule_gib(params: float, method: str) -> float:
    """Seed 000's table: nearest size class (in log space), midpoint, scaled linearly to `params`."""
    size, full_gb, lora_gb = min(SEED000_TABLE_GB, key=lambda row: abs(math.log(params / row[0])))
    gb = (full_gb if method in ("full", "pretraining") else lora_gb) * params / size
    return gb_to_gib(gb)


def accelerate_rule_gib(params: float) -> float:
    return params * ACCELERATE_ADAM_16BIT_BYTES_PER_PARAM / BYTES_PER_GIB


def seed001_rule_gib(params: float, method: str) -> float:
    from tools.memory import seed_rule_gb

    return gb_to_gib(seed_rule_gb(params=params, method=method))


# ---- grid --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class GridConfig:
    model: str
    method: str
    precision: str = "mixed"
    seq_len: int = 2048
    batch_size: int = 1
    ckpt: bool = True
    lora_rank: int = 16
    lora_targets: str = "all-linear"
    optimizer: str = "adamw"
    attention: str = "sdpa"
    quick: bool = False

    def label(self) -> str:
        lora = f" r{self.lora_rank} {self.lora_targets}" if self.method == "lora" else ""
        opt = "" if self.optimizer == "adamw" else f" {self.optimizer}"
        attn = "" if self.attention == "sdpa" else f" {self.attention}"
        ck = "ckpt" if self.ckpt else "no-ckpt"
        return (
            f"{self.model} {self.method}{lora} {self.precision}{opt}{attn} "
            f"s{self.seq_len} b{self.batch_size} {ck}"
        )


GRID: tuple[GridConfig, ...] = (
    GridConfig("qwen2.5-0.5b", "full", seq_len=1024, batch_size=4, quick=True),
    GridConfig("qwen2.5-0.5b", "full", "pure-bf16", seq_len=2048, batch_size=2, quick=True),
    GridConfig("qwen2.5-0.5b", "lora", seq_len=2048, batch_size=4, ckpt=False, quick=True),
    GridConfig("qwen2.5-0.5b", "full", seq_len=1024, batch_size=2, optimizer="sgd", quick=True),
    GridConfig("qwen2.5-1.5b", "full", seq_len=2048, ckpt=False),
    GridConfig("qwen2.5-1.5b", "lora", seq_len=4096, lora_targets="attention"),
    GridConfig("qwen2.5-1.5b", "full", "pure-bf16", seq_len=512, batch_size=8),
    GridConfig("llama-3.2-1b", "full", seq_len=2048, batch_size=2, quick=True),
    GridConfig("llama-3.2-1b", "lora", seq_len=2048, batch_size=2, ckpt=False, quick=True),
    GridConfig("llama-3.2-1b", "full", "pure-bf16", seq_len=4096, ckpt=False),
    GridConfig("llama-3.2-1b", "lora", seq_len=1024, ckpt=False, attention="eager", quick=True),
    GridConfig("llama-3.2-3b", "lora", "pure-bf16", seq_len=2048),
    GridConfig("llama-3.2-3b", "full", seq_len=1024),
    GridConfig("phi-3-mini", "lora", seq_len=2048, quick=True),
    GridConfig("phi-3-mini", "full", "pure-bf16", seq_len=1024, batch_size=2),
    GridConfig("gemma-2-9b", "lora", seq_len=1024),
    GridConfig("gemma-3-12b", "lora", "pure-bf16", seq_len=2048),
    GridConfig("mistral-7b-v0.3", "lora", seq_len=2048),
    GridConfig("mistral-7b-v0.3", "full", "pure-bf16", seq_len=2048),
    GridConfig("qwen2.5-7b", "lora", seq_len=1024, batch_size=2),
    GridConfig("llama-3.1-8b", "full", seq_len=2048),
    GridConfig("llama-3.1-8b", "lora", seq_len=2048),
    GridConfig("llama-3.1-8b", "lora", "pure-bf16", seq_len=8192),
    GridConfig("qwen3-30b-a3b", "lora", seq_len=1024, lora_targets="attention"),
    GridConfig("mixtral-8x7b", "full", "pure-bf16", seq_len=1024),
)


@dataclass
class Row:
    section: str
    label: str
    reference_gib: float
    reference_kind: str
    params: int
    estimates_gib: dict[str, float | None] = field(default_factory=dict)
    extra: dict[str, Any] = field(default_factory=dict)

    def error(self, name: str) -> float | None:
        v = self.estimates_gib.get(name)
        return None if v is None else v / self.reference_gib - 1.0


def _analytic(arch: ModelArch, cfg: GridConfig, flash: bool) -> Any:
    from tools.memory import estimate_memory

    return estimate_memory(
        arch=arch,
        method=cfg.method,
        training_precision=cfg.precision,
        optimizer=cfg.optimizer,
        lora_rank=cfg.lora_rank,
        lora_targets=cfg.lora_targets,
        seq_len=cfg.seq_len,
        batch_size=cfg.batch_size,
        grad_checkpointing=cfg.ckpt,
        flash_attention=flash,
    )


def run_grid(configs: tuple[GridConfig, ...]) -> list[Row]:
    from advisor.simulate import simulate_training_memory
    from tools.catalog.load import load_catalog

    catalog = load_catalog()
    rows: list[Row] = []
    for cfg in configs:
        arch = catalog.model(cfg.model)
        t0 = time.perf_counter()
        sim = simulate_training_memory(
            arch=arch,
            method=cfg.method,  # type: ignore[arg-type]
            training_precision=cfg.precision,  # type: ignore[arg-type]
            optimizer=cfg.optimizer,  # type: ignore[arg-type]
            lora_rank=cfg.lora_rank,
            lora_targets=cfg.lora_targets,
            seq_len=cfg.seq_len,
            batch_size=cfg.batch_size,
            grad_checkpointing=cfg.ckpt,
            attention=cfg.attention,  # type: ignore[arg-type]
        )
        wall = time.perf_counter() - t0
        est = _analytic(arch, cfg, flash=sim.attention == "sdpa")
        p = arch.param_count()
        bd = est.breakdown_gib
        row = Row(
            section="grid",
            label=cfg.label() + ("" if sim.attention == cfg.attention else f" ({sim.attention})"),
            reference_gib=sim.peak_allocated_gib,
            reference_kind="simulator allocated peak",
            params=p,
            estimates_gib={"analytic": est.peak_allocated_gib()},
            extra={
                "sim_total_gib": sim.total_gib,
                "analytic_total_gib": est.peak_gib_per_gpu,
                "seed001_gib": seed001_rule_gib(p, cfg.method),
                "accelerate_gib": accelerate_rule_gib(p),
                "seed000_gib": seed000_rule_gib(p, cfg.method),
                "sim_peak_phase": f"{sim.peak_phase}/{sim.peak_step}",
                "sim_breakdown_gib": sim.breakdown_at_peak_gib,
                "analytic_breakdown_gib": bd.model_dump(),
                "sim_trainable_params": sim.trainable_params,
                "analytic_trainable_params": est.trainable_params,
                "sim_wall_s": wall,
            },
        )
        rows.append(row)
        print(
            f"  simulated {row.label}: {sim.peak_allocated_gib:.2f} GiB in {wall:.1f} s "
            f"(analytic {est.peak_allocated_gib():.2f})",
            file=sys.stderr,
            flush=True,
        )
    return rows


# ---- published rows ----------------------------------------------------------------------------
def _sim_inputs(row: Any) -> dict[str, Any] | None:
    """Simulator inputs reproducing a published row, or None when it cannot run it."""
    inp = row.inputs
    if inp.get("method") not in ("full", "lora") or inp.get("gpus", 1) != 1:
        return None
    if (
        inp.get("loss_chunking")
        or inp.get("optimizer_in_backward")
        or inp.get("optimizer", "adamw") != "adamw"
    ):
        return None
    return {
        "method": inp["method"],
        "training_precision": inp.get("training_precision", "mixed"),
        "lora_rank": inp.get("lora_rank", 16),
        "lora_targets": inp.get("lora_targets", "all-linear"),
        "seq_len": inp.get("seq_len", 2048),
        "batch_size": inp.get("batch_size", 1),
        "grad_checkpointing": inp.get("grad_checkpointing", True),
        "attention": "sdpa" if inp.get("flash_attention", True) else "eager",
    }


def _sim_arch(arch: ModelArch) -> ModelArch | None:
    from advisor.simulate import model_type_for
    from tools.errors import InputError

    if arch.family == "qwen":  # Qwen (v1) remote code has Qwen2's shapes: qkv bias, SwiGLU, untied
        return arch.model_copy(update={"hf_architecture": "Qwen2ForCausalLM"})
    try:
        model_type_for(arch)
    except InputError:
        return None
    return arch


def run_published(with_sim: bool) -> list[Row]:
    from tools.memory_calibration import CALIBRATION_ROWS

    rows: list[Row] = []
    for cal in CALIBRATION_ROWS:
        est = cal.estimate()
        p = cal.arch.param_count()
        method = cal.inputs["method"]
        gpus = cal.inputs.get("gpus", 1)
        # the rules give the whole job; per GPU for multi-GPU rows means dividing by the GPU count
        estimates: dict[str, float | None] = {
            "analytic": cal.comparable_gib(est),
            "seed001": seed001_rule_gib(p, method) / gpus,
            "accelerate": None if method == "qlora" else accelerate_rule_gib(p) / gpus,
            "seed000": seed000_rule_gib(p, method) / (gpus if method == "full" else 1),
        }
        extra: dict[str, Any] = {"basis": cal.basis, "source": cal.source}
        sim_inputs = _sim_inputs(cal) if with_sim else None
        sim_arch = _sim_arch(cal.arch) if sim_inputs else None
        if sim_inputs and sim_arch is not None:
            from advisor.simulate import simulate_training_memory

            sim = simulate_training_memory(arch=sim_arch, **sim_inputs)
            # on the row's basis: device = total; reserved = allocated + fragmentation; allocated
            frag = next(x.memory_gib for x in sim.cuda_lines if x.name.startswith("allocator fragmentation"))
            on_basis = {
                "device": sim.total_gib,
                "reserved": sim.peak_allocated_gib + frag,
                "allocated": sim.peak_allocated_gib,
            }[cal.basis]
            estimates["simulator"] = on_basis
            print(f"  simulated published row {cal.id}: {on_basis:.2f} GiB", file=sys.stderr, flush=True)
        rows.append(
            Row(
                section="published",
                label=cal.id,
                reference_gib=cal.measured_gib,
                reference_kind=f"measured ({cal.basis})",
                params=p,
                estimates_gib=estimates,
                extra=extra,
            )
        )
    return rows


# ---- printing ----------------------------------------------------------------------------------
def _pct(x: float | None) -> str:
    return "    n/a" if x is None else f"{x * 100:+6.1f}%"


def summarize(rows: list[Row], names: list[str]) -> dict[str, dict[str, float | int]]:
    out: dict[str, dict[str, float | int]] = {}
    for name in names:
        errs = [abs(e) for r in rows if (e := r.error(name)) is not None]
        if errs:
            out[name] = {"n": len(errs), "median_abs": statistics.median(errs), "worst_abs": max(errs)}
    return out


def print_table(title: str, rows: list[Row], names: list[str]) -> dict[str, dict[str, float | int]]:
    print(f"\n## {title}\n")
    header = f"| {'configuration':58s} | ref GiB | " + " | ".join(f"{n:>10s}" for n in names) + " |"
    print(header)
    print("|" + "-" * 60 + "|---------|" + "|".join("-" * 12 for _ in names) + "|")
    for r in rows:
        cells = " | ".join(f"{_pct(r.error(n)):>10s}" for n in names)
        print(f"| {r.label[:58]:58s} | {r.reference_gib:7.2f} | {cells} |")
    summary = summarize(rows, names)
    print()
    for name, s in summary.items():
        print(
            f"- {name}: median |error| {s['median_abs'] * 100:.1f}%, worst {s['worst_abs'] * 100:.1f}% "
            f"over {s['n']} rows"
        )
    return summary


def grid_rule_rows(grid: list[Row]) -> list[Row]:
    """The grid again, on the whole-GPU basis: every estimator against the simulator's total."""
    out = []
    for r in grid:
        out.append(
            Row(
                section="grid-total",
                label=r.label,
                reference_gib=r.extra["sim_total_gib"],
                reference_kind="simulator total (tensor peak + CUDA lines)",
                params=r.params,
                estimates_gib={
                    "analytic": r.extra["analytic_total_gib"],
                    "seed001": r.extra["seed001_gib"],
                    "accelerate": r.extra["accelerate_gib"],
                    "seed000": r.extra["seed000_gib"],
                },
            )
        )
    return out


def print_components(grid: list[Row]) -> None:
    """Simulated vs analytic GiB by component, the simulated ones read at the simulated peak."""
    print("\n## Components at the simulated peak: simulated / analytic, GiB\n")
    print("| configuration | peak at | weights (+casts) | gradients | optimizer+adapters | activations |")
    print("|---|---|---|---|---|---|")
    for r in grid:
        sb, ab = r.extra["sim_breakdown_gib"], r.extra["analytic_breakdown_gib"]
        cells = (
            (sb["weights"] + sb["weight_casts"], ab["weights"]),
            (sb["gradients"], ab["gradients"]),
            (sb["optimizer"] + sb["adapters"], ab["optimizer"] + ab["adapters"]),
            (sb["activations"], ab["activations"]),
        )
        text = " | ".join(f"{a:.2f} / {b:.2f}" for a, b in cells)
        print(f"| {r.label} | {r.extra['sim_peak_phase']} | {text} |")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="only the small configurations")
    ap.add_argument("--no-published-sim", action="store_true", help="do not simulate the published rows")
    ap.add_argument("--json", type=Path, help="also write every row and summary as JSON")
    args = ap.parse_args(argv)

    started = time.perf_counter()
    configs = tuple(c for c in GRID if c.quick) if args.quick else GRID
    grid = run_grid(configs)
    published = run_published(with_sim=not args.no_published_sim and not args.quick)

    summaries = {
        "published": print_table(
            "(a) Published measurements: error of each estimator vs the measured peak",
            published,
            ["analytic", "simulator", "seed001", "accelerate", "seed000"],
        ),
        "grid_allocated": print_table(
            "(b) Simulator grid, tensor memory: analytic (peak minus overhead) vs simulated allocated peak",
            grid,
            ["analytic"],
        ),
        "grid_total": print_table(
            "(c) Simulator grid, whole GPU: every estimator vs simulated total (with CUDA lines)",
            grid_rule_rows(grid),
            ["analytic", "seed001", "accelerate", "seed000"],
        ),
    }
    print_components(grid)
    goal = summaries["grid_allocated"].get("analytic", {}).get("median_abs", float("nan"))
    print(
        f"\nGoal: analytic within 10% median of the simulator: {goal * 100:.1f}% -> "
        f"{'met' if goal <= 0.10 else 'NOT met'}"
    )
    print(f"benchmark wall time {time.perf_counter() - started:.0f} s")
    if args.json:
        args.json.write_text(
            json.dumps(
                {"rows": [asdict(r) for r in grid + published], "summaries": summaries}, indent=1, default=str
            )
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
