"""Fresh held-out set of published peak GPU memory measurements (bench/data/memory_measurements_fresh.yaml).

The rows were collected blind to the memory model: no memory prediction was run on them, and none of the
sources the model was fitted on is used (the file's header lists the sources, the fixed per-family rule for
taking rows, and the rows looked at and skipped). This module only validates and loads them:

    load_memory_fresh_rows() -> list[MemoryFreshRow]

Each row is one published measurement: the set-up in the calculator's terms (tools/vocabulary.py where a term
exists), the figure as published (`measured`: value, unit, basis, per GPU or not) and its source. `null` means
"not stated by the source", never false. Unknown keys, unknown units and unknown bases are refused.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from bench.calibration_data import Method, TrainingFramework

DATA_DIR = Path(__file__).resolve().parent / "data"
MEMORY_FRESH_FILE = DATA_DIR / "memory_measurements_fresh.yaml"

TrainingPrecision = Literal["mixed", "pure-bf16", "pure-fp16", "fp16-mixed"]
Sharding = Literal["none", "ddp", "zero1", "zero2", "zero3", "fsdp"]
Offload = Literal["none", "optimizer", "params"]
Unit = Literal["GiB", "GB", "MiB", "MB"]
Basis = Literal["allocated", "reserved", "device"]

_BYTES_PER_UNIT: dict[str, float] = {"GiB": 2.0**30, "GB": 1e9, "MiB": 2.0**20, "MB": 1e6}


class MemoryFreshDataError(ValueError):
    """The data file does not validate."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Model(_Strict):
    name: str = Field(min_length=2)
    hf_id: str | None = Field(
        default=None, description="Hugging Face repo id, null when the source does not name one"
    )
    params_b: float = Field(gt=0, description="total parameters, billions")

    @field_validator("hf_id")
    @classmethod
    def _hf_id_has_owner(cls, v: str | None) -> str | None:
        if v is not None and v.count("/") != 1:
            raise ValueError(f"hf_id must be 'owner/name', got {v!r}")
        return v


class Measured(_Strict):
    value: float = Field(gt=0)
    unit: Unit
    basis: Basis | None = Field(
        description="allocated (max_memory_allocated), reserved (max_memory_reserved) or device "
        "(nvidia-smi / total used); null when the source does not say"
    )
    per_gpu: bool
    capped_at_gib: float | None = Field(
        default=None,
        gt=0,
        description="set when the figure is at the card's limit (within 2 GiB of its memory): the "
        "card's memory in GiB; the figure is then a lower bound on what the run would reserve, and the run "
        "fit in it",
    )

    card: str | None = Field(
        default=None,
        min_length=3,
        description="catalog GPU id (tools/catalog/gpus.yaml) of the card the figure was read on, set "
        "where the source names the card and its memory (printed, or implied by its figures: said in "
        "`gpu`): a reserved or nvidia-smi figure cannot exceed that card's usable memory when the run's "
        "tensors fit (tools.memory_card); null = not used",
    )

    reserved_at_reset_gib: float | None = Field(
        default=None,
        gt=0,
        description="what the source prints as reserved when its peak counters were reset (after loading and "
        "wrapping the model, before training), GiB: the reserved peak is at least this (tools.memory "
        "reserved_at_reset_gib); set only where the source states it for the row's command",
    )

    def gib(self) -> float:
        """The figure in GiB (2**30 bytes)."""
        return self.value * _BYTES_PER_UNIT[self.unit] / 2.0**30


OWN_MEASUREMENT_PREFIX = "bench/device_training_measure.py"


class Source(_Strict):
    url: str = Field(min_length=12)
    document: str = Field(min_length=3, description="document / table / row the figure comes from")
    date: str = Field(min_length=4, description="publication date, or the software versions of the run")

    @field_validator("url")
    @classmethod
    def _http(cls, v: str) -> str:
        # a published page, or this repository's own measuring script (bench/device_rows.py's rows)
        if not v.startswith(("https://", OWN_MEASUREMENT_PREFIX)):
            raise ValueError(f"source url must be https (or {OWN_MEASUREMENT_PREFIX}...), got {v!r}")
        return v


class MemoryFreshRow(_Strict):
    id: str = Field(min_length=3)
    family: str = Field(min_length=3, description="source family: one document or table series")
    model: Model
    method: Method
    training_objective: Literal["sft", "dpo", "orpo", "simpo", "kto"] | None = Field(
        default=None, description="tools.preference objective; null = sft (a row without the field)"
    )
    gpu: str = Field(min_length=3, description="the GPUs as the source prints them")
    training_precision: TrainingPrecision | None
    weights_precision: str | None = Field(description="bf16 / fp16 / nf4 / int4-gptq / ...")
    optimizer: str | None = Field(description="tools/vocabulary.py Optimizer term, or the source's words")
    optimizer_impl: Literal["fused", "foreach"] | None
    gpus: int = Field(ge=1)
    sharding: Sharding
    offload: Offload
    tp: int = Field(ge=1)
    pp: int = Field(ge=1)
    seq_len: int | None = Field(default=None, ge=1)
    batch_size: int | None = Field(
        default=None, ge=1, description="micro batch per GPU (per data-parallel rank)"
    )
    packed: bool | None
    grad_checkpointing: bool | None
    flash_attention: bool | None
    lora_rank: int | None = Field(default=None, ge=1)
    lora_targets: list[str] | Literal["all-linear"] | None
    lora_dropout: float | None = Field(default=None, ge=0, lt=1)
    loss_chunking: bool | None
    liger_kernels: bool | None
    framework: TrainingFramework
    measured: Measured
    source: Source
    ambiguous: str | None = Field(description="what the source leaves unclear")
    notes: str | None

    @model_validator(mode="after")
    def _consistent(self) -> MemoryFreshRow:
        if self.seq_len is None and self.batch_size is None:
            raise ValueError(
                f"{self.id}: neither batch size nor sequence length stated (such rows are skipped)"
            )
        adapters = self.method in ("lora", "qlora")
        if not adapters and any(
            x is not None for x in (self.lora_rank, self.lora_targets, self.lora_dropout)
        ):
            raise ValueError(f"{self.id}: LoRA settings on a {self.method} row")
        if self.method == "qlora" and self.weights_precision in ("bf16", "fp16", "fp32"):
            raise ValueError(f"{self.id}: a QLoRA row needs a quantized weights_precision")
        if self.gpus % (self.tp * self.pp) != 0:
            raise ValueError(f"{self.id}: gpus {self.gpus} not divisible by tp x pp = {self.tp * self.pp}")
        if self.gpus == 1 and self.sharding != "none":
            raise ValueError(f"{self.id}: sharding {self.sharding!r} on one GPU")
        return self


class MemoryFreshFile(_Strict):
    rows: list[MemoryFreshRow] = Field(min_length=1)

    @model_validator(mode="after")
    def _unique_ids(self) -> MemoryFreshFile:
        seen: set[str] = set()
        for r in self.rows:
            if r.id in seen:
                raise ValueError(f"duplicate row id {r.id!r}")
            seen.add(r.id)
        return self


def _read(path: Path) -> Any:
    with path.open() as f:
        return yaml.safe_load(f)


def load_memory_fresh_rows(path: Path | None = None) -> list[MemoryFreshRow]:
    """Validate and return the fresh memory rows (bench/data/memory_measurements_fresh.yaml by default)."""
    p = path or MEMORY_FRESH_FILE
    try:
        return list(MemoryFreshFile.model_validate(_read(p)).rows)
    except ValidationError as exc:
        raise MemoryFreshDataError(f"{p}: {exc}") from exc
