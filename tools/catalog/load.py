"""Load and query the bundled catalogs (GPUs, models, prices, egress, storage, estimates).

The data lives in YAML files beside this module and is validated record by record with the types in
tools.catalog.schema; a malformed record raises InputError naming the file, the record and the field.
The bundled catalog is read once per process (immutable data, cached). A user's price file
(`--prices FILE`, YAML or CSV) overrides bundled records by key and may add new ones:

- prices by (provider, gpu, pricing, region)
- egress schedules by cloud, storage prices by (provider, tier), estimates by name.

Ids and aliases resolve case-, space-, dash- and dot-insensitively, with organisation prefixes
("meta-llama/"), a "Meta-" prefix, variant tokens ("-Instruct", "-chat", "-hf", "-it", "-base") and
quantisation tokens ("-AWQ", "-bnb-4bit", ...) ignored, and word order forgiven when unambiguous.
Unknown names raise InputError listing the three closest ids.
"""

from __future__ import annotations

import csv
import datetime as dt
import difflib
import functools
import math
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import yaml
from pydantic import BaseModel, ValidationError

from tools.catalog.refresh import overlay_path
from tools.catalog.schema import (
    EgressSchedule,
    Estimate,
    GpuSpec,
    ModelArch,
    PriceRecord,
    StoragePrice,
)
from tools.errors import InputError

CATALOG_DIR = Path(__file__).resolve().parent
GPUS_FILE = CATALOG_DIR / "gpus.yaml"
MODELS_FILE = CATALOG_DIR / "models.yaml"
PRICES_FILE = CATALOG_DIR / "prices.yaml"
COSTS_FILE = CATALOG_DIR / "costs.yaml"

# Provider whose storage price stands in when a provider has no storage record of its own.
DEFAULT_STORAGE_PROVIDER = "default"

# Words that name a variant of the same weights/architecture, dropped when matching names.
# (quantised and fine-tuned variants share the base model's architecture)
_IGNORED_TOKENS = frozenset(
    {"instruct", "chat", "hf", "it", "base", "pt"}
    | {"awq", "gptq", "gguf", "bnb", "4bit", "8bit", "fp8", "int4"}
)
_VENDOR_PREFIXES = ("meta", "nvidia", "amd", "intel")

# libyaml's safe loader when available (about 10x faster than the pure-Python one); same semantics.
_YAML_LOADER: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

M = TypeVar("M", bound=BaseModel)
Record = GpuSpec | ModelArch | PriceRecord | EgressSchedule | StoragePrice | Estimate


# --------------------------------------------------------------------------- name normalisation
def _tokens(name: str) -> list[str]:
    s = name.strip().lower()
    if "/" in s:
        s = s.rsplit("/", 1)[1]
    tokens = [t for t in re.split(r"[\s_\-]+", s) if t]
    while len(tokens) > 1 and tokens[0] in _VENDOR_PREFIXES:
        tokens = tokens[1:]
    return [t for t in tokens if t not in _IGNORED_TOKENS] or tokens


def _key(tokens: Iterable[str]) -> str:
    return re.sub(r"[^a-z0-9]", "", "".join(tokens))


def normalize_name(name: str) -> str:
    """Matching key of an id or alias: 'meta-llama/Meta-Llama-3-70B-Instruct' -> 'llama370b'.

    Lower-cases; drops an organisation prefix ('org/'), a leading vendor word ('Meta-', 'NVIDIA '),
    variant words (instruct, chat, hf, it, base, pt); then removes every character that is not a letter
    or digit (spaces, dashes, dots, underscores).
    """
    return _key(_tokens(name))


_SIZE_TOKEN = re.compile(r"^(\d+(?:\.\d+)?)b$")


def _split_size(name: str) -> tuple[str, float | None]:
    """('llama3', 70.0) for 'Llama-3-70B': the name without its size token, and the size in billions."""
    tokens = _tokens(name)
    for i, t in enumerate(tokens):
        m = _SIZE_TOKEN.match(t)
        if m:
            return _key(tokens[:i] + tokens[i + 1 :]), float(m.group(1))
    return _key(tokens), None


def _similarity(query: str, candidate: str) -> float:
    """0..2: name similarity, plus closeness of the parameter size when both names carry one.

    'llama-3-7b' is closer to llama-3-8b (same name, size 8 vs 7) than to llama-3-70b, which plain
    string distance would pick.
    """
    q_base, q_size = _split_size(query)
    c_base, c_size = _split_size(candidate)
    if q_size is not None and c_size is not None:
        size_closeness = max(0.0, 1.0 - abs(math.log10(q_size / c_size))) if q_size and c_size else 0.0
        return difflib.SequenceMatcher(None, q_base, c_base).ratio() + size_closeness
    return 2 * difflib.SequenceMatcher(None, normalize_name(query), normalize_name(candidate)).ratio() - 0.5


# --------------------------------------------------------------------------- file reading
def _display(path: Path) -> str:
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def _read_yaml(path: Path) -> dict[str, Any]:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError(f"{_display(path)}: file not found; check the path") from None
    except OSError as exc:
        raise InputError(f"{_display(path)}: cannot read ({exc.strerror}); check the path") from None
    try:
        data = yaml.load(text, Loader=_YAML_LOADER)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" line {mark.line + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or "invalid YAML"
        raise InputError(f"{_display(path)}:{where}: {problem}; fix the YAML syntax") from None
    if data is None:
        return {}
    if not isinstance(data, dict):
        kind = type(data).__name__
        raise InputError(f"{_display(path)}: expected a mapping of sections (e.g. 'prices:'), got a {kind}")
    return data


_CSV_LIST_FIELDS = {"gpus_per_node"}
_CSV_BOOL_FIELDS = {"eu", "managed", "egress_free", "negotiated"}
_CSV_TRUE = {"1", "true", "yes", "y"}
_CSV_FALSE = {"0", "false", "no", "n"}


def _read_price_csv(path: Path) -> dict[str, Any]:
    """A CSV of price records: one row per record, header = PriceRecord field names; empty cell = unset.

    gpus_per_node takes several values separated by ';' (e.g. '1;8').
    """
    try:
        with path.open(newline="", encoding="utf-8-sig") as fh:  # -sig: Excel's byte-order mark
            rows = list(csv.DictReader(fh))
    except FileNotFoundError:
        raise InputError(f"{_display(path)}: file not found; check the path") from None
    except (OSError, csv.Error, UnicodeDecodeError) as exc:
        raise InputError(f"{_display(path)}: cannot read as CSV ({exc}); save it as UTF-8 CSV") from None
    records: list[dict[str, Any]] = []
    for row in rows:
        rec: dict[str, Any] = {}
        for key, value in row.items():
            if key is None or value is None or value.strip() == "":
                continue
            key, value = key.strip(), value.strip()
            if key in _CSV_LIST_FIELDS:
                rec[key] = [v.strip() for v in value.split(";") if v.strip()]
            elif key in _CSV_BOOL_FIELDS and value.lower() in _CSV_TRUE | _CSV_FALSE:
                rec[key] = value.lower() in _CSV_TRUE  # anything else goes to pydantic, which names it
            else:
                rec[key] = value
        records.append(rec)
    return {"prices": records}


def _record_label(raw: object, index: int, key_fields: Sequence[str]) -> str:
    label = f"record {index + 1}"
    if isinstance(raw, Mapping):
        parts = [f"{k}={raw[k]!r}" for k in key_fields if k in raw and raw[k] is not None]
        if parts:
            label += f" ({', '.join(parts)})"
    return label


def _validate_records(
    model: type[M], raw: object, path: Path, section: str, key_fields: Sequence[str]
) -> tuple[M, ...]:
    """Validate a section's list of records; the first error names file, section, record and field."""
    if raw is None:
        return ()
    if not isinstance(raw, list):
        raise InputError(f"{_display(path)}: section '{section}' must be a list of records")
    out: list[M] = []
    for i, item in enumerate(raw):
        label = _record_label(item, i, key_fields)
        if not isinstance(item, Mapping):
            raise InputError(f"{_display(path)}: {section} {label}: expected a mapping of fields")
        try:
            out.append(model.model_validate(dict(item)))
        except ValidationError as exc:
            err = exc.errors()[0]
            loc = ".".join(str(p) for p in err["loc"]) or "(record)"
            msg = err["msg"]
            if err["type"] == "missing":
                msg = "missing (required)"
            elif err["type"] == "extra_forbidden":
                msg = "unknown field (check the spelling)"
            more = f" (+{exc.error_count() - 1} more)" if exc.error_count() > 1 else ""
            raise InputError(f"{_display(path)}: {section} {label}: field '{loc}': {msg}{more}") from None
    return tuple(out)


# --------------------------------------------------------------------------- the catalog
def _closest(query: str, records: Iterable[GpuSpec | ModelArch], kind: str) -> InputError:
    """InputError for an unknown id, listing the three most similar record ids."""
    best: dict[str, float] = {}
    for rec in records:
        score = max(_similarity(query, n) for n in (rec.id, rec.name, *rec.aliases))
        best[rec.id] = score
    close = sorted(best, key=lambda i: -best[i])[:3]
    return InputError(
        f"unknown {kind} '{query}'; closest: {', '.join(close)} (list all with `gpu-advisor catalog {kind}s`)"
    )


def _index(records: Iterable[GpuSpec | ModelArch], path: Path, kind: str) -> dict[str, str]:
    """Normalised name -> id for ids and aliases; two records claiming one name is a data error."""
    index: dict[str, str] = {}
    for rec in records:
        for name in (rec.id, rec.name, *rec.aliases):
            key = normalize_name(name)
            if not key:
                continue
            owner = index.setdefault(key, rec.id)
            if owner != rec.id:
                raise InputError(
                    f"{_display(path)}: {kind} '{rec.id}': name '{name}' also names '{owner}'; "
                    "make aliases unique"
                )
    return index


def _loose_key(name: str) -> str:
    """Word-order-insensitive key: 'A100 80GB PCIe' and 'A100 PCIe 80GB' -> same key."""
    return "|".join(sorted(re.sub(r"[^a-z0-9]", "", t) for t in _tokens(name)))


def _loose_index(records: Iterable[GpuSpec | ModelArch]) -> dict[str, str]:
    """Loose key -> id, keeping only keys that name one record."""
    owners: dict[str, set[str]] = {}
    for rec in records:
        for name in (rec.id, rec.name, *rec.aliases):
            owners.setdefault(_loose_key(name), set()).add(rec.id)
    return {k: next(iter(v)) for k, v in owners.items() if len(v) == 1}


@dataclass(frozen=True, eq=False)
class Catalog:
    """All catalog records, immutable, with lookups. Build with `load_catalog()`."""

    gpus: tuple[GpuSpec, ...]
    models: tuple[ModelArch, ...]
    prices: tuple[PriceRecord, ...]
    egress: tuple[EgressSchedule, ...]
    storage: tuple[StoragePrice, ...]
    estimates: tuple[Estimate, ...]
    files: tuple[str, ...] = ()
    _gpu_index: dict[str, str] = field(default_factory=dict, repr=False)
    _model_index: dict[str, str] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        if not self._gpu_index:
            object.__setattr__(self, "_gpu_index", _index(self.gpus, Path("gpus"), "gpu"))
        if not self._model_index:
            object.__setattr__(self, "_model_index", _index(self.models, Path("models"), "model"))

    # ---- lookups ------------------------------------------------------------------------
    @functools.cached_property
    def _gpu_loose(self) -> dict[str, str]:
        return _loose_index(self.gpus)

    @functools.cached_property
    def _model_loose(self) -> dict[str, str]:
        return _loose_index(self.models)

    def _gpu_id(self, name: str) -> str | None:
        return self._gpu_index.get(normalize_name(name)) or self._gpu_loose.get(_loose_key(name))

    def _model_id(self, name: str) -> str | None:
        return self._model_index.get(normalize_name(name)) or self._model_loose.get(_loose_key(name))

    def gpu(self, id_or_alias: str) -> GpuSpec:
        """The GPU with this id or alias ('H100 SXM', 'h100-sxm', 'NVIDIA H100 80GB HBM3').

        Word order is forgiven when unambiguous ('A100 PCIe 80GB' = 'A100 80GB PCIe').
        """
        gid = self._gpu_id(id_or_alias)
        if gid is None:
            raise _closest(id_or_alias, self.gpus, "gpu")
        return next(g for g in self.gpus if g.id == gid)

    def model(self, id_or_alias: str) -> ModelArch:
        """The model with this id or alias ('Llama 3 70B', 'meta-llama/Meta-Llama-3-70B-Instruct')."""
        mid = self._model_id(id_or_alias)
        if mid is None:
            raise _closest(id_or_alias, self.models, "model")
        return next(m for m in self.models if m.id == mid)

    def has_gpu(self, id_or_alias: str) -> bool:
        return self._gpu_id(id_or_alias) is not None

    def has_model(self, id_or_alias: str) -> bool:
        return self._model_id(id_or_alias) is not None

    def prices_for(
        self,
        gpu_id: str,
        *,
        pricing: str | None = None,
        eu: bool | None = None,
        provider: str | None = None,
    ) -> list[PriceRecord]:
        """Price records for a GPU (id or alias), cheapest first; optional filters.

        `eu=True` keeps only EU-region offers; `provider` matches case-insensitively.
        """
        gid = self.gpu(gpu_id).id
        recs = [
            p
            for p in self.prices
            if p.gpu == gid
            and (pricing is None or p.pricing == pricing)
            and (eu is None or p.eu == eu)
            and (provider is None or p.provider.lower() == provider.lower())
        ]
        return sorted(recs, key=lambda p: (p.usd_per_gpu_hour, p.provider, p.region or ""))

    def egress_for(self, cloud: str) -> EgressSchedule:
        """The internet-egress schedule of a cloud ('aws', 'gcp', 'azure', ...)."""
        key = cloud.strip().lower()
        for e in self.egress:
            if e.cloud.lower() == key:
                return e
        known = ", ".join(e.cloud for e in self.egress)
        raise InputError(f"no egress schedule for '{cloud}'; known: {known}")

    def storage_for(self, provider: str, tier: str = "standard") -> StoragePrice:
        """Object-storage price of a provider (any tier if `tier` has no record).

        Product names fall back to their provider ('runpod-secure' -> 'runpod'). A provider without a
        record gets the 'default' record (an S3-Standard-like rate, named in the
        record's source) so that a TCO can still be drawn; the caller should record it as an assumption.
        """
        key = provider.strip().lower()
        mine = [s for s in self.storage if s.provider.lower() == key]
        if not mine:  # 'runpod-secure' -> 'runpod', 'aws-sagemaker' -> 'aws'
            base = key.split("-", 1)[0]
            mine = [s for s in self.storage if s.provider.lower() == base]
        for s in mine:
            if s.tier == tier:
                return s
        if mine:
            return mine[0]
        for s in self.storage:
            if s.provider == DEFAULT_STORAGE_PROVIDER:
                return s
        raise InputError(
            f"no storage price for '{provider}' and no 'default' record; add one to the price file"
        )

    def estimate(self, name: str) -> Estimate:
        """A named estimate, e.g. 'managed_premium_fraction' (0.30, seed 001)."""
        for e in self.estimates:
            if e.name == name:
                return e
        known = ", ".join(sorted(e.name for e in self.estimates))
        raise InputError(f"unknown estimate '{name}'; known: {known}")

    def as_of_dates(self) -> dict[str, dt.date]:
        """Newest as_of per section ('gpus', 'models', 'prices', ...) plus 'prices_oldest'."""
        out: dict[str, dt.date] = {}
        sections: dict[str, Sequence[Record]] = {
            "gpus": self.gpus,
            "models": self.models,
            "prices": self.prices,
            "egress": self.egress,
            "storage": self.storage,
            "estimates": self.estimates,
        }
        for name, recs in sections.items():
            if recs:
                out[name] = max(r.as_of for r in recs)
        if self.prices:
            out["prices_oldest"] = min(p.as_of for p in self.prices)
        return out


# --------------------------------------------------------------------------- loading
def _check_prices(prices: Iterable[PriceRecord], gpu_ids: set[str], path: Path) -> None:
    for p in prices:
        if p.gpu not in gpu_ids:
            close = difflib.get_close_matches(p.gpu, sorted(gpu_ids), n=3, cutoff=0.4)
            hint = f"; closest: {', '.join(close)}" if close else ""
            raise InputError(
                f"{_display(path)}: prices record (provider={p.provider!r}, gpu={p.gpu!r}): "
                f"field 'gpu': unknown GPU id{hint}"
            )


def _check_egress(schedules: Iterable[EgressSchedule], path: Path) -> None:
    for e in schedules:
        bounds = [t.up_to_gb for t in e.tiers]
        finite = [b for b in bounds if b is not None]
        if finite != sorted(finite) or None in bounds[:-1]:
            raise InputError(
                f"{_display(path)}: egress record (cloud={e.cloud!r}): field 'tiers': "
                "tiers must ascend by up_to_gb with only the last one open-ended"
            )


def _check_models(models: Iterable[ModelArch], path: Path) -> None:
    for m in models:
        if m.n_heads % m.n_kv_heads:
            raise InputError(
                f"{_display(path)}: models record (id={m.id!r}): field 'n_kv_heads': "
                f"{m.n_kv_heads} does not divide n_heads {m.n_heads}"
            )
        if (m.n_experts is None) != (m.moe_intermediate_size is None):
            raise InputError(
                f"{_display(path)}: models record (id={m.id!r}): field 'moe_intermediate_size': "
                "set it together with n_experts (and n_active_experts)"
            )


def _unique(records: Iterable[Any], key: Callable[[Any], object], path: Path, section: str) -> None:
    seen: set[object] = set()
    for r in records:
        k = key(r)
        if k in seen:
            raise InputError(f"{_display(path)}: {section}: duplicate record {k!r}; keep one")
        seen.add(k)


def price_key(p: PriceRecord) -> tuple[str, str, str, str]:
    """The key a user price file overrides by: (provider, gpu, pricing, region), case-insensitive."""
    return (p.provider.lower(), p.gpu, p.pricing, (p.region or "").lower())


def _read_sections(path: Path) -> dict[str, Any]:
    if path.suffix.lower() == ".csv":
        return _read_price_csv(path)
    return _read_yaml(path)


_SECTIONS = {"gpus", "models", "prices", "egress", "storage", "estimates"}


CostSections = tuple[
    tuple[PriceRecord, ...], tuple[EgressSchedule, ...], tuple[StoragePrice, ...], tuple[Estimate, ...]
]


def _parse_cost_sections(data: dict[str, Any], path: Path) -> CostSections:
    unknown = {k for k in data if not str(k).startswith("_")} - _SECTIONS  # "_x": YAML anchors only
    if unknown:
        raise InputError(
            f"{_display(path)}: unknown section(s) {', '.join(sorted(unknown))}; "
            "use prices, egress, storage, estimates"
        )
    prices = _validate_records(
        PriceRecord, data.get("prices"), path, "prices", ("provider", "gpu", "pricing", "region")
    )
    egress = _validate_records(EgressSchedule, data.get("egress"), path, "egress", ("cloud",))
    storage = _validate_records(StoragePrice, data.get("storage"), path, "storage", ("provider", "tier"))
    estimates = _validate_records(Estimate, data.get("estimates"), path, "estimates", ("name",))
    _check_egress(egress, path)
    _unique(prices, price_key, path, "prices")
    _unique(egress, lambda e: e.cloud.lower(), path, "egress")
    _unique(storage, lambda s: (s.provider.lower(), s.tier), path, "storage")
    _unique(estimates, lambda e: e.name, path, "estimates")
    return prices, egress, storage, estimates


def load_catalog_files(
    *,
    gpus_file: Path = GPUS_FILE,
    models_file: Path = MODELS_FILE,
    prices_file: Path = PRICES_FILE,
    costs_file: Path = COSTS_FILE,
) -> Catalog:
    """Read and validate a full set of catalog files (uncached; `load_catalog` caches the bundled set).

    Cross-checks: unique ids and names, price records naming known GPUs, egress tiers ascending,
    MoE fields set together, KV heads dividing query heads.
    """
    gpus = _validate_records(GpuSpec, _read_yaml(gpus_file).get("gpus"), gpus_file, "gpus", ("id",))
    raw_models = _read_yaml(models_file).get("models")
    models = _validate_records(ModelArch, raw_models, models_file, "models", ("id",))
    _unique(gpus, lambda g: g.id, gpus_file, "gpus")
    _unique(models, lambda m: m.id, models_file, "models")
    _check_models(models, models_file)
    prices, egress, storage, estimates = _parse_cost_sections(_read_yaml(prices_file), prices_file)
    p2, egress2, storage2, estimates2 = _parse_cost_sections(_read_yaml(costs_file), costs_file)
    prices += p2
    egress += egress2
    storage += storage2
    estimates += estimates2
    for recs, key, section in (
        (prices, price_key, "prices"),
        (egress, lambda e: e.cloud.lower(), "egress"),
        (storage, lambda s: (s.provider.lower(), s.tier), "storage"),
        (estimates, lambda e: e.name, "estimates"),
    ):
        _unique(recs, key, costs_file, section)
    gpu_ids = {g.id for g in gpus}
    _check_prices(prices[: len(prices) - len(p2)], gpu_ids, prices_file)
    _check_prices(p2, gpu_ids, costs_file)
    return Catalog(
        gpus=gpus,
        models=models,
        prices=prices,
        egress=egress,
        storage=storage,
        estimates=estimates,
        files=tuple(str(p) for p in (gpus_file, models_file, prices_file, costs_file)),
        _gpu_index=_index(gpus, gpus_file, "gpu"),
        _model_index=_index(models, models_file, "model"),
    )


@functools.cache
def _bundled() -> Catalog:
    return load_catalog_files()


def _override(bundled: tuple[M, ...], user: tuple[M, ...], key: Callable[[M], object]) -> tuple[M, ...]:
    """Bundled records with same-key user records replaced in place; new user records appended."""
    by_key = {key(u): u for u in user}
    out = [by_key.pop(key(b), b) for b in bundled]
    out.extend(u for u in user if key(u) in by_key)
    return tuple(out)


def load_catalog(prices_file: str | Path | None = None) -> Catalog:
    """The bundled catalog, `catalog update`'s overlay (tools.catalog.refresh) and a user's price file.

    The user file may hold any of the sections prices, egress, storage, estimates (a CSV holds price
    records). Each record replaces the bundled record with the same key - prices by (provider, gpu,
    pricing, region), egress by cloud, storage by (provider, tier), estimates by name - or is added.
    Price records may name GPUs by id or alias, and are negotiated rates (no price spread) unless they
    say `negotiated: false`. Errors name the file, the record and the field.
    """
    base = _bundled()
    overlay = overlay_path()  # `gpu-advisor catalog update`'s dated prices, over the bundled ones
    if overlay is not None and overlay.is_file():
        base = _overlaid(str(overlay), overlay.stat().st_mtime_ns)
    return base if prices_file is None else _apply(base, Path(prices_file).expanduser(), negotiated=True)


@functools.cache
def _overlaid(path: str, mtime_ns: int) -> Catalog:
    return _apply(_bundled(), Path(path), negotiated=False)


def _apply(base: Catalog, path: Path, *, negotiated: bool) -> Catalog:
    data = _read_sections(path)
    if "prices" in data and isinstance(data["prices"], list):
        fixed = []
        for item in data["prices"]:
            if isinstance(item, Mapping):
                # a user's file holds the rates they pay (README: "your negotiated rates"): firm, no
                # price spread, unless a record says negotiated: false (a market quote copied in)
                item = {"negotiated": negotiated, **item}
                if isinstance(item.get("gpu"), str) and base.has_gpu(item["gpu"]):  # GPU aliases
                    item = {**item, "gpu": base.gpu(item["gpu"]).id}
            fixed.append(item)
        data = {**data, "prices": fixed}
    prices, egress, storage, estimates = _parse_cost_sections(data, path)
    _check_prices(prices, {g.id for g in base.gpus}, path)
    return Catalog(
        gpus=base.gpus,
        models=base.models,
        prices=_override(base.prices, prices, price_key),
        egress=_override(base.egress, egress, lambda e: e.cloud.lower()),
        storage=_override(base.storage, storage, lambda s: (s.provider.lower(), s.tier)),
        estimates=_override(base.estimates, estimates, lambda e: e.name),
        files=(*base.files, str(path)),
        _gpu_index=base._gpu_index,
        _model_index=base._model_index,
    )
