"""Owned and colocated hardware: when buying is plausible, the server sizes one can buy, the fabric
assumed, and the amortised $/GPU-hour (tools.cost)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tools import cost as cost_mod
from tools.catalog.schema import Estimate, GpuSpec, ScaleOut
from tools.defaults import CatalogView
from tools.errors import InputError
from tools.profile import WorkloadProfile

OWNED_UTILIZATION_MIN = 0.30
"""Seed 000: below ~30% sustained utilisation the cloud premium is justified; buying is implausible."""
OWNED_HORIZON_MONTHS_MIN = 12.0
"""Owned hardware is amortised over years; under a year of use renting wins (seed 000, seed 002)."""


def owned_node_sizes(gpu: GpuSpec) -> tuple[int, ...]:
    """GPUs per server a buyer can actually purchase. SXM and OAM modules are sold mounted on 8-GPU
    baseboards (HGX, AMD UBB, Gaudi 3 HLB: the catalog's form_factor says so), so one owns them 8 at a
    time; bridged PCIe pairs (H100 NVL) come in twos; other PCIe cards one by one."""
    form = gpu.form_factor.lower()
    if "baseboard" in form or "ubb" in form:
        sizes: tuple[int, ...] = (8,)
    elif "pairs" in form:
        sizes = (2, 4, 8)
    else:
        sizes = (1, 2, 4, 8)
    return tuple(g for g in sizes if g <= gpu.max_gpus_per_node) or (gpu.max_gpus_per_node,)


def owned_fabric(gpu: GpuSpec) -> ScaleOut:
    """Fabric assumed for owned clusters: InfiniBand for 8-GPU data-centre nodes (seed 000: +10-20% of
    cluster cost, in server_overhead_fraction), Ethernet for consumer or small boxes."""
    return "infiniband" if gpu.max_gpus_per_node >= 8 and not gpu.consumer else "ethernet"


OWNED_GPUS_PER_NODE_DEFAULT = 8
OWNED_GPUS_PER_NODE_SOURCE = (
    "a data-centre GPU server holds 8 (NVIDIA DGX and HGX 8-GPU baseboards; AMD and Gaudi UBB/HLB boards the "
    "same): assumed for owned GPUs whose servers were not described (say yours)"
)
OWNED_FABRIC_SOURCE = (
    "InfiniBand for 8-GPU data-centre servers, Ethernet for consumer cards and small boxes (seed 000): "
    "assumed for owned servers whose network was not described (say yours)"
)


@dataclass(frozen=True)
class OwnedLayout:
    """How the team's own GPUs sit: GPUs per server, whole servers, the network between them; whether the
    user said each (else the named default above)."""

    gpus_per_node: int
    nodes: int
    fabric: ScaleOut
    per_node_said: bool
    fabric_said: bool

    def text(self) -> str:
        """'2 servers of 8 over InfiniBand (assumed: say yours)', '1 server of 8'."""
        if self.nodes <= 1:
            return f"1 server of {self.gpus_per_node}"
        fabric = FABRIC_WORDS[self.fabric]
        said = self.per_node_said and self.fabric_said
        what = (
            ""
            if said
            else " (servers and network assumed: say yours)"
            if not self.per_node_said and not self.fabric_said
            else " (servers assumed: say yours)"
            if not self.per_node_said
            else " (network assumed: say yours)"
        )
        return f"{self.nodes} servers of {self.gpus_per_node} over {fabric}{what}"


FABRIC_WORDS: dict[str, str] = {
    "infiniband": "InfiniBand",
    "roce": "RoCE",
    "ethernet": "Ethernet",
    "none": "no network",
}


def owned_layout(gpu: GpuSpec, p: WorkloadProfile) -> OwnedLayout:
    """The team's own GPUs as servers: the node size they said (else OWNED_GPUS_PER_NODE_DEFAULT, never more
    than they own or than the GPU's node holds) and the network they said (else owned_fabric). A plan uses
    several of these servers over that network; it never puts more GPUs in one node than one of them holds
    (expert review 18, R13: 4 servers of 8 A100 40GB were planned as one 16-GPU node)."""
    count = p.owned_gpu_count or 1
    said = p.owned_gpus_per_node
    per_node = max(1, min(said or OWNED_GPUS_PER_NODE_DEFAULT, count, gpu.max_gpus_per_node))
    nodes = max(1, count // per_node)
    fabric: ScaleOut = p.owned_fabric or owned_fabric(gpu)
    return OwnedLayout(
        gpus_per_node=per_node,
        nodes=nodes,
        fabric=fabric if nodes > 1 else "none",
        per_node_said=said is not None or count <= per_node,
        fabric_said=p.owned_fabric is not None,
    )


def owned_utilization(p: WorkloadProfile, inference: bool) -> float:
    """The one utilisation owned (bought) hardware is costed at: its amortised rate is per busy hour at
    this use, and a serving month bills 730 h x this many busy hours (issue 16: the rate assumed 30%
    and was then billed for all 730 h). The user's stated or inferred figure; else a serving endpoint
    on your own hardware is up all month (1.0), so is pre-training kept going over a stated horizon of a
    year or more ('we'll keep running pre-training for 3 years'), and other training hardware is assumed
    busy at the plausibility floor OWNED_UTILIZATION_MIN."""
    known = ("stated", "inferred", None)
    if p.utilization is not None and p.status_of("utilization") in known:
        return float(p.utilization)
    horizon = p.horizon_months or 0.0
    long_run = p.status_of("horizon_months") in known and horizon >= OWNED_HORIZON_MONTHS_MIN
    if inference or (long_run and p.workload in ("pretraining", "continual_pretraining")):
        return 1.0
    return OWNED_UTILIZATION_MIN


DEFAULT_HORIZON_MONTHS = 36.0
"""Horizon when buying is weighed without a stated one (owned GPUs, on-premises wish, 'buy or rent?'): 3
years, the longest reserved term the catalog prices (reserved_3y_discount_fraction), so every rent basis is
weighed over a whole term; the one horizon of such an answer (expert review 18, R17: 12, 36 and 48 months in
one reply)."""


def answer_horizon_months(p: WorkloadProfile) -> float:
    """The one horizon a buy-versus-rent answer weighs: the user's (stated or inferred; a profile built in
    code without provenance counts as said), else DEFAULT_HORIZON_MONTHS. The resolved profile's assumed
    planning horizon (tools.defaults HORIZON_MONTHS_DEFAULT) is not used for buying."""
    said = p.status_of("horizon_months") in ("stated", "inferred", None) and p.horizon_months
    return float(p.horizon_months or 0.0) if said else DEFAULT_HORIZON_MONTHS


def owned_amortization_months(catalog: CatalogView, p: WorkloadProfile) -> float | Estimate:
    """Months the purchase is spread over: the hardware's life (catalog estimate), or the answer's horizon
    (answer_horizon_months: the user's, else the default) when shorter, since no resale value is assumed
    (tools.cost_owned RESIDUAL_VALUE_SOURCE): over a 12-month plan, a 48-month spread would leave three
    quarters of the purchase uncounted (expert review 5), and over the default 36 months the monthly
    equivalent is the same horizon the buy-vs-rent block weighs (expert review 18, R17)."""
    life = catalog.estimate("hardware_amortization_months")
    horizon = answer_horizon_months(p)
    return horizon if horizon < float(life.value) else life


def owned_rate(
    catalog: CatalogView,
    gpu: GpuSpec,
    *,
    utilization: float,
    horizon_months: float,
    colocation: bool,
    power_usd_per_kwh: float | None = None,
    amortization_months: float | Estimate | None = None,
) -> Any:
    """Amortised $/GPU-hour of owned hardware (tools.cost.owned_usd_per_gpu_hour, catalog estimates);
    None when the GPU has no purchase price or TDP, or the catalog lacks an estimate. A stated
    power_usd_per_kwh replaces the catalog's estimate."""
    if gpu.purchase_price_usd is None or gpu.tdp_w is None:
        return None
    try:
        est = catalog.estimate
        return cost_mod.owned_usd_per_gpu_hour(
            purchase_price_usd=gpu.purchase_price_usd,
            utilization=utilization,
            tdp_w=gpu.tdp_w,
            amortization_months=(
                est("hardware_amortization_months") if amortization_months is None else amortization_months
            ),
            server_overhead_fraction=est("server_overhead_fraction"),
            pue=est("pue"),
            power_usd_per_kwh=est("power_usd_per_kwh") if power_usd_per_kwh is None else power_usd_per_kwh,
            ops_usd_per_gpu_month=est("ops_usd_per_gpu_month"),
            colo_usd_per_kw_month=est("colo_usd_per_kw_month") if colocation else None,
        )
    except (InputError, KeyError, LookupError):
        return None
