"""Calibration benchmark, simulator side: the analytic memory estimate against the simulator and the
published measurements, with the simple rules people use instead on the same rows.

    .venv/bin/python bench/accuracy_sim.py                  # full grid (29 configurations, a few minutes)
    .venv/bin/python bench/accuracy_sim.py --quick          # 6 small configurations (under a minute)
    .venv/bin/python bench/accuracy_sim.py --published-sim  # also simulate the published rows (slower)
    .venv/bin/python bench/accuracy_sim.py --json out.json

Estimators compared on every row: the analytic model (tools.memory.estimate_memory) and the simple
rules people use instead, exactly as H2 defines them for bench/accuracy.py
(tools.memory_calibration.SIMPLE_RULES: seed 001's 18 B/param, seed 000's table, seed 002's GB per
billion, seed 004's table, accelerate estimate-memory's 4 x weights), applied to the same rows.

Two references:
(a) published measurements: tools.memory_calibration.CALIBRATION_ROWS (H2's rows, reused as they
    are; the analytic figure is put on each row's basis: reserved / device / allocated). The
    simulator also runs the rows it can (single GPU, full or LoRA, AdamW, no chunked loss).
(b) the simulator over a grid (issue 15): 1B-70B widths, foreach / fused / for-loop AdamW, 512-32k
    tokens, full / LoRA (with and without dropout) / QLoRA-shaped, with and without checkpointing,
    most rows depth-truncated to SIM_LAYERS layers on both sides (see SIM_LAYERS). The goal metric
    compares tensor memory with tensor memory: the estimate on the allocated basis (= what
    torch.cuda.max_memory_allocated would show) against the simulator's allocator-rounded peak, and
    the estimate's peak phase against the simulator's (PHASE_MAP). Simple rules, which claim to be
    whole-GPU figures, are compared with the simulator's total
    (tensor peak + CUDA context + workspaces + fragmentation).

Errors are signed relative errors (estimate / reference - 1); summaries give the median and the
worst absolute error.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from tools.catalog.schema import ModelArch
from tools.units import gb_to_gib


# ---- simple rules (H2's definitions, reused) ----------------------------------------------------
def _short(rule_name: str) -> str:
    """'seed 001 (18 B/param)' -> 'seed001', 'accelerate 4x' -> 'accelerate'."""
    return rule_name.split(" (")[0].split(" table")[0].split(" GB/B")[0].split(" 4x")[0].replace(" ", "")


def rules_gib(arch: ModelArch, inputs: dict[str, Any]) -> dict[str, float]:
    """Every simple rule on one configuration, GiB per GPU (H2's rules take a CalibrationRow)."""
    from tools.memory_calibration import SIMPLE_RULES, CalibrationRow

    row = CalibrationRow(
        id="grid", config="grid", arch=arch, inputs=inputs, measured=1.0, unit="GiB", basis="allocated",
        tolerance=1.0, source="simulator grid",
    )  # fmt: skip
    return {_short(name): gb_to_gib(rule(row)) for name, rule in SIMPLE_RULES.items()}


def rule_names() -> list[str]:
    from tools.memory_calibration import SIMPLE_RULES

    return [_short(name) for name in SIMPLE_RULES]


# ---- grid --------------------------------------------------------------------------------------
SIM_LAYERS = 4
"""Decoder layers simulated per grid row unless `full_depth`. The simulator runs transformers' modelling
code op by op on fake tensors, so its time grows with the layer count, not the width (~2,600 ops per
layer per step): a 70B model at its full 80 layers takes minutes on a shared 2-core machine. Every
memory term is per layer (weights, gradients, states, kept activations) or per model (embeddings, head,
logits), so a depth-truncated model of the real width exercises every term; both sides (simulator
and estimate) get the same truncated architecture, so the comparison is like for like. A few rows run
at full depth (`full_depth=True`) to show the truncation hides nothing."""

PHASE_MAP: dict[str, str] = {
    "forward": "forward",
    "loss": "backward",
    "backward": "backward",
    "optimizer": "optimizer",
}
"""Estimate phase -> simulator phase. The simulator marks phases at forward start, `loss.backward()`
and `opt.step()`: the estimate's `forward` (end of the forward, logits + fp32 upcast) is in the
simulator's forward; its `loss` (the loss backward: fp32 log-softmax gradients) and `backward` (the
layers' backward, gradients accumulating) both lie inside `loss.backward()`; `optimizer` is the step."""


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
    impl: str = "fused"
    lora_dropout: float = 0.0
    full_depth: bool = False
    shape: str = ""
    quick: bool = False

    def label(self) -> str:
        kind = self.shape or self.method
        lora = f" r{self.lora_rank}" if self.method == "lora" else ""
        lora += "" if self.lora_targets == "all-linear" or self.method != "lora" else f" {self.lora_targets}"
        lora += f" do{self.lora_dropout:g}" if self.lora_dropout else ""
        opt = "" if self.optimizer == "adamw" else f" {self.optimizer}"
        attn = "" if self.attention == "sdpa" else f" {self.attention}"
        ck = "ckpt" if self.ckpt else "no-ckpt"
        depth = "" if self.full_depth else f"[{SIM_LAYERS}L]"
        return (
            f"{self.model}{depth} {kind}{lora} {self.precision}{opt} {self.impl}{attn} "
            f"s{self.seq_len} b{self.batch_size} {ck}"
        )


_QS = {"method": "lora", "lora_rank": 64, "shape": "qlora-shaped"}
"""QLoRA-shaped: r64 on every linear, batch 1, long context, checkpointing (the Qwen README and unsloth
QLoRA tables' setting). The simulator cannot run NF4 kernels, so the base is bf16 (method lora) on
both sides; the adapters, activations and logits, which set QLoRA's growth with context, are the same."""

GRID: tuple[GridConfig, ...] = (
    # full training: foreach vs fused vs for-loop, mixed (AMP) and pure bf16, checkpointing on/off
    GridConfig("llama-3.2-1b", "full", impl="foreach", full_depth=True),
    GridConfig("llama-3.2-1b", "full", impl="fused", quick=True),
    GridConfig("llama-3.2-1b", "full", seq_len=4096, ckpt=False, quick=True),
    GridConfig("qwen2.5-0.5b", "full", seq_len=2048, batch_size=4, ckpt=False, full_depth=True),
    GridConfig("llama-3.2-3b", "full", "pure-bf16", seq_len=1024, batch_size=4, impl="foreach", quick=True),
    GridConfig("llama-3.2-3b", "full", "pure-bf16", seq_len=512, batch_size=8, ckpt=False),
    GridConfig("llama-3.1-8b", "full", impl="foreach"),
    GridConfig("llama-3.1-8b", "full", impl="fused"),
    GridConfig("llama-3.1-8b", "full", impl="for-loop"),
    GridConfig("llama-3.1-8b", "full", seq_len=8192, ckpt=False),
    GridConfig("qwen2.5-7b", "full", "pure-bf16", seq_len=4096, impl="foreach"),
    GridConfig("qwen2.5-14b", "full", "pure-bf16", seq_len=2048),
    GridConfig("llama-3.1-70b", "full", "pure-bf16", seq_len=1024, impl="foreach"),
    GridConfig("llama-3.1-70b", "full", seq_len=4096),
    GridConfig("llama-3.2-1b", "full", seq_len=1024, batch_size=2, optimizer="sgd", impl="foreach"),
    # LoRA: with and without dropout and checkpointing
    GridConfig("llama-3.2-1b", "lora", seq_len=2048, batch_size=2, ckpt=False, full_depth=True),
    GridConfig("llama-3.2-1b", "lora", seq_len=2048, ckpt=False, lora_dropout=0.05, quick=True),
    GridConfig("llama-3.2-1b", "lora", seq_len=1024, ckpt=False, attention="eager", quick=True),
    GridConfig("llama-3.1-8b", "lora", impl="foreach"),
    GridConfig("llama-3.1-8b", "lora", seq_len=512, batch_size=4, ckpt=False, lora_dropout=0.1),
    GridConfig("llama-3.1-8b", "lora", "pure-bf16", seq_len=8192),
    GridConfig(
        "qwen2.5-7b", "lora", seq_len=4096, lora_targets="attention", lora_dropout=0.05, impl="foreach"
    ),
    GridConfig("mistral-7b-v0.3", "lora", seq_len=2048, ckpt=False),
    GridConfig("qwen2.5-32b", "lora", seq_len=2048, quick=True),
    GridConfig("llama-3.1-70b", "lora", seq_len=4096),
    # QLoRA-shaped (_QS): long context
    GridConfig("llama-3.1-8b", seq_len=16384, **_QS),  # type: ignore[arg-type]
    GridConfig("qwen2.5-7b", seq_len=32768, **_QS),  # type: ignore[arg-type]
    GridConfig("llama-3.1-70b", seq_len=8192, **_QS),  # type: ignore[arg-type]
    GridConfig("qwen2.5-72b", seq_len=32768, **_QS),  # type: ignore[arg-type]
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
        optimizer_impl=cfg.impl,
        lora_rank=cfg.lora_rank,
        lora_targets=cfg.lora_targets,
        lora_dropout=cfg.lora_dropout if cfg.method == "lora" else None,
        seq_len=cfg.seq_len,
        batch_size=cfg.batch_size,
        grad_checkpointing=cfg.ckpt,
        flash_attention=flash,
        framework="hf",
        loss_chunking=False,
        memory_basis="allocated",
    )


def grid_arch(arch: ModelArch, cfg: GridConfig, full_depth: bool = False) -> ModelArch:
    """The architecture both sides run: the model itself, or its first SIM_LAYERS decoder layers."""
    if full_depth or cfg.full_depth or arch.n_layers <= SIM_LAYERS:
        return arch
    return arch.model_copy(update={"n_layers": SIM_LAYERS})


def run_grid(configs: tuple[GridConfig, ...], full_depth: bool = False) -> list[Row]:
    from advisor.simulate import simulate_training_memory
    from tools.catalog.load import load_catalog

    catalog = load_catalog()
    rows: list[Row] = []
    for cfg in configs:
        arch = grid_arch(catalog.model(cfg.model), cfg, full_depth)
        t0 = time.perf_counter()
        sim = simulate_training_memory(
            arch=arch,
            method=cfg.method,  # type: ignore[arg-type]
            training_precision=cfg.precision,  # type: ignore[arg-type]
            optimizer=cfg.optimizer,  # type: ignore[arg-type]
            optimizer_impl=cfg.impl,  # type: ignore[arg-type]
            lora_rank=cfg.lora_rank,
            lora_targets=cfg.lora_targets,
            lora_dropout=cfg.lora_dropout,
            seq_len=cfg.seq_len,
            batch_size=cfg.batch_size,
            grad_checkpointing=cfg.ckpt,
            attention=cfg.attention,  # type: ignore[arg-type]
        )
        wall = time.perf_counter() - t0
        est = _analytic(arch, cfg, flash=sim.attention == "sdpa")
        p = arch.param_count()
        bd = est.breakdown_gib
        label = (
            cfg.label()
            if arch.n_layers == SIM_LAYERS or cfg.full_depth
            else cfg.label().replace(f"[{SIM_LAYERS}L]", f"[{arch.n_layers}L]")
        )
        row = Row(
            section="grid",
            label=label + ("" if sim.attention == cfg.attention else f" ({sim.attention})"),
            reference_gib=sim.peak_allocated_gib,
            reference_kind="simulator allocated peak",
            params=p,
            estimates_gib={"analytic": est.peak_allocated_gib()},
            extra={
                "sim_total_gib": sim.total_gib,
                "analytic_total_gib": est.peak_reserved_gib(),
                "rules_gib": rules_gib(arch, {"method": cfg.method}),
                "sim_peak_phase": f"{sim.peak_phase}/{sim.peak_step}",
                "analytic_peak_phase": est.peak_phase,
                "phase_match": PHASE_MAP.get(est.peak_phase) == sim.peak_phase,
                "sim_phase_peaks_gib": sim.phase_peaks_gib,
                "analytic_phase_peaks_gib": est.phase_peaks_gib,
                "sim_breakdown_gib": sim.breakdown_at_peak_gib,
                "analytic_breakdown_gib": bd.model_dump(),
                "sim_trainable_params": sim.trainable_params,
                "analytic_trainable_params": est.trainable_params,
                "sim_wall_s": wall,
            },
        )
        rows.append(row)
        print(
            f"  simulated {row.label}: {sim.peak_allocated_gib:.2f} GiB at {sim.peak_phase} in {wall:.1f} s "
            f"(analytic {est.peak_allocated_gib():.2f} at {est.peak_phase}, {row.error('analytic'):+.1%})",
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
        estimates: dict[str, float | None] = {"analytic": cal.comparable_gib(est)}
        estimates.update(rules_gib(cal.arch, cal.inputs))
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
                estimates_gib={"analytic": r.extra["analytic_total_gib"], **r.extra["rules_gib"]},
            )
        )
    return out


def print_components(grid: list[Row]) -> None:
    """Simulated vs analytic GiB by component, the simulated ones read at the simulated peak."""
    print("\n## Components at the simulated peak: simulated / analytic, GiB\n")
    print(
        "| configuration | sim peak at | estimate peak at | weights (+casts) | gradients "
        "| optimizer+adapters | activations |"
    )
    print("|---|---|---|---|---|---|---|")
    for r in grid:
        sb, ab = r.extra["sim_breakdown_gib"], r.extra["analytic_breakdown_gib"]
        cells = (
            (sb["weights"] + sb["weight_casts"], ab["weights"]),
            (sb["gradients"], ab["gradients"]),
            (sb["optimizer"] + sb["adapters"], ab["optimizer"] + ab["adapters"]),
            (sb["activations"], ab["activations"]),
        )
        text = " | ".join(f"{a:.2f} / {b:.2f}" for a, b in cells)
        phase = r.extra["analytic_peak_phase"] + ("" if r.extra["phase_match"] else " (MISMATCH)")
        print(f"| {r.label} | {r.extra['sim_peak_phase']} | {phase} | {text} |")


GOAL_MEDIAN_ABS = 0.03
GOAL_WORST_ABS = 0.08
"""Issue 15's bar against the simulator: median |error| <= 3%, worst <= 8%, every peak phase right."""


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="only the small configurations")
    ap.add_argument("--published-sim", action="store_true", help="also simulate the published rows (slow)")
    ap.add_argument("--full-depth", action="store_true", help="simulate every layer (slow: ~30 min)")
    ap.add_argument("--json", type=Path, help="also write every row and summary as JSON")
    args = ap.parse_args(argv)

    started = time.perf_counter()
    configs = tuple(c for c in GRID if c.quick) if args.quick else GRID
    grid = run_grid(configs, full_depth=args.full_depth)
    published = run_published(with_sim=args.published_sim and not args.quick)

    summaries = {
        "published": print_table(
            "(a) Published measurements: error of each estimator vs the measured peak",
            published,
            ["analytic", "simulator", *rule_names()],
        ),
        "grid_allocated": print_table(
            "(b) Simulator grid, tensor memory: analytic (allocated basis) vs simulated allocated peak",
            grid,
            ["analytic"],
        ),
        "grid_total": print_table(
            "(c) Simulator grid, whole GPU: every estimator vs simulated total (with CUDA lines)",
            grid_rule_rows(grid),
            ["analytic", *rule_names()],
        ),
    }
    print_components(grid)
    s = summaries["grid_allocated"].get("analytic", {})
    median, worst = s.get("median_abs", float("nan")), s.get("worst_abs", float("nan"))
    matched = sum(1 for r in grid if r.extra["phase_match"])
    met = median <= GOAL_MEDIAN_ABS and worst <= GOAL_WORST_ABS and matched == len(grid)
    print(
        f"\nGoal (issue 15): median <= {GOAL_MEDIAN_ABS:.0%}, worst <= {GOAL_WORST_ABS:.0%}, "
        f"every peak phase right: median {median * 100:.1f}%, worst {worst * 100:.1f}%, "
        f"phases {matched}/{len(grid)} -> "
        f"{'met' if met else 'NOT met'}"
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
