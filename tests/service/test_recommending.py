"""advisor.service.recommending: the process's recommender is tools.recommend on the bundled catalog
through the caches unless a stand-in is injected; the conversation and the LangChain tools get it."""

from __future__ import annotations

from typing import Any

from advisor.conversation import Conversation
from advisor.llm.numbers import AllowedNumbers
from advisor.llm.tools import ToolBox
from advisor.service import recommending
from advisor.service.recommending import Recommending
from tools.profile import WorkloadProfile
from tools.recommend import recommend

PROFILE = WorkloadProfile(model_id="mistral-7b", method="lora", dataset_tokens=5e7, epochs=3.0)


def test_the_default_recommends_on_the_bundled_catalog_through_its_cache() -> None:
    wired = Recommending()
    assert wired.is_default
    first = wired(PROFILE)
    assert wired.recommend(PROFILE) is first  # the second call is the cache's
    assert (wired.cache.hits, wired.cache.misses) == (1, 1)
    fresh = recommend(profile=PROFILE, catalog=recommending.default_catalog())
    assert fresh.model_dump_json() == first.model_dump_json()
    wired.clear()
    assert (wired.cache.hits, wired.cache.misses) == (0, 0)


def test_an_injected_recommender_is_called_as_it_is_uncached() -> None:
    calls: list[WorkloadProfile] = []

    def stand_in(profile: WorkloadProfile) -> str:
        calls.append(profile)
        return f"pick {len(calls)}"

    wired = Recommending(stand_in)
    assert not wired.is_default
    assert [wired(PROFILE), wired(PROFILE)] == ["pick 1", "pick 2"]
    assert wired.cache.misses == 0
    assert Conversation(recommender=wired).recommend(PROFILE) == "pick 3"


def test_conversations_and_tools_get_the_process_recommender_replaced_inside_the_block() -> None:
    default = recommending.process_recommending()
    assert default.is_default

    def stand_in(profile: WorkloadProfile) -> Any:
        return "stand-in"

    with recommending.replaced(stand_in) as wired:
        assert recommending.process_recommending() is wired and not wired.is_default
        assert Conversation().recommend(PROFILE) == "stand-in"
        box = ToolBox(PROFILE, AllowedNumbers())
        assert box._recommender is wired
    assert recommending.process_recommending() is default
    assert Conversation()._recommender is default
