"""Recommending: the one place where the catalog, the recommender and the per-process caches are wired up.

A `Recommending` object is the recommender a process hands to the conversation (advisor.conversation),
the LangChain tools (advisor.llm.tools) and the toolkit: tools.recommend on the bundled catalog through a
recommendation cache and the calculators' caches, or an injected stand-in (a test's, a benchmark's),
called as it is, uncached. `process_recommending()` is the process's one; `replaced(fn)` swaps it for a
stand-in for the length of a `with` block.

`recommend_for` is the one-shot path of the report command and the toolkit: a profile (+ a user's price
file and recommender settings) -> the recommendation and the catalog it was computed on, uncached.
"""

from __future__ import annotations

import gc
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from tools.catalog.load import Catalog, load_catalog
from tools.errors import InputError
from tools.profile import WorkloadProfile
from tools.recommend import recommend
from tools.recommend.caches import Caches
from tools.recommend.models import Recommendation, RecommendSettings

Recommender = Callable[[WorkloadProfile], Any]
"""profile -> Recommendation: what the conversation and the LangChain tools call."""
CatalogLoader = Callable[[], Any]


def default_catalog() -> Catalog:
    """The bundled catalog (tools.catalog.load, cached there)."""
    return load_catalog()


RECOMMENDATION_CACHE_SIZE = 128
"""Recommendations kept per process (see RecommendationCache): a turn that leaves the profile as it was
("send me the PDF", an answer the extractor finds nothing in) does not run the recommender again."""


class RecommendationCache:
    """A bounded LRU of the default recommender's results keyed by the catalog object and the canonical
    profile JSON (values and provenance: the recommender reads both). A cache, not state: the
    recommender is a pure function of these, and its result is a frozen model shared read-only.
    Thread-safe (the web server runs turns in worker threads); a miss computes outside the lock."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[tuple[int, str], tuple[Any, Any]] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def get(self, profile: WorkloadProfile, catalog: Any, compute: Callable[[], Any]) -> Any:
        key = (id(catalog), profile.model_dump_json())
        with self._lock:
            got = self._items.get(key)
            if got is not None and got[0] is catalog:  # the catalog is held, so its id is not reused
                self._items.move_to_end(key)
                self.hits += 1
                return got[1]
            self.misses += 1
        rec = compute()
        with self._lock:
            self._items[key] = (catalog, rec)
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)
        return rec

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self.hits = self.misses = 0


ENGINE_CACHE_MAX_ENTRIES = 100_000
"""Calculator results (tools.candidates.Caches) kept per process for the bundled catalog: memory, topology
and time estimates recur across turns and sessions (same model, method and sequence length), and each
run's enumeration lets a later turn that changes only cost inputs (a budget) re-price it. A turn adds
about 1,000 entries (about 2 KB each: some 200 MB at the bound); past this many the store is trimmed
(Caches.trimmed: the shape stores and the newest half of the others stay: the latest conversations'
results, which their next turns re-use), and started afresh when what stays is over three quarters."""


class EngineCaches:
    """The calculators' caches for one catalog, replaced (never mutated in place) when the catalog
    changes or the store outgrows ENGINE_CACHE_MAX_ENTRIES."""

    def __init__(self) -> None:
        self._held: tuple[Any, Caches] | None = None

    def for_catalog(self, catalog: Any) -> Caches:
        held = self._held
        if held is None or held[0] is not catalog:
            held = self._held = (catalog, Caches())
        elif held[1].size() > ENGINE_CACHE_MAX_ENTRIES:
            kept = held[1].trimmed(0.5)
            if kept.size() > ENGINE_CACHE_MAX_ENTRIES * 3 // 4:
                kept = Caches()
            held = self._held = (catalog, kept)
        return held[1]

    def clear(self) -> None:
        self._held = None


@contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector off while the recommender runs, back on after (if it was on).

    Why: a recommendation allocates tens of thousands of short-lived objects, which trigger collections
    that each scan every live object (the catalog, the calculator caches): measured on web_load's
    script, 30% of the CPU went to the collector and a reply's p95 was 160 ms instead of 50 ms. The
    recommender leaves little cyclic garbage; the first collection after it frees that. With threads,
    whichever call paused the collector switches it back on when it ends, so it is never left off."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()


class Recommending:
    """The recommender a process uses, with its catalog and caches; call it with a profile.

    recommender: a stand-in (profile -> Recommendation), called as it is, uncached. Without one
      (`is_default`), tools.recommend on `catalog()` through the caches: the recommendation by profile,
      the calculators' results by their inputs; the result is the same as without them.
    catalog: the catalog loader the default recommender and the LangChain tools use.
    """

    def __init__(
        self,
        recommender: Recommender | None = None,
        *,
        catalog: CatalogLoader = default_catalog,
        cache_size: int = RECOMMENDATION_CACHE_SIZE,
    ) -> None:
        self._injected = recommender
        self.catalog = catalog
        self.cache = RecommendationCache(cache_size)
        self.engine_caches = EngineCaches()

    @property
    def is_default(self) -> bool:
        """True when no stand-in was injected: tools.recommend on the catalog, cached."""
        return self._injected is None

    def __call__(self, profile: WorkloadProfile) -> Any:
        return self.recommend(profile)

    def recommend(self, profile: WorkloadProfile) -> Any:
        """The recommendation for `profile` (InputError for a profile the engine cannot size)."""
        if self._injected is not None:
            return self._injected(profile)
        catalog = self.catalog()

        def compute() -> Recommendation:
            caches = self.engine_caches.for_catalog(catalog)
            with collector_paused():
                return recommend(profile=profile, catalog=catalog, caches=caches)

        return self.cache.get(profile, catalog, compute)

    def clear(self, *, calculators: bool = True) -> None:
        """Empty the recommendation cache and (unless calculators=False) the calculator caches
        (benchmarks measuring the recommender's cost)."""
        self.cache.clear()
        if calculators:
            self.engine_caches.clear()


_process = Recommending()


def process_recommending() -> Recommending:
    """The process's recommender (the default one unless `replaced`)."""
    return _process


@contextmanager
def replaced(recommender: Recommender) -> Iterator[Recommending]:
    """The process's recommender replaced by `recommender` (a test's stand-in) inside the block:
    conversations and tools built in it call the stand-in."""
    global _process
    previous, _process = _process, Recommending(recommender)
    try:
        yield _process
    finally:
        _process = previous


def clear_recommendation_cache(*, calculators: bool = True) -> None:
    """Empty the process recommender's caches (see Recommending.clear)."""
    _process.clear(calculators=calculators)


def recommend_for(
    profile: WorkloadProfile, *, prices: str | Path | None = None, settings: RecommendSettings | None = None
) -> tuple[Recommendation, Catalog]:
    """Run the recommender on a profile against the bundled catalog (+ a user price file)."""
    if prices is not None and not Path(prices).is_file():
        raise InputError(f"price file {prices} not found: give a YAML or CSV price file")
    catalog = load_catalog(prices)
    kwargs: dict[str, Any] = {"profile": profile, "catalog": catalog}
    if settings is not None:
        kwargs["settings"] = settings
    return recommend(**kwargs), catalog
