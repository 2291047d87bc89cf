"""Owned GPUs from an inventory (CMDB) CSV pasted in chat (issue 12, gap 2;
advisor/extract/rules_inventory_csv.py): rows in service are counted, retired ones left out and named."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from advisor.conversation import Conversation
from advisor.extract.accounting import account_for
from tools.profile import WorkloadProfile

Extract = Callable[..., WorkloadProfile]

CMDB = """Here's our CMDB export of what we own, can we fine-tune Llama 3 8B with LoRA on 50M tokens on it?
hostname,model,count,status,site
gpu-node-01,A100 80GB,8,in service,Frankfurt
gpu-node-02,A100 80GB,8,in service,Frankfurt
gpu-node-03,V100 32GB,4,retired,Dublin
"""
# the way other teams paste theirs: an asset register with other column names; a mixed fleet
ASSETS = """LoRA fine-tune Llama 3 8B on 50M tokens. Asset register export (GPU servers):
asset_id,gpu_model,gpu_count,lifecycle,owner
AST-1001,H100 SXM,8,active,ml-platform
AST-1002,H100 SXM,8,decommissioned,ml-platform
"""
MIXED = """Inventory of our fleet below. We want to serve Llama 3 70B to 100 users.
host,gpu,qty,state
dgx-a,H100 SXM,8,production
dgx-b,H100 SXM,8,production
ws-01,RTX 4090,2,production
"""


@pytest.mark.parametrize(
    ("text", "gpu", "count"),
    [(CMDB, "a100-80gb-sxm", 16), (ASSETS, "h100-sxm", 8), (MIXED, "h100-sxm", 16)],
)
def test_inventory_rows_in_service_are_owned(extract: Extract, text: str, gpu: str, count: int) -> None:
    p = extract(text)
    assert (p.owned_gpu, p.owned_gpu_count) == (gpu, count)


def test_retired_rows_are_named_not_dropped() -> None:
    p = Conversation(explain=False).send(CMDB).profile
    assert p.owned_gpu_count == 16
    assert "V100 32GB x4 (retired)" in str(p.provenance["owned_gpu_count"].evidence)
    unused = [c.text for c in account_for(CMDB, p).unused]
    assert not any("A100" in t or "Frankfurt" in t for t in unused), unused  # the counted rows were read
    assert any("V100" in t for t in unused), unused  # the retired one is listed, not silently dropped


def test_a_mixed_fleet_names_the_models_not_counted(extract: Extract) -> None:
    assert "RTX 4090 x2" in str(extract(MIXED).provenance["owned_gpu"].evidence)


def test_a_price_list_in_the_same_shape_is_not_owned(extract: Extract) -> None:
    # near miss: a reseller's quote pasted as CSV, nothing says it is the team's own
    text = """Quote from the reseller for serving Llama 3 70B to 100 users:
sku,gpu,qty,price_usd
SRV-8H,H100 SXM,8,250000
SRV-8A,A100 80GB,8,120000
"""
    assert extract(text).owned_gpu is None
