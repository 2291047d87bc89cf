"""Calibration data sets for the time model: published training and serving throughputs.

The rows live in bench/data/training_throughput.yaml (issue 13) and bench/data/serving_throughput.yaml
(issue 14); bench/data/README.md explains every field and the proposed fit / held-out split. Each file
holds `split` (which source families are fitted on and which are held out) and `rows`. This module
validates them record by record and gives them back as typed rows:

    load_training_rows() -> list[TrainingRow]
    load_serving_rows() -> list[ServingRow]
    load_training_split() / load_serving_split() -> Split (fit, held-out and fresh-held-out family names)

The serving loaders read bench/data/serving_throughput.yaml, then bench/data/serving_throughput_fresh2.yaml
(a second fresh held-out set, split side `fresh2_held_out`), bench/data/serving_throughput_fresh3.yaml
(a third, side `fresh3_held_out`), bench/data/serving_throughput_fresh4.yaml (a fourth, side
`fresh4_held_out`), bench/data/serving_throughput_fresh5.yaml (a fifth, side `fresh5_held_out`) and
bench/data/serving_throughput_fresh6.yaml (a sixth, side `fresh6_held_out`) and
bench/data/serving_throughput_fresh7.yaml (a seventh, side `fresh7_held_out`, read last), each collected
blind to the serving model; given an explicit path they read that one file only.
The training loaders likewise read training_throughput.yaml, then
training_throughput_fresh2.yaml (side `fresh2_held_out`), training_throughput_fresh3.yaml (side
`fresh3_held_out`), training_throughput_fresh4.yaml (side `fresh4_held_out`),
training_throughput_fresh5.yaml (side `fresh5_held_out`), training_throughput_fresh6.yaml (side
`fresh6_held_out`), training_throughput_fresh7.yaml (side `fresh7_held_out`) and
training_throughput_fresh8.yaml (side `fresh8_held_out`), joining the files' sides;
a custom path is read alone.

No model code here: a later session fits the time model on the `fit` families and reports on the
`held_out` ones. `fresh_held_out` families were collected after the model existed, without running it
on them: the clean test set (bench/data/README.md).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal, TypeVar

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from tools.vocabulary import TrainingPrecision

DATA_DIR = Path(__file__).resolve().parent / "data"
TRAINING_FILE = DATA_DIR / "training_throughput.yaml"
SERVING_FILE = DATA_DIR / "serving_throughput.yaml"
SERVING_FRESH2_FILE = DATA_DIR / "serving_throughput_fresh2.yaml"
SERVING_FRESH3_FILE = DATA_DIR / "serving_throughput_fresh3.yaml"
SERVING_FRESH4_FILE = DATA_DIR / "serving_throughput_fresh4.yaml"
# fresh5_held_out: collected blind again (2026-11-27), from source families used in none of the earlier files
SERVING_FRESH5_FILE = DATA_DIR / "serving_throughput_fresh5.yaml"
# fresh6_held_out: a sixth blind set (2026-11-27, branch srvfresh6), new source families again, never fitted
# (bench/data/README.md, "Fresh-6 held-out set (serving)")
SERVING_FRESH6_FILE = DATA_DIR / "serving_throughput_fresh6.yaml"
# fresh7_held_out: a seventh blind set (2026-11-28, branch srvfresh7), new source families again, never
# fitted, read after fresh-6 (bench/data/README.md, "Fresh-7 held-out set (serving)")
SERVING_FRESH7_FILE = DATA_DIR / "serving_throughput_fresh7.yaml"
# what the serving loaders read by default, in this order (each later file adds its own held-out side)
SERVING_FILES = (
    SERVING_FILE,
    SERVING_FRESH2_FILE,
    SERVING_FRESH3_FILE,
    SERVING_FRESH4_FILE,
    SERVING_FRESH5_FILE,
    SERVING_FRESH6_FILE,
    SERVING_FRESH7_FILE,
)

Method = Literal["full", "lora", "qlora", "pretraining"]
TrainingFramework = Literal[
    "hf",
    "deepspeed",
    "axolotl",
    "llama-factory",
    "unsloth",
    "torchtune",
    "torchtitan",
    "megatron",
    "nemo",
    "colossalai",
    "other",
]
ServingFramework = Literal["vllm", "sglang", "tensorrt-llm", "tgi", "transformers", "other"]
Precision = Literal["bf16", "fp16", "fp8", "mxfp8", "fp4", "int8", "int4"]
LoadMode = Literal["closed_loop_concurrency", "static_batch", "offline_max_throughput", "poisson_rate"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Source(_Strict):
    url: str = Field(min_length=8)
    document: str = Field(min_length=3, description="document / table the figures come from")
    date: str = Field(min_length=4, description="publication date, or the version of the page")
    version: str | None = None


class Model(_Strict):
    name: str = Field(min_length=2)
    params_b: float = Field(gt=0, description="total parameters, billions")
    active_params_b: float | None = Field(default=None, gt=0, description="active parameters per token (MoE)")
    moe: bool

    @model_validator(mode="after")
    def _moe_has_active(self) -> Model:
        if self.moe != (self.active_params_b is not None):
            raise ValueError("active_params_b is required for MoE models and only for them")
        if self.active_params_b is not None and self.active_params_b >= self.params_b:
            raise ValueError("active_params_b must be below params_b")
        return self


class Figure(_Strict):
    metric: str = Field(min_length=2, description="what was measured, e.g. tokens_per_s_per_gpu, mfu_pct")
    value: float | str
    unit: str = Field(min_length=1, description="the unit / column heading exactly as published")


class _Row(_Strict):
    id: str = Field(pattern=r"^[a-z0-9][a-z0-9.\-]*$")
    family: str = Field(pattern=r"^[a-z0-9][a-z0-9.\-]*$", description="source family, the unit of the split")
    model: Model
    gpu: str = Field(description="GPU id in tools/catalog/gpus.yaml")
    gpu_note: str | None = None
    gpus: int = Field(ge=1)
    published: list[Figure] = Field(min_length=1)
    source: Source
    ambiguous: str | None = Field(default=None, description="why part of the set-up cannot be told")
    notes: str | None = None


class TrainingRow(_Row):
    method: Method
    nodes: int = Field(ge=1)
    precision: Precision
    seq_len: int | None = Field(default=None, ge=1)
    seq_len_note: str | None = None
    micro_batch_size: int | None = Field(default=None, ge=1)
    global_batch_size: int | None = Field(default=None, ge=1)
    batch_unit: Literal["sequences", "tokens"]
    gradient_checkpointing: bool | None
    checkpointing_note: str | None = None
    framework: TrainingFramework
    framework_detail: str | None = None
    training_precision: TrainingPrecision | None = Field(
        default=None,
        description="how the run keeps weights and optimizer states (tools.vocabulary.TrainingPrecision: "
        "mixed = FP32 master under 16-bit compute; pure-bf16 / pure-fp16 = the model loaded and trained in "
        "16 bits); null: read from framework_detail where it says (bench.time_rows.row_training_precision)",
    )
    parallelism: str | None = None
    tokens_per_s_per_gpu: float | None = Field(default=None, gt=0)
    tokens_per_s_per_gpu_basis: Literal["published", "derived"] | None = None
    derivation: str | None = None

    @model_validator(mode="after")
    def _consistent(self) -> TrainingRow:
        if (self.tokens_per_s_per_gpu is None) != (self.tokens_per_s_per_gpu_basis is None):
            raise ValueError("tokens_per_s_per_gpu and tokens_per_s_per_gpu_basis go together")
        if self.tokens_per_s_per_gpu_basis == "derived" and not self.derivation:
            raise ValueError("a derived tokens_per_s_per_gpu needs its arithmetic in `derivation`")
        if self.nodes > self.gpus:
            raise ValueError("more nodes than GPUs")
        if self.framework == "other" and not self.framework_detail:
            raise ValueError("framework 'other' needs framework_detail")
        return self


class ServingRow(_Row):
    tp: int = Field(ge=1, description="tensor-parallel size")
    pp: int = Field(default=1, ge=1, description="pipeline-parallel size")
    weights_precision: Precision | None = Field(description="null when the source does not state it")
    kv_precision: Precision | None = None
    framework: ServingFramework
    framework_detail: str | None = None
    framework_version: str | None = None
    load_mode: LoadMode
    concurrency: int | None = Field(default=None, ge=1, description="concurrent requests / static batch size")
    request_rate: str | None = Field(
        default=None, description="requests/s as published ('inf' = all at once)"
    )
    prompt_tokens: int | None = Field(default=None, ge=1)
    output_tokens: int | None = Field(default=None, ge=1)
    dataset: str | None = None
    output_tokens_per_s_total: float | None = Field(default=None, gt=0, description="whole replica")
    output_tokens_per_s_per_gpu: float | None = Field(default=None, gt=0)
    per_user_tokens_per_s: float | None = Field(default=None, gt=0)
    itl_ms: float | None = Field(default=None, gt=0)
    tpot_ms: float | None = Field(default=None, gt=0)
    ttft_ms: float | None = Field(default=None, gt=0)

    @model_validator(mode="after")
    def _consistent(self) -> ServingRow:
        figures = (
            self.output_tokens_per_s_total,
            self.output_tokens_per_s_per_gpu,
            self.per_user_tokens_per_s,
            self.itl_ms,
            self.tpot_ms,
            self.ttft_ms,
        )
        if all(f is None for f in figures):
            raise ValueError("a serving row needs at least one figure")
        if self.tp * self.pp > self.gpus:
            raise ValueError("tp x pp exceeds the GPU count")
        if self.load_mode in ("closed_loop_concurrency", "static_batch") and self.concurrency is None:
            raise ValueError(f"load_mode {self.load_mode} needs concurrency")
        if self.framework == "other" and not self.framework_detail:
            raise ValueError("framework 'other' needs framework_detail")
        return self


class Split(BaseModel):
    """Which source families are fitted on and which are held out. Further named sides (lists of
    families, e.g. `fresh_held_out` for rows collected after the model was built) are allowed: every
    side but `fit` is a held-out side, and bench/time_accuracy.py scores each one by its name."""

    model_config = ConfigDict(extra="allow", frozen=True)

    fit: list[str] = Field(min_length=1, description="families the model is fitted on")
    held_out: list[str] = Field(min_length=1, description="families reported on, never fitted")
    fresh_held_out: list[str] = Field(
        default_factory=list,
        description="families collected after the model was built, blind to it: a clean test never looked at",
    )

    @model_validator(mode="after")
    def _disjoint(self) -> Split:
        seen: dict[str, str] = {}
        for side, families in self.sides().items():
            for family in families:
                if family in seen:
                    raise ValueError(f"family {family!r} on two sides of the split: {seen[family]}, {side}")
                seen[family] = side
        return self

    def sides(self) -> dict[str, list[str]]:
        """Every side by name: fit, held_out, then any further named side, in file order."""
        out: dict[str, list[str]] = {"fit": list(self.fit), "held_out": list(self.held_out)}
        if self.fresh_held_out:
            out["fresh_held_out"] = list(self.fresh_held_out)
        for name, families in (self.model_extra or {}).items():
            if not (isinstance(families, list) and all(isinstance(f, str) for f in families)):
                raise ValueError(f"split side {name!r} must be a list of family names")
            out[name] = list(families)
        return out

    def held_out_sides(self) -> dict[str, list[str]]:
        """Every side that is never fitted on (held_out and any further named side)."""
        return {name: fams for name, fams in self.sides().items() if name != "fit"}


R = TypeVar("R", TrainingRow, ServingRow)


class CalibrationDataError(ValueError):
    """A calibration file is malformed; the message names the file, the row and the field."""


_SAFE_LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
"""libyaml's safe loader where PyYAML was built with it (the same documents, ~5x faster: the serving CV reads
every serving file once per grid point), else the pure-Python one."""


def _read(path: Path) -> dict[str, Any]:
    data = yaml.load(path.read_text(encoding="utf-8"), Loader=_SAFE_LOADER)  # noqa: S506 (a safe loader)
    if not isinstance(data, dict) or not isinstance(data.get("rows"), list):
        raise CalibrationDataError(f"{path.name}: expected a mapping with a `rows` list")
    return data


def _rows(path: Path, kind: type[R]) -> list[R]:
    out: list[R] = []
    for index, raw in enumerate(_read(path)["rows"]):
        label = raw.get("id", f"#{index}") if isinstance(raw, dict) else f"#{index}"
        try:
            out.append(kind.model_validate(raw))
        except ValidationError as exc:
            raise CalibrationDataError(f"{path.name}: row {label}: {exc}") from exc
    return out


def _split(path: Path) -> Split:
    try:
        return Split.model_validate(_read(path).get("split"))
    except ValidationError as exc:
        raise CalibrationDataError(f"{path.name}: split: {exc}") from exc


# Further training files read with the default one, in this order: each adds rows and its own held-out
# side(s) of the split (fresh2_held_out: collected blind to the time model after fresh_held_out had been
# scored; fresh3_held_out: collected blind again, after fresh2_held_out had been scored and read;
# fresh4_held_out: collected blind again, from source families used in none of the earlier files;
# fresh5_held_out: a fifth blind set from new families, never fitted (bench/data/README.md, "Fresh-5 held-out
# set (training)");
# fresh6_held_out: a sixth blind set from new families (model-card run goodputs, LitGPT's A10G fine-tunes),
# never fitted (bench/data/README.md, "Fresh-6 held-out set (training)");
# fresh7_held_out: a seventh blind set from new families (measured benchmark CSVs, READMEs, MoE statements),
# never fitted, read after fresh-6 (bench/data/README.md, "Fresh-7 held-out set (training)");
# fresh8_held_out: an eighth blind set from new families (NeMo 24.12 docs, Megatron-Bridge 25.09 tables and
# model verification cards, issue/PR measurements), never fitted, read after fresh-7 (bench/data/README.md,
# "Fresh-8 held-out set (training)");
# b200_held_out: B200 rows collected blind for the B200 efficiency band, issue 13).
TRAINING_FRESH2_FILE = DATA_DIR / "training_throughput_fresh2.yaml"
TRAINING_FRESH3_FILE = DATA_DIR / "training_throughput_fresh3.yaml"
TRAINING_FRESH4_FILE = DATA_DIR / "training_throughput_fresh4.yaml"
TRAINING_FRESH5_FILE = DATA_DIR / "training_throughput_fresh5.yaml"
TRAINING_FRESH6_FILE = DATA_DIR / "training_throughput_fresh6.yaml"
TRAINING_FRESH7_FILE = DATA_DIR / "training_throughput_fresh7.yaml"
TRAINING_FRESH8_FILE = DATA_DIR / "training_throughput_fresh8.yaml"
TRAINING_B200_FILE = DATA_DIR / "training_throughput_b200.yaml"
# device_held_out: measured by this repository on a lent H200 (bench/device_training_measure.py, 2026-11-27),
# never fitted but for its HF LoRA/full pairs (bench/time_fit.ADAPTER_PAIR_FAMILIES, tim15; README
# "Measured on a lent GPU" and "An HF adapter factor")
TRAINING_DEVICE_FILE = DATA_DIR / "training_throughput_device.yaml"
# device2_held_out: a second set measured here (other architectures, set-ups chosen before the run) on a lent
# H200, 2026-11-28, never fitted but for its HF LoRA/full pairs (as device_held_out; README "Measured on
# a lent GPU: second set")
TRAINING_DEVICE2_FILE = DATA_DIR / "training_throughput_device2.yaml"
# device3_held_out: a third set measured here on a lent H100 (set-ups chosen before any change made for the
# second), 2026-11-28, never fitted, the session's final held-out check (README, the same section)
TRAINING_DEVICE3_FILE = DATA_DIR / "training_throughput_device3.yaml"
# device4_held_out: a fourth set measured here on a lent H200 (14B full, 24-34B LoRA, MHA models; set-ups
# chosen before the run), 2026-11-28 (eleventh session), never fitted (README, "... fourth set")
TRAINING_DEVICE4_FILE = DATA_DIR / "training_throughput_device4.yaml"
# device5_held_out: a fifth set, measured on a lent H200 right after the fourth and kept unscored until the
# session's models were final (README, "... fifth set")
TRAINING_DEVICE5_FILE = DATA_DIR / "training_throughput_device5.yaml"
TRAINING_EXTRA_FILES = (
    TRAINING_FRESH2_FILE,
    TRAINING_FRESH3_FILE,
    TRAINING_FRESH4_FILE,
    TRAINING_FRESH5_FILE,
    TRAINING_FRESH6_FILE,
    TRAINING_FRESH7_FILE,
    TRAINING_FRESH8_FILE,
    TRAINING_DEVICE_FILE,
    TRAINING_DEVICE2_FILE,
    TRAINING_DEVICE3_FILE,
    TRAINING_DEVICE4_FILE,
    TRAINING_DEVICE5_FILE,
    TRAINING_B200_FILE,
)


def _training_files(path: Path) -> list[Path]:
    """The training file, plus TRAINING_EXTRA_FILES when it is the default one (a custom path is read
    alone)."""
    return [path, *TRAINING_EXTRA_FILES] if path == TRAINING_FILE else [path]


def load_training_rows(path: Path = TRAINING_FILE) -> list[TrainingRow]:
    """Every published training-throughput row, validated (the default file and its extra files)."""
    return [row for file in _training_files(path) for row in _rows(file, TrainingRow)]


def load_serving_rows(path: Path | None = None) -> list[ServingRow]:
    """Every published serving-throughput row, validated: all of SERVING_FILES, or the one file at `path`."""
    return [row for p in ((path,) if path is not None else SERVING_FILES) for row in _rows(p, ServingRow)]


def load_training_split(path: Path = TRAINING_FILE) -> Split:
    """The proposed fit / held-out split of the training rows, by source family. An extra file adds its own
    named side(s) (e.g. `fresh2_held_out`); a side already declared, or a family on two sides, is refused."""
    files = _training_files(path)
    if len(files) == 1:
        return _split(path)
    sides: dict[str, Any] = dict(_read(path).get("split") or {})
    for extra in files[1:]:
        extra_split = _read(extra).get("split")
        if not isinstance(extra_split, dict):
            raise CalibrationDataError(f"{extra.name}: expected a `split` mapping of its own side(s)")
        for name, families in extra_split.items():
            if name in sides:
                raise CalibrationDataError(f"{extra.name}: split side {name!r} is already declared")
            sides[name] = families
    try:
        return Split.model_validate(sides)
    except ValidationError as exc:
        names = " + ".join(f.name for f in files)
        raise CalibrationDataError(f"{names}: split: {exc}") from exc


def load_serving_split(path: Path | None = None) -> Split:
    """The proposed fit / held-out split of the serving rows, by source family. By default the sides of every
    file in SERVING_FILES are joined (a side named in two files gets both lists), so a family on two sides, in
    one file or across files, is refused."""
    if path is not None:
        return _split(path)
    merged: dict[str, list[str]] = {}
    for p in SERVING_FILES:
        sides = _read(p).get("split")
        if not isinstance(sides, dict):
            raise CalibrationDataError(f"{p.name}: expected a `split` mapping")
        for name, families in sides.items():
            if not isinstance(families, list):
                raise CalibrationDataError(f"{p.name}: split side {name!r} must be a list of family names")
            merged.setdefault(name, []).extend(families)
    try:
        return Split.model_validate(merged)
    except ValidationError as exc:
        names = ", ".join(p.name for p in SERVING_FILES)
        raise CalibrationDataError(f"{names}: split: {exc}") from exc


def rows_in(rows: list[R], families: list[str]) -> list[R]:
    """The rows whose source family is one of `families`."""
    wanted = set(families)
    return [r for r in rows if r.family in wanted]
