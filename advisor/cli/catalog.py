"""`gpu-advisor catalog gpus|models|prices`: list the bundled catalogs with their as-of dates and sources.

`prices` also lists egress schedules, storage prices and the named cost estimates; `--prices FILE`
shows the catalog with a user's price file applied. `models --config FILE` shows the architecture and
derived parameter count read from a Hugging Face config.json.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from advisor.cli.app import app
from tools import present
from tools.errors import InputError

if TYPE_CHECKING:
    from rich.table import Table

    from tools.catalog.load import Catalog
    from tools.catalog.schema import ModelArch

SECTIONS = ("gpus", "models", "prices", "egress", "storage", "estimates")
FORMATS = ("table", "json")
_KEY_COLUMNS = {"id", "provider", "gpu", "cloud", "name", "as of", "pricing"}
# Below this terminal width the source column is left out of tables (JSON always has it).
SOURCE_COLUMN_MIN_WIDTH = 150


def _table(title: str, columns: list[tuple[str, str]], caption: str = "") -> Table:
    from rich.table import Table  # lazy: rich costs ~20 ms of every command's start; tables only

    table = Table(title=title, caption=caption or None, show_lines=False, header_style="bold")
    for name, justify in columns:
        key = name in _KEY_COLUMNS
        table.add_column(name, justify=justify, overflow="fold", no_wrap=key)  # type: ignore[arg-type]
    return table


def _gpus_table(cat: Catalog) -> Table:
    t = _table(
        f"GPUs ({len(cat.gpus)}): dense TFLOPS, marketed GB vs usable GiB",
        [
            ("id", "left"),
            ("GB", "right"),
            ("usable GiB", "right"),
            ("TB/s", "right"),
            ("BF16 TF", "right"),
            ("FP8 TF", "right"),
            ("scale-up", "left"),
            ("TDP W", "right"),
            ("form", "left"),
            ("price USD", "right"),
            ("as of", "left"),
            ("source", "left"),
        ],
        caption="TFLOPS are dense (no 2:4 sparsity). Scale-up bandwidth is per GPU, bidirectional.",
    )
    for g in cat.gpus:
        link = (
            g.scale_up_link
            if g.scale_up_bandwidth_gb_per_s is None
            else (f"{g.scale_up_link} {g.scale_up_bandwidth_gb_per_s:g} GB/s")
        )
        t.add_row(
            g.id,
            present.fixed(g.memory_gb, 0),
            present.fixed(g.usable_memory_gib),
            present.fixed(g.memory_bandwidth_tb_per_s, 2),
            present.fixed(g.bf16_dense_tflops, 0),
            present.fixed(g.fp8_dense_tflops, 0),
            link,
            present.fixed(g.tdp_w, 0),
            g.form_factor,
            present.fixed(g.purchase_price_usd, 0),
            g.as_of.isoformat(),
            g.source,
        )
    return t


def _model_row(m: ModelArch) -> dict[str, Any]:
    return {
        **m.model_dump(mode="json"),
        "params_b_derived": m.param_count() / 1e9,
        "active_params_b_derived": m.active_param_count() / 1e9,
    }


def _models_table(models: tuple[ModelArch, ...] | list[ModelArch]) -> Table:
    t = _table(
        f"Models ({len(models)}): parameters derived from the architecture",
        [
            ("id", "left"),
            ("params B", "right"),
            ("active B", "right"),
            ("published B", "right"),
            ("layers", "right"),
            ("hidden", "right"),
            ("heads/kv", "right"),
            ("head_dim", "right"),
            ("ffn", "right"),
            ("vocab", "right"),
            ("experts", "right"),
            ("context", "right"),
            ("as of", "left"),
            ("source", "left"),
        ],
        caption="params B = ModelArch.param_count(); published B = the authors' count (models.yaml header).",
    )
    for m in models:
        experts = f"{m.n_active_experts}/{m.n_experts}" if m.is_moe else "-"
        ffn = m.moe_intermediate_size if m.is_moe else m.intermediate_size
        t.add_row(
            m.id,
            present.fixed(m.param_count() / 1e9, 2),
            present.fixed(m.active_param_count() / 1e9, 2),
            present.fixed(m.published_params_b, 2),
            str(m.n_layers),
            str(m.hidden_size),
            f"{m.n_heads}/{m.n_kv_heads}" + (" MLA" if m.uses_mla else ""),
            str(m.head_dim),
            str(ffn),
            f"{m.vocab_size:,}",
            experts,
            f"{m.max_context:,}",
            m.as_of.isoformat(),
            m.source,
        )
    return t


def _cost_tables(cat: Catalog, sections: tuple[str, ...], gpu: str | None, eu_only: bool) -> list[Table]:
    tables: list[Table] = []
    if "prices" in sections:
        recs = (
            cat.prices_for(gpu, eu=True if eu_only else None)
            if gpu
            else sorted(
                (p for p in cat.prices if p.eu or not eu_only), key=lambda p: (p.gpu, p.usd_per_gpu_hour)
            )
        )
        t = _table(
            f"Prices ({len(recs)}): USD per GPU-hour",
            [
                ("provider", "left"),
                ("gpu", "left"),
                ("pricing", "left"),
                ("USD/GPU-h", "right"),
                ("tier", "left"),
                ("region", "left"),
                ("EU", "left"),
                ("GPUs/node", "left"),
                ("fabric", "left"),
                ("as of", "left"),
                ("source", "left"),
            ],
            caption="Prices move weekly; override with --prices FILE (key: provider, gpu, pricing, region).",
        )
        for p in recs:
            t.add_row(
                p.provider + (" (managed)" if p.managed else ""),
                p.gpu,
                p.pricing,
                f"{p.usd_per_gpu_hour:.3f}".rstrip("0").rstrip("."),
                p.tier,
                p.region or "-",
                "yes" if p.eu else "",
                ",".join(str(n) for n in p.gpus_per_node),
                p.scale_out,
                p.as_of.isoformat(),
                p.source,
            )
        tables.append(t)
    if "egress" in sections:
        t = _table(
            "Internet egress (USD per GB, by monthly volume)",
            [
                ("cloud", "left"),
                ("free GB/month", "right"),
                ("tiers", "left"),
                ("as of", "left"),
                ("source", "left"),
            ],
        )
        for e in cat.egress:
            tiers = "; ".join(
                (f"up to {tr.up_to_gb:,.0f} GB" if tr.up_to_gb else "above") + f": {tr.usd_per_gb:g}"
                for tr in e.tiers
            )
            t.add_row(e.cloud, present.fixed(e.free_gb_per_month, 0), tiers, e.as_of.isoformat(), e.source)
        tables.append(t)
    if "storage" in sections:
        t = _table(
            "Object storage (USD per GB-month)",
            [
                ("provider", "left"),
                ("tier", "left"),
                ("USD/GB-month", "right"),
                ("as of", "left"),
                ("source", "left"),
            ],
        )
        for s in cat.storage:
            t.add_row(s.provider, s.tier, f"{s.usd_per_gb_month:g}", s.as_of.isoformat(), s.source)
        tables.append(t)
    if "estimates" in sections:
        t = _table(
            "Estimates (editable: override by name in a --prices file)",
            [("name", "left"), ("value", "right"), ("unit", "left"), ("as of", "left"), ("source", "left")],
        )
        for est in cat.estimates:
            t.add_row(est.name, f"{est.value:g}", est.unit, est.as_of.isoformat(), est.source)
        tables.append(t)
    return tables


def _json_payload(
    cat: Catalog, what: str, gpu: str | None, eu_only: bool, config_model: ModelArch | None
) -> dict[str, Any]:
    out: dict[str, Any] = {"as_of": {k: v.isoformat() for k, v in cat.as_of_dates().items()}}
    if what == "gpus":
        out["gpus"] = [g.model_dump(mode="json") for g in cat.gpus]
    elif what == "models":
        models = [config_model] if config_model else list(cat.models)
        out["models"] = [_model_row(m) for m in models]
    else:
        sections = ("prices", "egress", "storage", "estimates") if what == "prices" else (what,)
        if "prices" in sections:
            recs = (
                cat.prices_for(gpu, eu=True if eu_only else None)
                if gpu
                else [p for p in cat.prices if p.eu or not eu_only]
            )
            out["prices"] = [p.model_dump(mode="json") for p in recs]
        for name in ("egress", "storage", "estimates"):
            if name in sections:
                out[name] = [r.model_dump(mode="json") for r in getattr(cat, name)]
    return out


def _update(source: Path | None, out: Path | None, as_of: str | None) -> None:
    """`catalog update [--from PATH]`: refresh the bundled prices from a source's files into the overlay;
    without --from, fetch gpuhunt's published catalogs first (tools.catalog.fetch; no network: exit 2)."""
    import datetime as dt  # lazy: update only
    import tempfile  # lazy: update only

    from tools.catalog.fetch import fetch_gpuhunt  # lazy: update only; ~20 ms of every command's start
    from tools.catalog.load import load_catalog_files  # lazy: ~20 ms of every command's start
    from tools.catalog.refresh import (
        overlay_path,
        read_source,
        refresh_prices,
        write_overlay,
    )  # lazy: as above

    try:
        day = dt.date.fromisoformat(as_of) if as_of else dt.date.today()
    except ValueError:
        raise InputError(f"--as-of {as_of!r}: use a date like 2026-11-25") from None
    target = out or overlay_path()
    if target is None:
        raise InputError("GPU_ADVISOR_PRICE_OVERLAY is empty: give --out FILE")
    with tempfile.TemporaryDirectory(prefix="gpu-advisor-prices-") as tmp:
        failed: list[str] = []
        if source is None:
            fetched = fetch_gpuhunt(Path(tmp))
            folder, label, failed = fetched.folder, fetched.source, fetched.failed
        else:
            folder, label = source, str(source)
        # against the bundled prices, never an earlier overlay
        result = refresh_prices(load_catalog_files().prices, read_source(folder), day)
    if not result.records:
        raise InputError(f"{label}: no price in these files matches a bundled price record; nothing written")
    written = write_overlay(result, target, label, day)
    typer.echo(f"{len(result.records)} prices refreshed as of {day.isoformat()} from {label} -> {written}")
    for line in failed:
        typer.echo(f"  not fetched {line}")
    for line in result.skipped:
        typer.echo(f"  skipped {line}")


@app.command("catalog")
def catalog_command(
    what: str = typer.Argument(..., help="gpus | models | prices (with egress, storage, estimates) | update"),
    fmt: str = typer.Option("table", "--format", "-f", help="table | json"),
    prices: Path | None = typer.Option(None, "--prices", help="your price file (YAML or CSV) applied on top"),
    gpu: str | None = typer.Option(None, "--gpu", help="prices: only this GPU (id or alias)"),
    eu_only: bool = typer.Option(False, "--eu-only", help="prices: only EU-region offers"),
    config: Path | None = typer.Option(None, "--config", help="models: show a Hugging Face config.json"),
    source: Path | None = typer.Option(
        None,
        "--from",
        help="update: SkyPilot vms.csv tree/file or gpuhunt <provider>.csv files (default: fetch gpuhunt's)",
    ),
    out: Path | None = typer.Option(None, "--out", help="update: where to write (default: the overlay)"),
    as_of: str | None = typer.Option(None, "--as-of", help="update: the prices' date (default: today)"),
) -> None:
    """List the catalogs (GPUs, models, prices) with their as-of dates and sources; `update --from PATH`
    refreshes the prices from a source's files (without --from: gpuhunt's published catalogs, network
    permitting) into a dated overlay the catalog loads."""
    what = what.strip().lower()
    if what == "update":
        _update(source, out, as_of)
        return
    if what not in SECTIONS:
        raise InputError(f"unknown catalog '{what}'; use one of: {', '.join(SECTIONS)}")
    if fmt not in FORMATS:
        raise InputError(f"unknown format '{fmt}'; use one of: {', '.join(FORMATS)}")
    # lazy: loading the catalog code costs ~20 ms of every command's start
    from tools.catalog.load import load_catalog

    cat = load_catalog(prices)
    config_model = None
    if config is not None:
        if what != "models":
            raise InputError("--config applies to 'gpu-advisor catalog models' only")
        from tools.catalog.hf_config import arch_from_hf_config  # lazy: ~10 ms of every start; --config only

        config_model = arch_from_hf_config(config)
    if gpu:
        cat.gpu(gpu)  # unknown GPU -> InputError listing the closest ids
    if fmt == "json":
        typer.echo(json.dumps(_json_payload(cat, what, gpu, eu_only, config_model), indent=2))
        return

    from rich.console import Console  # lazy: rich costs ~20 ms of every command's start; tables only

    console = Console()
    if what == "gpus":
        tables = [_gpus_table(cat)]
    elif what == "models":
        tables = [_models_table([config_model] if config_model else cat.models)]
    else:
        sections = ("prices", "egress", "storage", "estimates") if what == "prices" else (what,)
        tables = _cost_tables(cat, sections, gpu, eu_only)
    narrow = console.width < SOURCE_COLUMN_MIN_WIDTH
    for t in tables:
        if narrow and t.columns and str(t.columns[-1].header) == "source":
            t.columns.pop()
        console.print(t)
    if narrow:
        console.print(
            f"sources: widen the terminal to {SOURCE_COLUMN_MIN_WIDTH}+ columns (e.g. COLUMNS=200) "
            "or use --format json",
            highlight=False,
        )
    dates = cat.as_of_dates()
    summary = ", ".join(f"{k} {v.isoformat()}" for k, v in dates.items())
    console.print(f"as of (newest record per section): {summary}", highlight=False)
    console.print("files: " + ", ".join(Path(f).name for f in cat.files), highlight=False)
