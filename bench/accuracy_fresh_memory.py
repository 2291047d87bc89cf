"""Memory accuracy on the fresh held-out measurements (bench/data/memory_measurements_fresh.yaml).

Each published peak-memory row is mapped to tools.memory.estimate_memory inputs, sized, and compared
with the measurement on the measurement's basis; rows the calculator cannot reproduce are skipped with
a one-line reason. Prints every row (estimate, measured, signed error), the skipped rows, the words
that were mapped to the calculator's vocabulary, and the median / worst |error| against issue 15's
targets (median <= 10%, worst <= 20%).

    .venv/bin/python -m bench.accuracy_fresh_memory [--include-ambiguous] [--file other.yaml]
    (as a module from the checkout: as a script path, an editable install may import another checkout's tools)

Reading the file: with the default path, bench/memory_fresh_data.py's `load_memory_fresh_rows()` (its
pydantic loader) is used when that module exists; otherwise, and for any --file, the YAML is read here
with a tolerant parser (a top-level list of rows, or a mapping with `rows`).

Mapping rules (row field -> calculator input):
- model: the catalog by hf_id, then by name (tools.catalog); else an architecture transcribed from
  config.json in tools.memory_calibration (Qwen v1, GLM-4, ...) or bench.memory_fresh_archs (Mistral 7B
  v0.1/v0.2, Yi-34B, TinyLlama) by hf_id or name; else a Llama-like shape from params_b
  (tools.catalog.synthetic); none of these -> skipped.
- source family (`family`): where a row leaves them null, the optimizer implementation, checkpointing and
  loss of the family's own training script (_SOURCE_STACKS, each with its source); the row's value wins.
  A family whose collator pads each batch to its longest sample on data of varying length (ms-swift 1.x)
  runs with variable_length (the caching allocator's stale logits segments, reserved basis).
- gpus, tp, pp as given; torchtitan with pp > 1: the row's local batch is split into pp micro-batches
  (its default pipeline_parallel_microbatches); rows whose notes say selective activation checkpointing
  are skipped (not a calculator input), and so are rows with sequence / context parallelism (Ulysses,
  ring attention: the id or notes say so).
- measured.card (catalog id of the card a reserved / nvidia-smi figure was read on): the estimate is capped at
  that card's usable memory when its tensors fit (the allocator's reserve shrinks: tools.memory_card).
- measured.capped_at_gib (a figure at the card's limit): scored as an interval (bounded_error): 0 when the
  estimate reaches the figure and its tensors fit on the card, else the distance to the nearer bound.
- method full|lora|qlora|pretraining as is; a 4/8-bit base under `lora` is QLoRA (the calculator's
  name for LoRA on a quantised base).
- training_precision mixed|pure-bf16 as is, fp16-mixed/bf16-mixed/amp -> mixed (same bytes as bf16
  AMP), bf16-true -> pure-bf16, pure-fp16/fp16-true (an fp16-loaded model trained without autocast,
  e.g. axolotl `float16: true`) -> pure-fp16; null -> the framework's way: torchtune pure-bf16, else mixed.
- weights_precision: bf16/fp16/fp32/fp8/int8/int4/nf4; source words 4bit/bnb-4bit/qlora -> nf4,
  gptq/int4-gptq/awq -> int4, 8bit/bnb-8bit -> int8; nf4 with double quantisation (nf4-dq) -> nf4 (the
  calculator's NF4 counts double quantisation's constants); null -> nf4 for QLoRA, bf16 otherwise.
- optimizer: a tools.vocabulary name, or the source's words mapped by what the state holds (two states:
  adam/adamw/FusedAdam/adamw_torch[_fused] -> adamw; 8-bit: adamw_bnb_8bit/AdamW8bit -> adamw-8bit, paged
  -> paged-adamw-8bit; one momentum state: lion/muon/sgd -> sgd; factored: adafactor/came -> adafactor);
  anything else -> the closest vocabulary name by spelling, default adamw. Each mapping is printed.
- optimizer_impl fused|foreach|for-loop as is; null -> 'fused' when the optimizer word says fused, else
  the framework preset (tools.memory_frameworks).
- framework: a tools.vocabulary name as is; common spellings (LLaMA-Factory, Megatron-LM, transformers,
  TRL, ...) normalised; colossalai -> the deepspeed preset (its ZeRO plugins split the state the same way,
  _FRAMEWORK_WORDS); other -> hf preset (printed).
- gpus, tp as given (default 1); sharding none|ddp|zero1|zero2|zero3|fsdp (ZeRO-3, FSDP2, HSDP spellings
  normalised; null -> none, which is DDP over several GPUs); offload: false/none -> none, optimizer ->
  optimizer, params/true/cpu -> params under zero3/fsdp, optimizer otherwise.
- seq_len and batch_size (micro-batch per GPU) are required: a row without them is skipped. Packing
  does not change the tokens per micro-batch (batch_size x seq_len either way).
- grad_checkpointing: as given; null -> the framework's default (llama-factory, unsloth, torchtune: on;
  hf, axolotl: off, TrainingArguments' default); null under deepspeed/megatron/nemo/torchtitan/other ->
  skipped (no single default).
- flash_attention: as given (false/eager/off -> eager attention; fa2/sdpa/true -> memory-efficient);
  null -> on (SDPA/FlashAttention is every current stack's default).
- lora_rank: as given; null -> 8 (peft, LLaMA-Factory, torchtune configs), 16 under unsloth.
- lora_targets: a list or 'all-linear'/'all'; source module names are translated (c_attn, qkv_proj,
  query_key_value -> q,k,v; dense -> o_proj; c_proj -> o_proj + down_proj; gate_up_proj,
  dense_h_to_4h -> gate,up; dense_4h_to_h -> down; w1/w2/w3, output_proj); embed_tokens/lm_head are
  dropped (printed); an unknown name skips the row.
- grad_accumulation_steps as given; null -> the source config's global / micro batch where the family lists
  the config its document names (LitGPT config hub) or prints 'BS micro/global' (the DeepSpeed gist), else 1.
- a family whose own loss has no `.float()` (_SOURCE_STACKS loss_without_autocast): loss_upcast False on
  its rows whose framework runs the model without autocast (preset amp False: DeepSpeed's 16-bit engine).
- training_objective (sft|dpo|orpo|simpo|kto, null -> sft) as is: a pair is 2 sequences per micro-batch
  example, DPO/KTO full training holds a 16-bit reference copy (tools.memory_preference).
- lora_dropout as given (null -> framework preset); liger kernels or notes naming Cut Cross-Entropy ->
  loss_impl fused-linear (no logits); loss_chunking otherwise -> chunked; ChatGLM/GLM-4 remote code (THUDM
  chatglm / glm-4 ids without '-hf') -> loss_impl shift-logits-downcast.
- measured: unit GiB|GB|MiB|MB converted with tools.units; per_gpu false over N GPUs -> value / N (null:
  per GPU); basis allocated -> the allocated estimate (memory_basis allocated), reserved ->
  max_memory_reserved (allocator reserve, no CUDA context), device -> what nvidia-smi shows (+ context);
  null -> the family's memory logger where bench.memory_fresh_stacks names it (printed), else (a README's
  "uses about X GB of VRAM", basis unstated) device, printed. A family's recipe options (quantised-base
  loading for QLoRA, Megatron precision options for full training) apply as _SOURCE_STACKS lists them.
- ambiguous rows are skipped unless --include-ambiguous (their reason is printed).
"""

from __future__ import annotations

import argparse
import difflib
import importlib
import re
import statistics
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from bench.memory_fresh_archs import fresh_arch, present_targets
from bench.memory_fresh_basis import CardSkip, card_usable_gib
from bench.memory_fresh_basis import bounded_error as bounded_error  # re-exported: the scorer's API
from bench.memory_fresh_basis import on_basis as _on_basis
from bench.memory_fresh_stacks import _SOURCE_STACKS, config_accumulation, fused_linear_loss, recipe_options
from tools.catalog.load import load_catalog
from tools.catalog.schema import ModelArch
from tools.catalog.synthetic import synthetic_arch
from tools.errors import InputError
from tools.memory import MemoryEstimate, estimate_memory
from tools.memory_frameworks import OPTIMIZER_IMPLS, framework_defaults
from tools.units import gb_to_gib, mib_to_gib
from tools.vocabulary import FRAMEWORKS, OPTIMIZERS, SHARDINGS

FRESH_FILE = Path(__file__).resolve().parent / "data" / "memory_measurements_fresh.yaml"
MEDIAN_TARGET = 0.10  # issue 15: median |error| <= 10% against published measurements
WORST_TARGET = 0.20  # issue 15: worst |error| <= 20%

_OPTIMIZER_WORDS: tuple[tuple[tuple[str, ...], str], ...] = (
    (("32bit", "32_bit"), "adamw"),
    (("paged",), "paged-adamw-8bit"),
    (("8bit", "8_bit", "bnb"), "adamw-8bit"),
    (("adafactor", "came"), "adafactor"),
    (("lion", "muon", "sgd", "momentum"), "sgd"),
    (("adam",), "adamw"),
)
"""Source optimizer words -> vocabulary name by the state they keep (checked in this order)."""
_PRECISION_WORDS: dict[str, str] = {
    "4bit": "nf4", "bnb-4bit": "nf4", "bnb_4bit": "nf4", "qlora": "nf4", "nf4": "nf4", "gptq": "int4",
    "awq": "int4", "int4": "int4", "int4-gptq": "int4", "gptq-int4": "int4", "8bit": "int8",
    "bnb-8bit": "int8", "int8": "int8", "fp8": "fp8", "nf4-dq": "nf4", "nf4 (double quant)": "nf4",
    "nf4 (double quant, bf16 quant storage)": "nf4",
    "bf16": "bf16", "bfloat16": "bf16", "fp16": "fp16", "float16": "fp16", "fp32": "fp32", "float32": "fp32",
}  # fmt: skip
# a row whose own id or notes name sequence / context parallelism: each rank holds 1/SP of a sequence's tokens
_SEQUENCE_PARALLEL = re.compile(r"(?i)\bulysses\b|sequence[\s-]parallel|context[\s-]parallel|-sp[2-9]\d*-")
_TARGET_WORDS: dict[str, tuple[str, ...]] = {
    "c_attn": ("q_proj", "k_proj", "v_proj"), "qkv_proj": ("q_proj", "k_proj", "v_proj"),
    "query_key_value": ("q_proj", "k_proj", "v_proj"), "wqkv": ("q_proj", "k_proj", "v_proj"),
    "W_pack": ("q_proj", "k_proj", "v_proj"),
    "dense": ("o_proj",), "c_proj": ("o_proj", "down_proj"), "gate_up_proj": ("gate_proj", "up_proj"),
    "dense_h_to_4h": ("gate_proj", "up_proj"), "dense_4h_to_h": ("down_proj",), "wo": ("o_proj",),
}  # fmt: skip
_DROPPED_TARGETS = ("embed_tokens", "lm_head", "wte", "output_layer")
_FRAMEWORK_WORDS: dict[str, str] = {
    "huggingface": "hf", "transformers": "hf", "trl": "hf", "peft": "hf", "accelerate": "hf",
    "llamafactory": "llama-factory", "megatronlm": "megatron", "megatroncore": "megatron",
    "nemo": "nemo", "deepspeed": "deepspeed", "axolotl": "axolotl", "unsloth": "unsloth",
    "torchtune": "torchtune", "torchtitan": "torchtitan", "megatron": "megatron", "hf": "hf",
    "colossalai": "deepspeed",
}  # fmt: skip
"""ColossalAI's ZeRO plugins (LowLevelZeroPlugin, HybridParallelPlugin zero_stage 1/2) cast the module to
16 bits and keep the fp32 master weights and Adam states in the sharded ZeRO optimizer (colossalai/zero/
low_level/low_level_optim.py; HybridAdam, a fused CUDA Adam with a CPU Adam for offloaded states): DeepSpeed's
ZeRO split, so its preset (tools.memory_frameworks), with no AMP copies (hpcaitech/ColossalAI
applications/ColossalChat/examples/training_scripts/train_sft.py, read 2026-11-27)."""
_SHARDING_WORDS: dict[str, str] = {
    "none": "none", "ddp": "ddp", "zero1": "zero1", "zero2": "zero2", "zero3": "zero3", "fsdp": "fsdp",
    "fsdp1": "fsdp", "fsdp2": "fsdp", "hsdp": "fsdp", "zerostage1": "zero1", "zerostage2": "zero2",
    "zerostage3": "zero3", "deepspeedzero2": "zero2", "deepspeedzero3": "zero3", "": "none",
}  # fmt: skip
_LIGER_KEYS = ("liger", "liger_kernel", "liger_kernels", "use_liger_kernel")
_CHECKPOINTING_DEFAULT: dict[str, bool] = {
    "llama-factory": True, "unsloth": True, "torchtune": True, "hf": False, "axolotl": False,
}  # fmt: skip
"""Gradient checkpointing when a row does not say: LLaMA-Factory (disable_gradient_checkpointing False),
unsloth ('unsloth' checkpointing), torchtune configs (enable_activation_checkpointing True) on; HF
TrainingArguments and axolotl off by default."""


class Skip(Exception):
    """A row the calculator cannot reproduce; the message is the one-line reason."""


@dataclass
class Mapped:
    """One row as calculator inputs, with its measurement in GiB per GPU on `basis`."""

    id: str
    arch: ModelArch
    inputs: dict[str, Any]
    measured_gib: float
    basis: str
    notes: list[str] = field(default_factory=list)
    capped_at_gib: float | None = None
    """Set when the figure is at the card's limit: a lower bound on the reserved figure, and the run fit in
    this many GiB (scored as an interval, `bounded_error`)."""
    card_usable_gib: float | None = None
    """The usable memory of the card the figure was read on (measured.card, tools.catalog): a reserved or
    nvidia-smi estimate is capped at it when the tensors fit (tools.memory_card)."""


# ---- reading ------------------------------------------------------------------------------------
def _as_dict(row: Any) -> dict[str, Any]:
    if isinstance(row, dict):
        return row
    dump = getattr(row, "model_dump", None)
    if callable(dump):
        out = dump()
        if isinstance(out, dict):
            return out
    raise Skip(f"row of type {type(row).__name__} is not a mapping")


def parse_rows(text: str) -> list[dict[str, Any]]:
    """Rows of a fresh-set YAML document: a list of rows, or a mapping holding `rows` (tolerant: any
    other top-level keys are ignored; a non-mapping entry is kept as an empty row that will be skipped)."""
    data = yaml.safe_load(text)
    rows = data.get("rows", []) if isinstance(data, dict) else data
    if not isinstance(rows, list):
        raise ValueError("expected a list of rows (or a mapping with 'rows')")
    return [r if isinstance(r, dict) else {} for r in rows]


def load_rows(path: Path | None = None) -> list[dict[str, Any]]:
    """The rows: the set's own loader (bench.memory_fresh_data) for the default file when it exists,
    else this module's parser."""
    if path is None:
        try:
            module = importlib.import_module("bench.memory_fresh_data")
        except ImportError:
            module = None
        loader = getattr(module, "load_memory_fresh_rows", None)
        if callable(loader):
            return [_as_dict(r) for r in loader()]
        path = FRESH_FILE
    return parse_rows(path.read_text(encoding="utf-8"))


# ---- field mapping ------------------------------------------------------------------------------
def to_gib(value: float, unit: str) -> float:
    """A published figure in GiB (tools.units): GiB, GB (1e9 B), MiB, MB (1e6 B)."""
    u = unit.strip()
    if u == "GiB":
        return float(value)
    if u == "GB":
        return gb_to_gib(value)
    if u == "MiB":
        return mib_to_gib(value)
    if u == "MB":
        return gb_to_gib(value / 1000.0)
    raise Skip(f"unknown unit {unit!r} (GiB, GB, MiB or MB)")


def map_optimizer(word: str | None, notes: list[str]) -> str:
    """A vocabulary optimizer for the source's word (module docstring); a mapping is noted."""
    if not word:
        return "adamw"
    raw = str(word).strip()
    if raw in OPTIMIZERS:
        return raw
    low = raw.lower()
    for needles, name in _OPTIMIZER_WORDS:
        if any(n in low for n in needles):
            notes.append(f"optimizer {raw!r} -> {name}")
            return name
    close = difflib.get_close_matches(low, OPTIMIZERS, n=1, cutoff=0.0)
    name = close[0] if close else "adamw"
    notes.append(f"optimizer {raw!r} -> {name} (nearest name)")
    return name


def _arch(model: dict[str, Any], notes: list[str]) -> ModelArch:
    catalog = load_catalog()
    hf_id, name = model.get("hf_id"), model.get("name")
    for key in (hf_id, name):
        if key and catalog.has_model(str(key)):
            return catalog.model(str(key))
    from tools import memory_calibration as cal

    written = {a.id: a for a in vars(cal).values() if isinstance(a, ModelArch)}
    for key in (hf_id, name):
        if key:
            tail = str(key).split("/")[-1].lower().removesuffix("-chat").removesuffix("-instruct")
            if tail in written:
                notes.append(f"architecture {written[tail].id} from tools.memory_calibration")
                return written[tail]
    arch = fresh_arch(hf_id, name)
    if arch is not None:
        notes.append(f"architecture {arch.id} from bench.memory_fresh_archs (config.json)")
        return arch
    params_b = model.get("params_b")
    if params_b is None:
        raise Skip(f"model {name or hf_id!r} is not in the catalog and has no params_b")
    try:
        arch = synthetic_arch(float(params_b))
    except InputError as exc:
        raise Skip(str(exc)) from exc
    notes.append(f"model {name or hf_id!r} not in the catalog: Llama-like shape from {params_b}B")
    return arch


def _precision(word: Any) -> str | None:
    if word is None:
        return None
    key = str(word).strip().lower()
    if key not in _PRECISION_WORDS:
        raise Skip(f"unknown weights_precision {word!r}")
    return _PRECISION_WORDS[key]


def _targets(raw: Any, notes: list[str]) -> str | list[str]:
    if raw is None or (isinstance(raw, str) and raw.strip().lower() in ("all-linear", "all_linear", "all")):
        return "all-linear"
    if isinstance(raw, str) and raw.strip().lower() in ("attention", "mlp"):
        return raw.strip().lower()
    names = [t.strip() for t in (raw.split(",") if isinstance(raw, str) else raw) if str(t).strip()]
    out: list[str] = []
    for name in map(str, names):
        if name in _DROPPED_TARGETS:
            notes.append(f"LoRA target {name} dropped (not modelled)")
            continue
        for t in _TARGET_WORDS.get(name, (name,)):
            if t not in out:
                out.append(t)
        if name in _TARGET_WORDS:
            notes.append(f"LoRA target {name} -> {','.join(_TARGET_WORDS[name])}")
    return out or "all-linear"


def _offload(raw: Any, sharding: str) -> str:
    if raw in (None, False) or str(raw).lower() in ("none", "false", "no", ""):
        return "none"
    word = str(raw).lower()
    if "optim" in word:
        return "optimizer"
    return "params" if sharding in ("zero3", "fsdp") else "optimizer"


def _glm_remote(model: dict[str, Any]) -> bool:
    ident = f"{model.get('hf_id') or ''} {model.get('name') or ''}".lower()
    return ("chatglm" in ident or "thudm/glm-4" in ident) and "-hf" not in ident


def map_row(row: dict[str, Any], include_ambiguous: bool = False) -> Mapped:
    """Calculator inputs for one row (module docstring); Skip with the reason when it cannot be done."""
    rid, notes = str(row.get("id") or "?"), list[str]()
    if row.get("ambiguous") and not include_ambiguous:
        raise Skip(f"ambiguous: {row['ambiguous']}")
    measured = row.get("measured") or {}
    if not isinstance(measured, dict) or measured.get("value") is None:
        raise Skip("no measured value")
    word = str(row.get("framework") or "hf")
    key = re.sub(r"[^a-z]", "", word.lower())
    framework = word if word in FRAMEWORKS else _FRAMEWORK_WORDS.get(key, "hf")
    if framework != word:
        notes.append(f"framework {word!r} -> {framework}{' preset' if framework == 'hf' else ''}")
    objective = str(row.get("training_objective") or "sft")
    method = str(row.get("method") or "")
    if method not in ("full", "lora", "qlora", "pretraining"):
        raise Skip(f"method {method!r} is not full, lora, qlora or pretraining")
    precision = _precision(row.get("weights_precision"))
    if method == "lora" and precision in ("nf4", "int4", "int8", "fp8"):
        method = "qlora"
        notes.append(f"LoRA on a {precision} base -> qlora")
    seq_len, batch = row.get("seq_len"), row.get("batch_size")
    if not seq_len or not batch:
        raise Skip("no sequence length" if not seq_len else "no micro-batch size")
    stack = _SOURCE_STACKS.get(str(row.get("family") or ""))
    ckpt = row.get("grad_checkpointing")
    if ckpt is None and stack is not None and stack.grad_checkpointing is not None:
        ckpt = stack.grad_checkpointing
        notes.append(f"grad checkpointing {'on' if ckpt else 'off'} (the source's script)")
    if ckpt is None:
        if framework not in _CHECKPOINTING_DEFAULT:
            raise Skip(f"grad_checkpointing not stated and {framework} has no single default")
        ckpt = _CHECKPOINTING_DEFAULT[framework]
        notes.append(f"grad checkpointing {'on' if ckpt else 'off'} ({framework} default)")
    gpus, tp, pp = int(row.get("gpus") or 1), int(row.get("tp") or 1), int(row.get("pp") or 1)
    if "activation checkpointing: selective" in str(row.get("notes") or ""):
        raise Skip(
            "selective activation checkpointing (torchtitan's per-op policy) is not a calculator input"
        )
    if _SEQUENCE_PARALLEL.search(f"{row.get('id')} {row.get('notes') or ''}"):
        raise Skip("sequence / context parallelism (Ulysses, ring attention) is not a calculator input")
    batch = int(batch)
    if pp > 1 and framework == "torchtitan":
        if batch % pp:
            raise Skip(f"local batch {batch} does not split into {pp} pipeline micro-batches")
        notes.append(
            f"local batch {batch} split into {pp} pipeline micro-batches of {batch // pp} "
            "(torchtitan's default: pipeline_parallel_microbatches = the number of stages)"
        )
        batch //= pp
    sharding_word = str(row.get("sharding") or "none")
    sharding = _SHARDING_WORDS.get(re.sub(r"[^a-z0-9]", "", sharding_word.lower()), sharding_word)
    if sharding not in SHARDINGS:
        raise Skip(f"unknown sharding {sharding_word!r}")
    tprec = row.get("training_precision")
    training_precision = {
        "mixed": "mixed", "pure-bf16": "pure-bf16", "fp16-mixed": "mixed", "bf16-mixed": "mixed",
        "amp": "mixed", "bf16-true": "pure-bf16", "pure-fp16": "pure-fp16", "fp16-true": "pure-fp16",
    }.get(str(tprec).lower(), "pure-bf16" if framework == "torchtune" else "mixed")  # fmt: skip
    if tprec not in ("mixed", "pure-bf16", "pure-fp16"):
        notes.append(f"training precision {tprec or 'not stated'} -> {training_precision}")
    notes_opt: list[str] = []
    optimizer = map_optimizer(row.get("optimizer"), notes_opt)
    notes += notes_opt
    impl = row.get("optimizer_impl")
    if impl is not None and impl not in OPTIMIZER_IMPLS:
        raise Skip(f"unknown optimizer_impl {impl!r}")
    if impl is None and "fused" in str(row.get("optimizer") or "").lower():
        impl = "fused"
    if impl is None and stack is not None and stack.optimizer_impl is not None:
        impl = stack.optimizer_impl
        notes.append(f"optimizer_impl {impl} (the source's script)")
    liger = any(bool(row.get(k)) for k in _LIGER_KEYS)
    fused = fused_linear_loss(row, liger)  # CCE / Liger FLCE: tools.memory_fused_loss
    chunked = bool(row.get("loss_chunking")) and not fused
    attention = row.get("flash_attention")
    if attention is None and stack is not None and stack.flash_attention is not None:
        attention = stack.flash_attention
        notes.append(f"flash_attention {attention} (the source's model code)")
    flash = not (attention is False or str(attention).lower() in ("eager", "off", "none", "false", "no"))
    model = row.get("model") or {}
    inputs: dict[str, Any] = dict(
        method=method, precision=precision, training_precision=training_precision, optimizer=optimizer,
        optimizer_impl=impl, seq_len=int(seq_len), batch_size=int(batch), grad_checkpointing=bool(ckpt),
        flash_attention=flash if attention is not None else True, gpus=gpus, tp=tp, pp=pp, sharding=sharding,
        offload=_offload(row.get("offload"), sharding), framework=framework,
    )  # fmt: skip
    if objective != "sft":
        inputs["training_objective"] = objective
        notes.append(f"training objective {objective} (tools.preference)")
    if fused:
        inputs.update(loss_chunking=False, loss_impl="fused-linear")
        notes.append("loss_impl fused-linear (Cut Cross-Entropy / Liger fused linear CE: no logits tensor)")
    elif chunked:
        inputs.update(loss_chunking=True)
    elif row.get("loss_chunking") is False:
        inputs["loss_chunking"] = False
    if method in ("lora", "qlora"):
        inputs["lora_rank"] = int(row.get("lora_rank") or (16 if framework == "unsloth" else 8))
        inputs["lora_targets"] = _targets(row.get("lora_targets"), notes)
        if row.get("lora_dropout") is not None:
            inputs["lora_dropout"] = float(row["lora_dropout"])
        for key, val in (stack.lora if stack is not None else {}).items():
            inputs[key] = val
            notes.append(f"{key} {val} (the source's adapter code)")
    accumulation = int(row.get("grad_accumulation_steps") or 0) or config_accumulation(row, stack)
    if accumulation > 1:
        inputs["grad_accumulation_steps"] = accumulation
        notes.append(f"gradient accumulation {accumulation} micro-batches per step (the source's config)")
    if stack is not None and not (chunked or fused):
        for key, val in stack.loss.items():
            inputs[key] = val
            notes.append(f"{key} {val} (the source's script)")
        document = " ".join(str(_as_dict(row.get("source") or {}).get("document") or "").split())
        if stack.output_held and stack.output_held in document:
            inputs["logits_held"] = True
            notes.append(f"logits_held True (the source document's run: {stack.output_held!r})")
        for phrase, options in stack.document_options.items():
            if phrase in document:
                inputs.update(options)
                notes.append(f"{options} (the source document's run: {phrase!r})")
    if stack is not None and not (chunked or fused) and not framework_defaults(framework).amp:
        for key, val in stack.loss_without_autocast.items():
            inputs[key] = val
            notes.append(f"{key} {val} (the source's loss, {framework} engine without autocast)")
    for key, val, why in recipe_options(stack, method, precision):  # bench.memory_fresh_stacks
        inputs[key] = val
        notes.append(f"{key} {val} ({why})")
    if isinstance(model, dict) and _glm_remote(model) and not (chunked or fused):
        inputs["loss_impl"] = "shift-logits-downcast"
        notes.append("ChatGLM/GLM-4 remote code: loss_impl shift-logits-downcast")
    value = to_gib(float(measured["value"]), str(measured.get("unit") or ""))
    if measured.get("per_gpu") is False and gpus > 1:
        value /= gpus
        notes.append(f"total over {gpus} GPUs / {gpus}")
    elif measured.get("per_gpu") is None and gpus > 1:
        notes.append("per_gpu not stated: taken as per GPU")
    basis = str(measured.get("basis") or (stack.basis if stack is not None else "") or "")
    if basis and not measured.get("basis"):
        notes.append(f"basis {basis} (the source's memory logger, bench.memory_fresh_stacks)")
    if not basis:  # a "uses about X GB of VRAM" figure: what a GPU monitor (nvidia-smi, W&B) shows
        basis = "device"
        notes.append("basis not stated: taken as device (nvidia-smi)")
    if basis not in ("allocated", "reserved", "device"):
        raise Skip(f"unknown measured basis {basis!r} (allocated, reserved or device)")
    arch = present_targets(_arch(model if isinstance(model, dict) else {}, notes), inputs, notes)
    at_reset = measured.get("reserved_at_reset_gib")
    if at_reset is not None and basis == "reserved":
        inputs["reserved_at_reset_gib"] = float(at_reset)
        notes.append(
            f"reserved at the counters' reset {float(at_reset):g} GiB (the source's figure): a floor"
        )
    capped = measured.get("capped_at_gib")
    if capped is not None:
        notes.append(f"figure at the card's limit ({float(capped):g} GiB): scored as a bound")
    try:
        card_usable = card_usable_gib(measured.get("card"), basis, notes)
    except CardSkip as why:
        raise Skip(str(why)) from why
    return Mapped(
        rid, arch, inputs, value, basis, notes, float(capped) if capped is not None else None, card_usable
    )


def _estimate(m: Mapped) -> MemoryEstimate:
    try:
        basis = "allocated" if m.basis == "allocated" else "reserved"
        return estimate_memory(arch=m.arch, memory_basis=basis, traced=False, **m.inputs)
    except InputError as exc:
        raise Skip(f"calculator refused: {exc}") from exc


def estimate_gib(m: Mapped) -> float:
    """The estimate on the measurement's basis, GiB per GPU (as tools.memory_calibration rows)."""
    return _on_basis(_estimate(m), m.basis, m.card_usable_gib)


@dataclass
class Score:
    """Scored rows (id, estimate GiB, measured GiB, signed error, notes) and skipped rows (id, why)."""

    scored: list[tuple[str, float, float, float, list[str]]]
    skipped: list[tuple[str, str]]
    families: dict[str, str] = field(default_factory=dict)
    """Row id -> its source family (for the per-family lines of the report)."""

    def by_family(self) -> dict[str, tuple[int, float, float]]:
        """Per source family: rows scored, median and worst |error|."""
        errs: dict[str, list[float]] = {}
        for rid, *_, e, _ in self.scored:
            errs.setdefault(self.families.get(rid, "?"), []).append(abs(e))
        return {f: (len(v), statistics.median(v), max(v)) for f, v in errs.items()}

    def summary(self) -> tuple[float, float] | None:
        errs = [abs(e) for *_, e, _ in self.scored]
        return (statistics.median(errs), max(errs)) if errs else None


def score(rows: list[dict[str, Any]], include_ambiguous: bool = False) -> Score:
    """Every row mapped and sized, or skipped with its reason."""
    out = Score([], [])
    for row in rows:
        out.families[str(row.get("id") or "?")] = str(row.get("family") or "?")
        try:
            m = map_row(row, include_ambiguous)
            full = _estimate(m)
            est = _on_basis(full, m.basis, m.card_usable_gib)
        except Skip as why:
            out.skipped.append((str(row.get("id") or "?"), str(why)))
            continue
        except (TypeError, ValueError) as exc:  # a malformed field (text where a number belongs, ...)
            out.skipped.append((str(row.get("id") or "?"), f"malformed field: {exc}"))
            continue
        if m.capped_at_gib is not None:
            err = bounded_error(est, full.peak_allocated_gib(), m.measured_gib, m.capped_at_gib)
        else:
            err = est / m.measured_gib - 1.0
        out.scored.append((m.id, est, m.measured_gib, err, m.notes))
    return out


def report(result: Score) -> str:
    """The printed report (module docstring)."""
    lines = [f"{'row':40s} {'est GiB':>8s} {'meas GiB':>9s} {'err':>7s}"]
    for rid, est, meas, err, notes in result.scored:
        bound = ">=" if any("scored as a bound" in n for n in notes) else ""
        lines.append(f"{rid[:40]:40s} {est:8.2f} {bound:>2s}{meas:7.2f} {err * 100:+6.1f}%")
    mapped = [(rid, n) for rid, *_, notes in result.scored for n in notes]
    if mapped:
        lines.append("\nmapped to the calculator's vocabulary / assumed:")
        lines += [f"  {rid}: {note}" for rid, note in mapped]
    if result.skipped:
        lines.append("\nskipped:")
        lines += [f"  {rid}: {why}" for rid, why in result.skipped]
    summ = result.summary()
    if summ is None:
        lines.append("\nno row could be scored")
        return "\n".join(lines)
    median, worst = summ
    lines.append("\nper family (rows, median |error|, worst |error|):")
    for fam, (n, med, wst) in sorted(result.by_family().items()):
        lines.append(f"  {fam:40s} {n:3d} {med * 100:6.1f}% {wst * 100:6.1f}%")
    verdict = "met" if median <= MEDIAN_TARGET and worst <= WORST_TARGET else "NOT met"
    counts = f"{len(result.scored)} rows scored, {len(result.skipped)} skipped"
    lines.append(
        f"\n{counts}: median |error| {median * 100:.1f}% (target <= {MEDIAN_TARGET * 100:.0f}%), "
        f"worst {worst * 100:.1f}% (target <= {WORST_TARGET * 100:.0f}%) -> {verdict}"
    )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    parser.add_argument("--file", type=Path, default=None, help="a YAML of the fresh-set schema")
    parser.add_argument("--include-ambiguous", action="store_true", help="score rows marked ambiguous")
    args = parser.parse_args(argv)
    try:
        rows = load_rows(args.file)
    except FileNotFoundError as exc:  # the default set is absent on branches without it: nothing to score
        print(f"no measurements file: {exc.filename} (give --file PATH)")
        return 2 if args.file is not None else 0
    print(report(score(rows, args.include_ambiguous)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
