"""The conversation's per-process recommendation cache: a turn that leaves the profile unchanged reuses
the recommendation, which is exactly what the recommender returns for that profile; it is bounded and
steps aside for a replaced default recommender."""

from __future__ import annotations

from typing import Any

from advisor.conversation import Conversation
from advisor.service import recommending
from advisor.service.recommending import RecommendationCache as _RecommendationCache
from advisor.service.recommending import default_catalog
from tools.profile import WorkloadProfile
from tools.recommend import recommend

FIRST = "LoRA Mistral 7B, 3 epochs, budget $500"


def test_unchanged_profile_reuses_the_same_recommendation() -> None:
    recommending.clear_recommendation_cache()
    conv = Conversation()
    first = conv.send(FIRST)
    again = conv.send("send me the PDF")  # nothing new in it: the profile stays as it was
    assert again.profile == first.profile
    assert again.recommendation is first.recommendation
    assert recommending.process_recommending().cache.hits >= 1
    # and it is what the recommender gives for that profile, uncached
    fresh = recommend(profile=first.profile, catalog=default_catalog())
    assert first.recommendation is not None
    assert fresh.model_dump_json() == first.recommendation.model_dump_json()


def test_a_changed_profile_is_recomputed() -> None:
    recommending.clear_recommendation_cache()
    conv = Conversation()
    first = conv.send(FIRST)
    second = conv.send("actually 8 epochs")
    assert second.profile.epochs == 8
    assert second.recommendation is not first.recommendation
    assert recommending.process_recommending().cache.misses == 2


def test_bounded_least_recently_used_first_out() -> None:
    cache = _RecommendationCache(2)
    catalog = object()
    calls: list[int] = []

    def compute(n: int) -> Any:
        calls.append(n)
        return n

    profiles = [WorkloadProfile(model_id="llama-3-8b", epochs=float(e)) for e in (1, 2, 3)]
    assert cache.get(profiles[0], catalog, lambda: compute(0)) == 0
    assert cache.get(profiles[1], catalog, lambda: compute(1)) == 1
    assert cache.get(profiles[0], catalog, lambda: compute(9)) == 0  # hit: 0 becomes most recent
    assert cache.get(profiles[2], catalog, lambda: compute(2)) == 2  # evicts 1
    assert cache.get(profiles[1], catalog, lambda: compute(5)) == 5  # recomputed
    assert calls == [0, 1, 2, 5]
    assert cache.get(profiles[0], object(), lambda: compute(7)) == 7  # another catalog: its own entry


def test_a_replaced_default_recommender_is_called_uncached() -> None:
    seen: list[WorkloadProfile] = []

    def stand_in(profile: WorkloadProfile) -> None:
        seen.append(profile)

    with recommending.replaced(stand_in) as wired:
        conv = Conversation()
        conv.send(FIRST)
        conv.send("send me the PDF")
    assert len(seen) == 2
    assert wired.cache.hits == 0 and wired.cache.misses == 0


def test_collector_paused_during_the_recommender_only() -> None:
    import gc

    seen: list[bool] = []
    with recommending.collector_paused():
        seen.append(gc.isenabled())
    assert seen == [False] and gc.isenabled()
    recommending.clear_recommendation_cache()
    Conversation().send(FIRST)
    assert gc.isenabled()
    gc.disable()  # a caller that keeps it off keeps it off
    try:
        with recommending.collector_paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()
