"""Fetch the maintained price source (issue 16, `gpu-advisor catalog update` without --from): gpuhunt's
published per-provider catalogs, written as `<provider>.csv` files into a folder that
tools.catalog.refresh.read_source reads like any other --from folder.

Layout (gpuhunt 0.1.34, gpuhunt/_internal/catalog.py): `{CATALOG_URL}/{provider}/version` holds the latest
version string, `{CATALOG_URL}/{provider}/{version}/catalog.zip` holds `{provider}.csv`. The URL and the
provider list are the installed gpuhunt package's own when it is installed, else the pinned copies below;
GPUHUNT_CATALOG_URL overrides the URL as it does for gpuhunt. Only the standard library is used, so the
package is optional; without network the caller is told to pass --from a file.
"""

from __future__ import annotations

import importlib
import io
import os
import urllib.error
import urllib.request
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

from tools.errors import InputError

GPUHUNT_CATALOG_URL = "https://dstack-gpu-pricing.s3.eu-west-1.amazonaws.com/v3"
"""gpuhunt 0.1.34's CATALOG_URL (the dstack-gpu-pricing bucket)."""
GPUHUNT_PROVIDERS = ("aws", "azure", "verda", "gcp", "lambdalabs", "nebius", "oci", "runpod", "cloudrift")
"""gpuhunt 0.1.34's OFFLINE_PROVIDERS: the providers it publishes catalogs for."""
URL_ENV = "GPUHUNT_CATALOG_URL"
TIMEOUT_S = 15.0
"""Seconds to wait for each request before treating the network as unavailable."""


@dataclass
class Fetched:
    """Where the fetched `<provider>.csv` files are, the source named in the overlay, and failures."""

    folder: Path
    source: str
    versions: dict[str, str] = field(default_factory=dict)
    failed: list[str] = field(default_factory=list)


def gpuhunt_source() -> tuple[str, tuple[str, ...]]:
    """(catalog URL, providers): the installed gpuhunt package's, else the pinned 0.1.34 values."""
    url, providers = GPUHUNT_CATALOG_URL, GPUHUNT_PROVIDERS
    try:
        gh = importlib.import_module("gpuhunt._internal.catalog")  # optional package
        url, providers = str(gh.CATALOG_URL), tuple(gh.OFFLINE_PROVIDERS)
    except (ImportError, AttributeError):
        pass
    return os.environ.get(URL_ENV, url).rstrip("/"), providers


def _get(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=TIMEOUT_S) as f:
        data: bytes = f.read()
    return data


def fetch_gpuhunt(folder: Path, base_url: str | None = None, providers: tuple[str, ...] = ()) -> Fetched:
    """Download each provider's latest gpuhunt catalog into `folder` as `<provider>.csv`.
    Raises InputError (one line: no network, pass --from) when no provider's catalog could be fetched."""
    default_url, default_providers = gpuhunt_source()
    base = (base_url or default_url).rstrip("/")
    got = Fetched(folder=folder, source=f"gpuhunt catalog {base}")
    folder.mkdir(parents=True, exist_ok=True)
    for provider in providers or default_providers:
        try:
            version = _get(f"{base}/{provider}/version").decode("utf-8").strip()
            data = _get(f"{base}/{provider}/{version}/catalog.zip")
            with zipfile.ZipFile(io.BytesIO(data)) as z:
                (folder / f"{provider}.csv").write_bytes(z.read(f"{provider}.csv"))
        except (OSError, KeyError, zipfile.BadZipFile, UnicodeDecodeError) as e:  # URLError is an OSError
            got.failed.append(f"{provider}: {getattr(e, 'reason', e)}")
            unreachable = isinstance(e, (urllib.error.URLError, TimeoutError)) and not isinstance(
                e, urllib.error.HTTPError
            )
            if unreachable and not got.versions:
                break  # no network: one timeout, not one per provider
            continue
        got.versions[provider] = version
    if not got.versions:
        first = got.failed[0] if got.failed else "no providers"
        raise InputError(
            f"no network to reach the gpuhunt price catalog ({base}; {first}): pass --from FILE with a "
            "SkyPilot vms.csv or gpuhunt <provider>.csv fetched elsewhere"
        )
    got.source += " (" + ", ".join(f"{p} {v}" for p, v in got.versions.items()) + ")"
    return got
