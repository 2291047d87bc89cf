"""A serving workload without a stated concurrency lists the default with where it comes from.

Before the fix the assumption's source was `CONCURRENCY_DEFAULT.__doc__`: Python's built-in int
docstring ("int([x]) -> integer ..."), printed in every such report.
"""

from __future__ import annotations

from tools.catalog.load import Catalog
from tools.defaults import CONCURRENCY_DEFAULT, CONCURRENCY_DEFAULT_SOURCE, resolve_workload
from tools.profile import WorkloadProfile


def test_concurrency_assumption_names_its_source(catalog: Catalog) -> None:
    w = resolve_workload(
        profile=WorkloadProfile(model_id="llama-3-8b", workload="inference"), catalog=catalog
    )
    (assumption,) = [a for a in w.assumptions if a.name == "concurrency (default)"]
    assert assumption.value == CONCURRENCY_DEFAULT
    assert assumption.source == f"{CONCURRENCY_DEFAULT_SOURCE} [tools/defaults.py]"
    assert assumption.source != int.__doc__ and "int([x])" not in assumption.source
    assert w.profile.status_of("concurrency") == "assumed"
