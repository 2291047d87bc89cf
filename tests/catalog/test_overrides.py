"""A user's price file overrides bundled records by key and can add records."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tools.catalog.load import Catalog, load_catalog

Write = Callable[[str, str], Path]

OVERRIDE = """
prices:
  # same key as the bundled seed 001 record: replaces it
  - provider: seed-001-bare-metal
    gpu: H100 SXM            # aliases work in user files
    pricing: on_demand
    usd_per_gpu_hour: 2.10
    tier: negotiated
    source: "our contract"
    as_of: 2026-11-20
  # new key: added
  - provider: acme-gpu
    gpu: l40s
    pricing: reserved
    usd_per_gpu_hour: 0.50
    tier: negotiated
    region: eu-west-1
    eu: true
    commitment_months: 12
    source: "quote 42"
    as_of: 2026-11-20
estimates:
  - {name: managed_premium_fraction, value: 0.2, unit: fraction of compute cost, source: "our AWS rep",
     as_of: 2026-11-20}
egress:
  - cloud: aws
    free_gb_per_month: 0
    tiers: [{usd_per_gb: 0.02}]
    source: "private pricing agreement"
    as_of: 2026-11-20
"""


def _seed_record(cat: Catalog) -> float:
    recs = [p for p in cat.prices if p.provider == "seed-001-bare-metal" and p.gpu == "h100-sxm"]
    assert len(recs) == 1
    return recs[0].usd_per_gpu_hour


def test_override_replaces_by_key_and_adds(catalog: Catalog, write: Write) -> None:
    mine = load_catalog(write("mine.yaml", OVERRIDE))
    assert _seed_record(mine) == pytest.approx(2.10)
    assert len(mine.prices) == len(catalog.prices) + 1
    added = mine.prices_for("l40s", pricing="reserved", eu=True)
    assert [p.provider for p in added] == ["acme-gpu"]
    assert mine.estimate("managed_premium_fraction").value == pytest.approx(0.2)
    assert mine.egress_for("aws").tiers[0].usd_per_gb == pytest.approx(0.02)
    assert mine.files[-1].endswith("mine.yaml")


def test_bundled_catalog_untouched_by_override(catalog: Catalog, write: Write) -> None:
    load_catalog(write("mine.yaml", OVERRIDE))
    assert _seed_record(load_catalog()) == pytest.approx(2.80)  # seed 001
    assert load_catalog().estimate("managed_premium_fraction").value == pytest.approx(0.30)


def test_override_key_includes_region(catalog: Catalog, write: Write) -> None:
    text = """
prices:
  - {provider: aws, gpu: h100-sxm, pricing: on_demand, usd_per_gpu_hour: 7.5, tier: hyperscaler,
     region: eu-central-1, eu: true, cloud: aws, source: "price page", as_of: 2026-11-20}
"""
    mine = load_catalog(write("eu.yaml", text))
    recs = mine.prices_for("h100-sxm", provider="aws", pricing="on_demand")
    aws = {p.region: p.usd_per_gpu_hour for p in recs}
    assert aws == {"us-east-1": pytest.approx(6.88), "eu-central-1": pytest.approx(7.5)}


def test_csv_price_file(catalog: Catalog, write: Write) -> None:
    csv_text = (
        "provider,gpu,pricing,usd_per_gpu_hour,tier,region,eu,gpus_per_node,scale_out,source,as_of\n"
        "seed-001-bare-metal,h100-sxm,on_demand,2.5,negotiated,,false,1;8,infiniband,contract,2026-11-20\n"
        "homelab,RTX 4090,on_demand,0.12,owned,,no,1;2,none,power bill,2026-11-20\n"
    )
    mine = load_catalog(write("mine.csv", "\ufeff" + csv_text))  # Excel writes a byte-order mark
    assert _seed_record(mine) == pytest.approx(2.5)
    lab = mine.prices_for("rtx-4090", provider="homelab")
    assert len(lab) == 1 and lab[0].gpus_per_node == (1, 2) and lab[0].eu is False


def test_csv_bad_cell_names_field(write: Write) -> None:
    from tools.errors import InputError

    csv_text = (
        "provider,gpu,pricing,usd_per_gpu_hour,tier,source,as_of\n"
        "acme,h100-sxm,on_demand,cheap,x,me,2026-11-20\n"
    )
    with pytest.raises(InputError, match=r"mine\.csv: prices record 1 .*'usd_per_gpu_hour'"):
        load_catalog(write("mine.csv", csv_text))


def test_duplicate_key_in_user_file_rejected(write: Write) -> None:
    from tools.errors import InputError

    rec = ("  - {provider: acme, gpu: l4, pricing: spot, usd_per_gpu_hour: 0.2, tier: x, source: me,"
           " as_of: 2026-11-20}\n")
    with pytest.raises(InputError, match="duplicate"):
        load_catalog(write("dup.yaml", "prices:\n" + rec + rec))
