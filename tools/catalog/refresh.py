"""Fresh prices (issue 16): read a maintained price source's files and write a dated price overlay the
catalog loads over the bundled prices (tools.catalog.load.load_catalog); the bundled catalog stays the
offline default. No network here: the caller points at files already fetched (a SkyPilot catalog
`<schema>/<cloud>/vms.csv` tree, or gpuhunt's `<provider>.csv` catalogs, e.g. GPUHUNT_CATALOG_DIR).

Mapping (tools/catalog/reference/README.md, 'Mapping a source row to PriceRecord'): price per instance
-hour / GPUs per instance = USD per GPU-hour; one figure per (provider, GPU, pricing): the lowest per-GPU
price in the bundled record's region when the source has that region, else the lowest anywhere. Only
prices the bundled catalog already has are refreshed (its tier, fabric, node sizes and egress terms are
curated; a source row without a bundled record is listed as skipped, to add by hand). A refreshed price
more than SANITY_RATIO x away from the bundled one is skipped as a likely unit error.
"""

from __future__ import annotations

import csv
import datetime as dt
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import yaml

from tools.catalog.schema import PriceRecord
from tools.errors import InputError

OVERLAY_ENV = "GPU_ADVISOR_PRICE_OVERLAY"
"""Path of the refreshed price overlay; empty: none. Unset: DEFAULT_OVERLAY."""
DEFAULT_OVERLAY = Path("~/.config/gpu-advisor/prices.refreshed.yaml")
SANITY_RATIO = 3.0
"""README check: a refreshed price > 3x from the bundled one is most likely an instance-vs-GPU unit error."""
_SKYPILOT_COLUMNS = {"InstanceType", "AcceleratorName", "AcceleratorCount", "Price"}
_GPUHUNT_COLUMNS = {"instance_name", "location", "price", "gpu_count", "gpu_name", "spot"}
_PLACEHOLDER_USD = 700.0  # GCP's placeholder for an unavailable price (README)
_NAMES = {
    "H100NVL": "h100-nvl",
    "H100-NVL": "h100-nvl",
    "H200": "h200",
    "H200-SXM": "h200",
    "B200": "b200",
    "B300": "b300",
    "GH200": "gh200",
    "L40S": "l40s",
    "L4": "l4",
    "A10G": "a10g",
    "A10": "a10",
    "RTX4090": "rtx-4090",
    "RTX-4090": "rtx-4090",
    "RTX5090": "rtx-5090",
    "RTX3090": "rtx-3090",
    "MI300X": "mi300x",
    "MI325X": "mi325x",
}
_SXM_HINTS = ("sxm", "p4d", "p4de", "p5", "a2-", "a3-", "nd96")


@dataclass(frozen=True)
class SourceRow:
    """One priced instance of a source file, per GPU-hour, in the catalog's names."""

    provider: str
    gpu: str
    pricing: str
    usd_per_gpu_hour: float
    region: str
    what: str


def gpu_id(name: str, memory_gb: float | None, instance: str, provider: str) -> str | None:
    """The catalog GPU id of a source's GPU name (README mapping), or None when not one we list."""
    n = name.strip().upper().replace(" ", "")
    inst = instance.lower()
    sxm = any(h in inst for h in _SXM_HINTS) or n.endswith("-SXM")
    if n.startswith("H100") and n not in ("H100NVL", "H100-NVL"):
        pcie = "pcie" in inst or (provider.startswith("runpod") and not sxm)
        return "h100-pcie" if pcie else "h100-sxm"
    if n.startswith("A100"):
        big = "80" in n or (memory_gb is not None and memory_gb > 60)
        return f"a100-{'80' if big else '40'}gb-{'sxm' if sxm else 'pcie'}"
    return _NAMES.get(n)


def _provider(source: str, instance: str, location: str, gpus: int) -> str:
    s = source.lower()
    if s in ("lambda", "lambdalabs"):
        return "lambda-cluster" if gpus >= 8 else "lambda"
    if s == "runpod":
        secure = instance.upper().endswith("_SECURE") or "-" in location
        return "runpod-secure" if secure else "runpod-community"
    return {"vastai": "vast-ai", "vast": "vast-ai"}.get(s, s)


def _float(x: str | None) -> float | None:
    try:
        v = float(x) if x not in (None, "") else None
    except ValueError:
        return None
    return v if v is not None and 0 < v < _PLACEHOLDER_USD else None


def _rows(path: Path) -> tuple[list[str], list[dict[str, str]]]:
    try:
        with path.open(newline="", encoding="utf-8") as fh:
            reader = csv.DictReader(fh)
            return list(reader.fieldnames or []), list(reader)
    except (OSError, UnicodeDecodeError, csv.Error) as exc:
        raise InputError(f"{path}: cannot read the price file ({exc})") from exc


def read_skypilot(path: Path, header: list[str], rows: list[dict[str, str]]) -> list[SourceRow]:
    """A SkyPilot `<schema>/<cloud>/vms.csv` (columns by name; the cloud is the folder's name)."""
    cloud, schema = path.parent.name, path.parent.parent.name
    out = []
    for r in rows:
        count = _float(r.get("AcceleratorCount"))
        inst = r.get("InstanceType") or ""
        if not count or not r.get("AcceleratorName") or not inst:
            continue  # CPU rows; GCP accelerator-only rows (priced apart from their VM)
        n = int(count)
        gpu = gpu_id(r["AcceleratorName"], None, inst, cloud)
        region = r.get("Region") or ""
        for pricing, col in (("on_demand", "Price"), ("spot", "SpotPrice")):
            usd = _float(r.get(col))
            if gpu is None or usd is None:
                continue
            out.append(
                SourceRow(
                    provider=_provider(cloud, inst, region, n),
                    gpu=gpu,
                    pricing=pricing,
                    usd_per_gpu_hour=usd / n,
                    region=region,
                    what=f"skypilot-catalog {schema} {cloud}/vms.csv: {inst} {region}",
                )
            )
    return out


def read_gpuhunt(path: Path, rows: list[dict[str, str]]) -> list[SourceRow]:
    """A gpuhunt `<provider>.csv` catalog (CATALOG_V2_FIELDS; price per instance-hour)."""
    source = path.stem
    out = []
    for r in rows:
        count, usd = _float(r.get("gpu_count")), _float(r.get("price"))
        if not count or usd is None:
            continue
        n, inst, loc = int(count), r.get("instance_name") or "", r.get("location") or ""
        gpu = gpu_id(r.get("gpu_name") or "", _float(r.get("gpu_memory")), inst, source)
        if gpu is None:
            continue
        if source == "gcp" and len(loc) > 2 and loc[-2] == "-":
            loc = loc[:-2]  # zone -> region
        out.append(
            SourceRow(
                provider=_provider(source, inst, loc, n),
                gpu=gpu,
                pricing="spot" if (r.get("spot") or "").strip().lower() == "true" else "on_demand",
                usd_per_gpu_hour=usd / n,
                region=loc,
                what=f"gpuhunt catalog {source}.csv: {inst} {loc}",
            )
        )
    return out


def read_source(path: Path) -> list[SourceRow]:
    """Every priced GPU row of a source file, or of every .csv under a folder (format by header)."""
    path = path.expanduser()
    if not path.exists():
        raise InputError(f"{path}: no such price file or folder")
    files = sorted(path.rglob("*.csv")) if path.is_dir() else [path]
    if not files:
        raise InputError(f"{path}: no .csv price files in this folder")
    out: list[SourceRow] = []
    for f in files:
        header, rows = _rows(f)
        if set(header) >= _SKYPILOT_COLUMNS:
            out += read_skypilot(f, header, rows)
        elif set(header) >= _GPUHUNT_COLUMNS:
            out += read_gpuhunt(f, rows)
        else:
            raise InputError(
                f"{f}: not a SkyPilot vms.csv or gpuhunt catalog CSV (header {','.join(header[:6])}...)"
            )
    return out


@dataclass(frozen=True)
class Refresh:
    """Refreshed records, and what was left out and why (one line each)."""

    records: tuple[PriceRecord, ...]
    skipped: tuple[str, ...]


def refresh_prices(bundled: Sequence[PriceRecord], rows: Iterable[SourceRow], as_of: dt.date) -> Refresh:
    """The bundled records the source prices, at the source's price (module docstring)."""
    by_key: dict[tuple[str, str, str], list[SourceRow]] = {}
    for r in rows:
        by_key.setdefault((r.provider, r.gpu, r.pricing), []).append(r)
    out: list[PriceRecord] = []
    skipped: list[str] = []
    used: set[tuple[str, str, str]] = set()
    for b in bundled:
        key: tuple[str, str, str] = (b.provider.lower(), b.gpu, str(b.pricing))
        got = by_key.get(key)
        if not got or b.reference_only or b.negotiated:
            continue
        used.add(key)
        here = [r for r in got if b.region and r.region.lower() == b.region.lower()] or got
        best = min(here, key=lambda r: r.usd_per_gpu_hour)
        ratio = best.usd_per_gpu_hour / b.usd_per_gpu_hour
        if not (1 / SANITY_RATIO <= ratio <= SANITY_RATIO):
            skipped.append(
                f"{'/'.join(key)}: ${best.usd_per_gpu_hour:.3f} vs bundled ${b.usd_per_gpu_hour:.3f} "
                f"({ratio:.1f}x): likely a unit error, kept the bundled price"
            )
            continue
        out.append(
            b.model_copy(
                update={
                    "usd_per_gpu_hour": round(best.usd_per_gpu_hour, 4),
                    "as_of": as_of,
                    "source": f"{best.what} (refreshed {as_of.isoformat()}; was ${b.usd_per_gpu_hour:g})",
                }
            )
        )
    for key in sorted(set(by_key) - used):
        skipped.append(f"{'/'.join(key)}: no bundled record of this provider, GPU and pricing; add by hand")
    return Refresh(records=tuple(out), skipped=tuple(skipped))


def write_overlay(refresh: Refresh, path: Path, source: str, as_of: dt.date) -> Path:
    """Write the refreshed records as a price file (the --prices format) the catalog loads over the
    bundled prices; market quotes, so negotiated: false."""
    path = path.expanduser()
    records = [
        {**r.model_dump(mode="json", exclude_defaults=True), "negotiated": False} for r in refresh.records
    ]
    head = (
        f"# Prices refreshed by `gpu-advisor catalog update` on {as_of.isoformat()} from {source}.\n"
        "# Loaded over the bundled catalog (tools/catalog/prices.yaml); delete this file to go back.\n"
    )
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(head + yaml.safe_dump({"prices": records}, sort_keys=False), encoding="utf-8")
    except OSError as exc:
        raise InputError(f"{path}: cannot write the price overlay ({exc})") from exc
    return path


def overlay_path() -> Path | None:
    """Where the refreshed overlay lives: $GPU_ADVISOR_PRICE_OVERLAY (empty: none), else DEFAULT_OVERLAY."""
    env = os.environ.get(OVERLAY_ENV)
    if env is not None:
        return Path(env).expanduser() if env.strip() else None
    return DEFAULT_OVERLAY.expanduser()
