"""Measure peak GPU memory and training throughput of real training steps on a lent GPU.

Runs on the device machine (its own python3 with torch, transformers and peft; none of this
project's packages are imported, so it needs no install there). Each set-up builds a model of a
catalog architecture (tools/catalog/models.yaml, read with PyYAML) with random weights on the GPU,
runs a few optimizer steps on random tokens and records:

- peak memory three ways: torch.cuda.max_memory_allocated (allocated basis), max_memory_reserved
  (the caching allocator's reserve) and the CUDA context measured once (device basis = reserved +
  context, what nvidia-smi shows);
- the peak of each phase of one steady-state step (forward+loss, backward, optimizer step), by
  resetting the peak counter at each phase boundary (the peak phase the calculator should name);
- step time (median of the timed steps, host clock after a device synchronise) and tokens/s.

Random weights and tokens change neither the tensors' sizes nor the kernels' work, so memory and
time are those of a real run of the same set-up (data-dependent kernels: none in a dense step).
One JSON line per set-up goes to $OUT/device_training.jsonl as soon as it is measured, so a run
stopped by its time limit still returns what it finished. bench/device_rows.py turns the lines
into the bench/data measurement files.

    python3 bench/device_training_measure.py --out $OUT --budget-s 380     # on the device machine
    .venv/bin/python -m bench.device_training_measure --dry-run            # here: tiny shapes on CPU
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import statistics
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import yaml

CATALOG_PATH = Path(__file__).resolve().parents[1] / "tools" / "catalog" / "models.yaml"
GIB = 2**30

# Steps: two warm-up steps (the optimizer allocates its states in the first), one instrumented
# step (phase peaks, a synchronise at each boundary), then timed steps.
WARMUP_STEPS = 2
TIMED_STEPS = 4


@dataclass(frozen=True)
class SetUp:
    """One training set-up to measure (what the calculator's inputs would say)."""

    model: str  # catalog id
    method: str  # full | lora
    training_precision: str  # pure-bf16 (bf16 weights) | mixed (fp32 weights, bf16 autocast)
    optimizer_impl: str  # foreach | fused (torch.optim.AdamW)
    grad_checkpointing: bool
    seq_len: int
    batch_size: int
    lora_rank: int | None = None
    lora_targets: str | None = None  # all-linear | q_proj,v_proj
    lora_dropout: float | None = None

    @property
    def name(self) -> str:
        parts = [
            self.model,
            self.method,
            self.training_precision,
            self.optimizer_impl,
            "ckpt" if self.grad_checkpointing else "nockpt",
            f"s{self.seq_len}",
            f"b{self.batch_size}",
        ]
        if self.method == "lora":
            parts += [f"r{self.lora_rank}", str(self.lora_targets).replace(",", "+"), f"d{self.lora_dropout}"]
        return "-".join(parts)


def _full(model: str, precision: str, impl: str, ckpt: bool, seq: int, batch: int) -> SetUp:
    return SetUp(model, "full", precision, impl, ckpt, seq, batch)


def _lora(
    model: str,
    ckpt: bool,
    seq: int,
    batch: int,
    rank: int = 16,
    targets: str = "all-linear",
    dropout: float = 0.0,
    impl: str = "fused",
) -> SetUp:
    return SetUp(model, "lora", "pure-bf16", impl, ckpt, seq, batch, rank, targets, dropout)


# In priority order: the run stops starting set-ups when its time budget is spent.
# Chosen before any measurement, to span 0.5B-14B, full/LoRA, foreach/fused, pure bf16/mixed,
# with and without checkpointing, 1k-16k tokens, LoRA dropout 0 and 0.05.
SET_UPS: tuple[SetUp, ...] = (
    _full("llama-3.2-1b", "pure-bf16", "foreach", False, 2048, 4),
    _full("llama-3.2-1b", "pure-bf16", "fused", False, 2048, 4),
    _full("llama-3.2-1b", "mixed", "fused", True, 4096, 4),
    _full("llama-3.2-3b", "mixed", "foreach", True, 2048, 4),
    _full("llama-3.2-3b", "pure-bf16", "fused", False, 2048, 2),
    _lora("llama-3.1-8b", False, 2048, 2, dropout=0.0),
    _lora("llama-3.1-8b", False, 2048, 2, dropout=0.05),
    _full("llama-3.1-8b", "pure-bf16", "fused", True, 2048, 2),
    _full("llama-3.1-8b", "pure-bf16", "foreach", True, 4096, 1),
    _lora("llama-3.1-8b", True, 8192, 1, dropout=0.05),
    _lora("llama-3.1-8b", True, 16384, 1, rank=8, targets="q_proj,v_proj"),
    _lora("qwen2.5-7b", True, 4096, 4, dropout=0.05),
    _full("qwen2.5-0.5b", "mixed", "foreach", False, 2048, 8),
    _full("qwen2.5-1.5b", "mixed", "fused", False, 1024, 8),
    _lora("qwen2.5-14b", True, 2048, 2),
    _lora("llama-3.2-3b", False, 4096, 4, dropout=0.05),
    _full("mistral-7b-v0.3", "pure-bf16", "foreach", False, 1024, 1),
    _full("llama-3.1-8b", "mixed", "fused", True, 1024, 1),
)

# The second set, chosen on 2026-11-28 before any of it was measured (a held-out set for the memory and
# time models, which were fitted without it): other architectures (Qwen3, Phi-3 with 32 KV heads, Gemma 2
# with a 256k vocabulary and logit soft-capping, Mistral NeMo), LoRA rank 8-64, dropout 0-0.1, foreach
# LoRA, 1k-32k tokens, bigger batches; on whichever GPU the run gets (an H100 where one is lent first).
SET_UPS_SECOND: tuple[SetUp, ...] = (
    _lora("qwen3-8b", True, 4096, 2),
    _full("phi-3-mini", "pure-bf16", "fused", True, 2048, 4),
    _lora("mistral-nemo-12b", True, 4096, 1, targets="q_proj,k_proj,v_proj,o_proj", dropout=0.05),
    _lora("llama-3.1-8b", False, 1024, 8, rank=64, dropout=0.1),
    _full("qwen2.5-3b", "mixed", "foreach", False, 1024, 2),
    _full("llama-3.2-1b", "mixed", "foreach", True, 8192, 2),
    _lora("qwen2.5-1.5b", False, 2048, 8),
    _full("llama-3.2-3b", "pure-bf16", "foreach", True, 4096, 8),
    _full("qwen2.5-0.5b", "pure-bf16", "fused", False, 4096, 4),
    _lora("qwen2.5-14b", True, 8192, 1, rank=32),
    _lora("phi-3-mini", False, 4096, 2, rank=8, dropout=0.05),
    _lora("llama-3.1-8b", True, 32768, 1),
    _lora("mistral-7b-v0.3", True, 8192, 2, dropout=0.05, impl="foreach"),
    _lora("gemma-2-9b", True, 2048, 2),
    _full("qwen3-8b", "pure-bf16", "fused", True, 2048, 1),
)
# The third set, chosen on 2026-11-28 right after the second was scored once and BEFORE any change made for
# it: the final held-out set of that session (kept blind while the models are changed), sized for an H100's
# 80 GB; Phi-3 medium, fused and foreach, mixed and pure bf16, LoRA at 16k tokens, dropout 0.1.
SET_UPS_THIRD: tuple[SetUp, ...] = (
    _full("qwen2.5-7b", "pure-bf16", "fused", True, 2048, 2),
    _lora("llama-3.1-8b", False, 2048, 4, rank=8, targets="q_proj,v_proj"),
    _lora("phi-3-medium", True, 2048, 2),
    _lora("qwen3-8b", False, 1024, 4, rank=32, dropout=0.05),
    _lora("llama-3.2-3b", True, 16384, 1),
    _full("qwen2.5-1.5b", "mixed", "fused", True, 4096, 4),
    _full("mistral-7b-v0.3", "pure-bf16", "fused", True, 4096, 1),
    _lora("llama-3.2-1b", False, 4096, 8, dropout=0.1),
    _full("qwen2.5-0.5b", "mixed", "foreach", True, 8192, 4),
    _lora("mistral-nemo-12b", False, 1024, 2),
    _lora("qwen3-8b", True, 16384, 1, impl="foreach"),
    _full("qwen2.5-3b", "pure-bf16", "foreach", False, 2048, 2),
    _lora("gemma-2-9b", True, 4096, 1, dropout=0.05),
    _full("phi-3-mini", "mixed", "fused", True, 1024, 2),
)
# The fourth set, chosen on 2026-11-28 (eleventh session) before any of it was measured, for a lent H200's
# 139 GiB: what the H100 sets could not hold (14B full fine-tunes, 24B-34B LoRA, an 8B mixed-precision full
# run near the card's limit), multi-head attention (Llama 2 13B, CodeLlama 34B), Gemma 2 27B, Phi-4, and the
# logits-heavy small-model batches that ran out of memory on an H100. A held-out set for both models.
SET_UPS_FOURTH: tuple[SetUp, ...] = (
    _lora("qwen2.5-32b", True, 2048, 1),
    _full("qwen2.5-14b", "pure-bf16", "fused", True, 2048, 1),
    _lora("gemma-2-27b", True, 2048, 1, dropout=0.05),
    _full("mistral-nemo-12b", "pure-bf16", "foreach", True, 1024, 1),
    _lora("llama-2-13b", False, 2048, 2),
    _full("llama-3.2-3b", "mixed", "foreach", False, 2048, 4),
    _lora("llama-3.2-1b", False, 4096, 8, dropout=0.1),
    _full("qwen2.5-0.5b", "mixed", "fused", False, 2048, 16),
    _lora("phi-4", True, 4096, 2),
    _lora("mistral-small-24b", True, 4096, 1, rank=32),
    _full("llama-3.1-8b", "mixed", "fused", True, 2048, 1),
    _lora("qwen3-32b", True, 4096, 1, targets="q_proj,k_proj,v_proj,o_proj"),
    _full("phi-3.5-mini", "pure-bf16", "foreach", False, 2048, 2),
    _lora("qwen2.5-14b", True, 16384, 1),
    _lora("codellama-34b", True, 4096, 1, rank=8, targets="q_proj,v_proj"),
    _full("qwen3-8b", "pure-bf16", "foreach", False, 1024, 2),
    _lora("gemma-2-9b", False, 2048, 2),
)
# The fifth set, chosen on 2026-11-28 (eleventh session) right after the fourth was scored once and before any
# change of that session: measured at once and kept unscored until the session's models are final (its first
# score is the session's end check). Llama 3.1 70B LoRA at the card's edge, Phi-4 and Gemma 2 9B full,
# Qwen2.5 7B mixed, 32B LoRA without checkpointing and at 8k x 2, 8B LoRA at 16k x 4, MHA Llama 2 7B.
SET_UPS_FIFTH: tuple[SetUp, ...] = (
    _lora("llama-3.1-70b", True, 1024, 1, rank=8, targets="q_proj,v_proj"),
    _full("phi-4", "pure-bf16", "fused", True, 2048, 1),
    _lora("gemma-2-27b", False, 1024, 1),
    _full("qwen2.5-7b", "mixed", "fused", True, 2048, 2),
    _lora("mistral-nemo-12b", False, 4096, 2, dropout=0.05),
    _lora("qwen3-32b", False, 2048, 1),
    _full("llama-3.2-3b", "pure-bf16", "fused", False, 8192, 2),
    _lora("phi-3-medium", False, 4096, 2, rank=64),
    _full("gemma-2-9b", "pure-bf16", "foreach", True, 2048, 1),
    _lora("llama-3.1-8b", True, 16384, 4),
    _full("qwen2.5-1.5b", "pure-bf16", "foreach", False, 4096, 8),
    _lora("qwen2.5-32b", True, 8192, 2, rank=64, dropout=0.05),
    _lora("llama-2-7b", False, 4096, 4),
    _full("mistral-7b-v0.3", "mixed", "fused", False, 2048, 2),
    _lora("mistral-small-24b", False, 2048, 2, targets="q_proj,k_proj,v_proj,o_proj"),
    _full("qwen3-8b", "mixed", "fused", True, 4096, 2),
)
SETS = {
    "first": SET_UPS,
    "second": SET_UPS_SECOND,
    "third": SET_UPS_THIRD,
    "fourth": SET_UPS_FOURTH,
    "fifth": SET_UPS_FIFTH,
}

DRY_RUN_SHAPE = {
    "n_layers": 2,
    "hidden_size": 64,
    "n_heads": 4,
    "n_kv_heads": 2,
    "head_dim": 16,
    "intermediate_size": 128,
    "vocab_size": 512,
}
DRY_RUN_MAX_SEQ_LEN = 256  # the dry run checks the code path; an 8k-token CPU step took minutes
DRY_RUN_MAX_BATCH_SIZE = 2


@dataclass
class Result:
    set_up: dict[str, Any]
    name: str
    status: str  # ok | oom | error
    error: str | None = None
    params: int | None = None
    trainable_params: int | None = None
    peak_allocated_gib: float | None = None
    peak_reserved_gib: float | None = None
    context_gib: float | None = None
    phase_peak_allocated_gib: dict[str, float] = field(default_factory=dict)
    step_s: list[float] = field(default_factory=list)
    median_step_s: float | None = None
    tokens_per_s: float | None = None
    build_s: float | None = None
    attn_implementation: str | None = None  # what transformers ran (Gemma 2 may not take sdpa)


def catalog_entry(model_id: str) -> dict[str, Any]:
    """The catalog record of a model id (tools/catalog/models.yaml)."""
    data = yaml.safe_load(CATALOG_PATH.read_text())
    for record in data["models"]:
        if record["id"] == model_id:
            return dict(record)
    raise KeyError(model_id)


def hf_config(entry: dict[str, Any], dry_run: bool) -> Any:
    """A transformers config of the catalog architecture (Llama, Mistral, Qwen2, Qwen3, Phi-3 or Gemma 2)."""
    from transformers import Gemma2Config, LlamaConfig, MistralConfig, Phi3Config, Qwen2Config, Qwen3Config

    shape = {**entry, **DRY_RUN_SHAPE} if dry_run else entry
    common = {
        "num_hidden_layers": shape["n_layers"],
        "hidden_size": shape["hidden_size"],
        "num_attention_heads": shape["n_heads"],
        "num_key_value_heads": shape["n_kv_heads"],
        "head_dim": shape.get("head_dim") or shape["hidden_size"] // shape["n_heads"],
        "intermediate_size": shape["intermediate_size"],
        "vocab_size": shape["vocab_size"],
        "tie_word_embeddings": bool(entry.get("tied_embeddings", False)),
        "max_position_embeddings": max(int(entry.get("max_context") or 4096), 16384),
        "use_cache": False,
    }
    arch = entry["hf_architecture"]
    if arch == "LlamaForCausalLM":
        return LlamaConfig(**common)
    if arch == "MistralForCausalLM":
        return MistralConfig(**common, sliding_window=None)
    if arch == "Qwen2ForCausalLM":
        return Qwen2Config(**common)
    if arch == "Qwen3ForCausalLM":
        return Qwen3Config(**common)
    if arch == "Phi3ForCausalLM":
        return Phi3Config(**common, pad_token_id=None)
    if arch == "Gemma2ForCausalLM":  # published sliding window; soft-capping stays (Gemma2Config defaults)
        return Gemma2Config(**common, sliding_window=shape.get("sliding_window") or 4096)
    raise ValueError(f"no config builder for {arch}")


def build_model(set_up: SetUp, device: Any, dry_run: bool) -> Any:
    import torch
    from transformers import AutoModelForCausalLM

    config = hf_config(catalog_entry(set_up.model), dry_run)
    # sdpa, except Gemma 2: transformers refuses sdpa for its soft-capped attention, and eager is what
    # its model card recommends for training
    config._attn_implementation = "eager" if config.model_type == "gemma2" else "sdpa"
    dtype = torch.float32 if set_up.training_precision == "mixed" else torch.bfloat16
    with device:
        model = AutoModelForCausalLM.from_config(config, dtype=dtype)  # type: ignore[no-untyped-call]
    if set_up.grad_checkpointing:
        model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
    if set_up.method == "lora":
        from peft import LoraConfig, get_peft_model

        named = str(set_up.lora_targets)
        targets: Any = "all-linear" if named == "all-linear" else named.split(",")
        lora = LoraConfig(
            r=int(set_up.lora_rank or 16),
            lora_alpha=2 * int(set_up.lora_rank or 16),
            target_modules=targets,
            lora_dropout=float(set_up.lora_dropout or 0.0),
            task_type="CAUSAL_LM",
        )
        model = get_peft_model(model, lora)
    model.train()
    return model


def measure(set_up: SetUp, device: Any, context_gib: float | None, dry_run: bool) -> Result:
    import torch

    result = Result(set_up=asdict(set_up), name=set_up.name, status="ok", context_gib=context_gib)
    cuda = device.type == "cuda"
    if cuda:
        torch.cuda.empty_cache()
        torch.cuda.reset_peak_memory_stats()
    started = time.perf_counter()
    model = optimizer = None
    try:
        model = build_model(set_up, device, dry_run)
        result.params = sum(p.numel() for p in model.parameters())
        result.attn_implementation = getattr(model.config, "_attn_implementation", None)
        trainable = [p for p in model.parameters() if p.requires_grad]
        result.trainable_params = sum(p.numel() for p in trainable)
        foreach = set_up.optimizer_impl == "foreach"
        optimizer = torch.optim.AdamW(trainable, lr=1e-5, foreach=foreach or None, fused=not foreach or None)
        vocab = model.config.vocab_size
        batch_size, seq_len = set_up.batch_size, set_up.seq_len
        if dry_run:
            batch_size, seq_len = min(batch_size, DRY_RUN_MAX_BATCH_SIZE), min(seq_len, DRY_RUN_MAX_SEQ_LEN)
        tokens = torch.randint(0, vocab, (batch_size, seq_len), device=device)
        mixed = set_up.training_precision == "mixed"
        autocast = torch.autocast(device.type, dtype=torch.bfloat16, enabled=mixed)

        def sync() -> None:
            if cuda:
                torch.cuda.synchronize()

        result.build_s = time.perf_counter() - started

        def phase_peak() -> float:
            sync()
            return torch.cuda.max_memory_allocated() / GIB if cuda else 0.0

        def reset() -> None:
            if cuda:
                torch.cuda.reset_peak_memory_stats()

        for step in range(WARMUP_STEPS + 1 + TIMED_STEPS):
            instrumented = step == WARMUP_STEPS
            sync()
            step_started = time.perf_counter()
            if instrumented:
                overall_allocated = torch.cuda.max_memory_allocated() / GIB if cuda else 0.0
                reset()
            with autocast:
                loss = model(input_ids=tokens, labels=tokens).loss
            if instrumented:
                result.phase_peak_allocated_gib["forward_loss"] = phase_peak()
                reset()
            loss.backward()
            if instrumented:
                result.phase_peak_allocated_gib["backward"] = phase_peak()
                reset()
            optimizer.step()
            if instrumented:
                result.phase_peak_allocated_gib["optimizer_step"] = phase_peak()
            optimizer.zero_grad(set_to_none=True)
            del loss
            sync()
            if step > WARMUP_STEPS:
                result.step_s.append(time.perf_counter() - step_started)
        if cuda:
            result.peak_allocated_gib = max(
                overall_allocated,
                torch.cuda.max_memory_allocated() / GIB,
                *result.phase_peak_allocated_gib.values(),
            )
            result.peak_reserved_gib = torch.cuda.max_memory_reserved() / GIB
        result.median_step_s = statistics.median(result.step_s)
        result.tokens_per_s = batch_size * seq_len / result.median_step_s
    except torch.OutOfMemoryError as exc:
        result.status, result.error = "oom", str(exc).splitlines()[0][:300]
        if cuda:
            result.peak_reserved_gib = torch.cuda.max_memory_reserved() / GIB
    except Exception as exc:  # one set-up's failure must not stop the others
        result.status, result.error = "error", f"{type(exc).__name__}: {exc}"[:300]
    finally:
        del model, optimizer
        gc.collect()
        if cuda:
            torch.cuda.empty_cache()
    return result


def context_gib_of(device: Any) -> float | None:
    """CUDA context and library handles: device memory in use minus what the allocator reserves."""
    import torch

    if device.type != "cuda":
        return None
    warm = torch.ones(1024, 1024, device=device) @ torch.ones(1024, 1024, device=device)  # cuBLAS handle
    torch.cuda.synchronize()
    free_b, total_b = torch.cuda.mem_get_info()
    context = (total_b - free_b - torch.cuda.memory_reserved()) / GIB
    del warm
    return context


def environment() -> dict[str, Any]:
    import torch
    import transformers

    env: dict[str, Any] = {
        "torch": torch.__version__,
        "transformers": transformers.__version__,
        "python": sys.version.split()[0],
    }
    try:
        import peft

        env["peft"] = peft.__version__
    except ImportError:
        env["peft"] = None
    if torch.cuda.is_available():
        props = torch.cuda.get_device_properties(0)
        env.update(gpu=props.name, gpu_memory_gib=props.total_memory / GIB, cuda=torch.version.cuda)
    return env


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path(os.environ.get("OUT", "device_out")))
    parser.add_argument("--budget-s", type=float, default=380.0, help="stop starting set-ups after this")
    parser.add_argument("--dry-run", action="store_true", help="tiny shapes on the CPU: checks the code path")
    parser.add_argument("--only", default=None, help="measure the set-ups whose name contains this")
    parser.add_argument("--set", choices=sorted(SETS), default="first", help="which set of set-ups")
    args = parser.parse_args(argv)

    import torch

    device = torch.device("cpu" if args.dry_run or not torch.cuda.is_available() else "cuda")
    args.out.mkdir(parents=True, exist_ok=True)
    out_path = args.out / "device_training.jsonl"
    started = time.perf_counter()
    env = environment()
    context_gib = context_gib_of(device)
    with out_path.open("w") as sink:
        sink.write(json.dumps({"environment": env, "context_gib": context_gib, "set": args.set}) + "\n")
        print(json.dumps(env), f"context {context_gib}", flush=True)
        for set_up in SETS[args.set]:
            if args.only and args.only not in set_up.name:
                continue
            elapsed = time.perf_counter() - started
            if elapsed > args.budget_s:
                print(f"budget spent at {elapsed:.0f} s: not started {set_up.name}", flush=True)
                continue
            result = measure(set_up, device, context_gib, args.dry_run)
            sink.write(json.dumps(asdict(result)) + "\n")
            sink.flush()
            phases = " ".join(f"{k}={v:.2f}" for k, v in result.phase_peak_allocated_gib.items())
            print(
                f"{time.perf_counter() - started:6.0f}s {result.status:5s} {result.name}: "
                f"alloc {result.peak_allocated_gib} resv {result.peak_reserved_gib} [{phases}] "
                f"step {result.median_step_s} tok/s {result.tokens_per_s} {result.error or ''}",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
