"""Providers a user names that the price catalog does not price (issue 12: nothing the user states is silently
dropped). "AWS or GCP (not IBM)", "not Oracle Cloud": the exclusion is read (WorkloadProfile.
providers_excluded holds the name's id, advisor/extract/rules_models.py PROVIDERS), but no option of that
provider exists to leave out, so the reply and the report say it was understood and changes nothing ("IBM
Cloud is not among the providers priced; nothing to exclude") rather than listing it as if it had.

A name counts as priced when some price record's provider is it or of its family (tools.recommend.candidates.
provider_matches: 'runpod' covers runpod-secure, 'lambda' covers lambda-cluster)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from tools.catalog.schema import PriceRecord
from tools.recommend.candidates import provider_matches

PROVIDER_NAMES: dict[str, str] = {
    "oci": "Oracle Cloud",
    "ibm": "IBM Cloud",
    "alibaba-cloud": "Alibaba Cloud",
    "tencent-cloud": "Tencent Cloud",
    "digitalocean": "DigitalOcean",
    "vultr": "Vultr",
    "akamai": "Akamai (Linode)",
    "cudo": "Cudo Compute",
    "ovhcloud": "OVHcloud",
    "scaleway": "Scaleway",
    "hetzner": "Hetzner",
    "paperspace": "Paperspace",
    "together": "Together AI",
    "fluidstack": "FluidStack",
    "datacrunch": "DataCrunch",
    "hyperstack": "Hyperstack",
    "crusoe": "Crusoe",
    "tensordock": "TensorDock",
    "genesiscloud": "Genesis Cloud",
    "jarvislabs": "JarvisLabs",
}
"""How the reply names a provider id the extractor reads and the bundled catalog may not price (the
providers' own spelling); an id not here is shown as it is."""


def provider_name(pid: str) -> str:
    """The provider's name for reading ('oci' -> 'Oracle Cloud'); the id itself when none is known."""
    return PROVIDER_NAMES.get(pid, pid)


def unpriced(names: Iterable[str], prices: Sequence[PriceRecord]) -> list[str]:
    """The provider ids of `names` that no price record belongs to, in order."""
    return [n for n in names if not any(provider_matches(r.provider, [n]) for r in prices)]
