"""`gpu-advisor catalog update --from PATH` (issue 16): recorded SkyPilot and gpuhunt files -> a dated
price overlay the catalog loads over the bundled prices. Fixtures: tests/fixtures/price_sources (their
README gives provenance); never the network."""

from __future__ import annotations

import datetime as dt
import urllib.error
import urllib.request
from pathlib import Path

import pytest
import yaml

from advisor.cli import main
from advisor.cli.catalog import _update
from tools.catalog import fetch
from tools.catalog.load import load_catalog, load_catalog_files
from tools.catalog.refresh import (
    OVERLAY_ENV,
    SANITY_RATIO,
    SourceRow,
    gpu_id,
    read_source,
    refresh_prices,
)
from tools.errors import InputError

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "price_sources"
DAY = dt.date(2026, 11, 25)


def _by_key(path: Path) -> dict[tuple[str, str, str], float]:
    got = refresh_prices(load_catalog_files().prices, read_source(path), DAY)
    assert all(r.as_of == DAY and "refreshed 2026-11-25" in r.source for r in got.records)
    return {(r.provider, r.gpu, r.pricing): r.usd_per_gpu_hour for r in got.records}


def test_skypilot_rows_become_per_gpu_prices_of_the_bundled_records() -> None:
    prices = _by_key(FIXTURES / "skypilot" / "v8")
    # p5.48xlarge us-east-1 Price 55.04 / 8 GPUs; p4de 27.44705 / 8 (fixture README cross-checks)
    assert prices[("aws", "h100-sxm", "on_demand")] == pytest.approx(55.04 / 8, rel=1e-4)
    assert prices[("aws", "a100-80gb-sxm", "on_demand")] == pytest.approx(27.44705 / 8, rel=1e-4)
    # Nebius gpu-h100-sxm 1 GPU eu-north1 $2.95 (the bundled record says $3.85, as of 2026-09-01)
    assert prices[("nebius", "h100-sxm", "on_demand")] == pytest.approx(2.95)
    # Lambda 8x nodes are the lambda-cluster offer: gpu_8x_h100_sxm5 31.92 / 8
    assert prices[("lambda-cluster", "h100-sxm", "on_demand")] == pytest.approx(31.92 / 8, rel=1e-4)


def test_gpuhunt_catalog_gives_the_same_prices_as_the_rows_it_was_transcribed_from() -> None:
    hunt = _by_key(FIXTURES / "gpuhunt" / "catalog")
    sky = _by_key(FIXTURES / "skypilot" / "v8")
    for key in (("nebius", "h100-sxm", "on_demand"), ("aws", "h100-sxm", "on_demand")):
        assert hunt[key] == pytest.approx(sky[key], rel=1e-4)


def test_rows_without_a_bundled_record_are_listed_not_invented() -> None:
    got = refresh_prices(load_catalog_files().prices, read_source(FIXTURES / "skypilot" / "v8"), DAY)
    assert any(s.startswith("runpod-secure/a100-80gb-pcie/on_demand") for s in got.skipped)
    assert not any(r.provider == "runpod-secure" and r.gpu == "a100-80gb-pcie" for r in got.records)


def test_a_price_far_from_the_bundled_one_is_kept_out() -> None:
    bundled = [p for p in load_catalog_files().prices if p.provider == "nebius" and p.gpu == "h100-sxm"]
    row = SourceRow("nebius", "h100-sxm", "on_demand", bundled[0].usd_per_gpu_hour * 8, "eu-north1", "x")
    got = refresh_prices(bundled, [row], DAY)
    assert not got.records and f"{8.0:.1f}x" in got.skipped[0] and SANITY_RATIO < 8


@pytest.mark.parametrize(
    ("name", "mem", "inst", "provider", "want"),
    [
        ("H100", None, "gpu_1x_h100_pcie", "lambda", "h100-pcie"),
        ("H100", None, "p5.48xlarge", "aws", "h100-sxm"),
        ("H100", None, "1x_H100_SECURE", "runpod", "h100-pcie"),
        ("H100-SXM", None, "1x_H100-SXM_SECURE", "runpod", "h100-sxm"),
        ("A100", 40.0, "p4d.24xlarge", "aws", "a100-40gb-sxm"),
        ("A100-80GB", None, "1x_A100-80GB_SECURE", "runpod", "a100-80gb-pcie"),
        ("V100", None, "p3.2xlarge", "aws", None),
    ],
)
def test_gpu_names_map_to_catalog_ids(
    name: str, mem: float | None, inst: str, provider: str, want: str
) -> None:
    assert gpu_id(name, mem, inst, provider) == want


def test_the_overlay_is_loaded_over_the_bundled_prices(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "prices.refreshed.yaml"
    code = main(["catalog", "update", "--from", str(FIXTURES / "skypilot" / "v8"), "--out", str(out),
                 "--as-of", "2026-11-25"])  # fmt: skip
    assert code == 0 and "prices refreshed as of 2026-11-25" in capsys.readouterr().out
    data = yaml.safe_load(out.read_text())
    assert all(r["negotiated"] is False for r in data["prices"])  # market quotes keep their price spread
    assert load_catalog().as_of_dates()["prices"] < DAY  # the tests' catalog: bundled only
    monkeypatch.setenv(OVERLAY_ENV, str(out))
    cat = load_catalog()
    neb = next(p for p in cat.prices_for("h100-sxm") if p.provider == "nebius" and p.pricing == "on_demand")
    assert neb.usd_per_gpu_hour == pytest.approx(2.95) and neb.as_of == DAY and not neb.negotiated
    assert cat.as_of_dates()["prices"] == DAY and str(out) in cat.files
    assert len([p for p in cat.prices if p.provider == "nebius" and p.gpu == "h100-sxm"]) == 1


@pytest.mark.parametrize(
    ("content", "name", "says"),
    [
        ("a,b\n1,2\n", "odd.csv", "not a SkyPilot vms.csv or gpuhunt catalog CSV"),
        (None, "missing.csv", "no such price file"),
        ("InstanceType,AcceleratorName,AcceleratorCount,Price\nx,V100,1,3\n", "vms.csv", "nothing written"),
    ],
)
def test_a_broken_source_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str | None, name: str, says: str
) -> None:
    path = tmp_path / name
    if content is not None:
        path.write_text(content)
    code = main(["catalog", "update", "--from", str(path), "--out", str(tmp_path / "o.yaml")])
    err = capsys.readouterr().err.strip()
    assert code == 2 and says in err and "\n" not in err and "Traceback" not in err


def test_update_without_from_offline_is_one_line_and_exit_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    calls: list[str] = []

    def offline(url: str, timeout: float) -> None:
        calls.append(url)
        raise urllib.error.URLError("[Errno -3] Temporary failure in name resolution")

    monkeypatch.setattr(urllib.request, "urlopen", offline)
    out = tmp_path / "o.yaml"
    code = main(["catalog", "update", "--out", str(out)])
    err = capsys.readouterr().err.strip()
    assert code == 2 and "\n" not in err and "Traceback" not in err
    assert "no network" in err and "--from" in err and not out.exists()
    assert calls and calls[0].startswith(fetch.GPUHUNT_CATALOG_URL)  # tried gpuhunt's bucket (stubbed)
    with pytest.raises(InputError, match="--from FILE"):
        _update(None, out, None)


def test_update_without_from_reads_the_fetched_catalogs_like_from_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # the recorded bucket layout served as file:// (no network): aws, lambdalabs and nebius are there,
    # the other published providers are not, and are listed as not fetched
    monkeypatch.setenv(fetch.URL_ENV, (FIXTURES / "gpuhunt" / "s3_layout").as_uri())
    fetched, direct = tmp_path / "fetched.yaml", tmp_path / "direct.yaml"
    assert main(["catalog", "update", "--out", str(fetched), "--as-of", "2026-11-25"]) == 0
    said = capsys.readouterr().out
    assert "from gpuhunt catalog file://" in said and "aws fixture-20261122" in said
    assert "not fetched azure" in said
    folder = FIXTURES / "gpuhunt" / "catalog"
    assert (
        main(["catalog", "update", "--from", str(folder), "--out", str(direct), "--as-of", "2026-11-25"]) == 0
    )

    def prices(path: Path) -> dict[tuple[str, str, str], float]:
        rows = yaml.safe_load(path.read_text())["prices"]
        return {(r["provider"], r["gpu"], r["pricing"]): r["usd_per_gpu_hour"] for r in rows}

    got = prices(fetched)
    assert got and got == prices(direct)  # the same reader, the same prices
    assert {p for p, _, _ in got} >= {"aws", "lambda", "nebius"}
