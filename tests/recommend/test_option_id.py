"""OptionId: an option's identity as fields, written and read as the legacy key text."""

from __future__ import annotations

import pytest

from tools.ranges import Range
from tools.recommend.models import Option, SensitivityItem, option_json
from tools.recommend.option_id import OptionId


def _id(**kw: object) -> OptionId:
    base: dict[str, object] = {
        "gpu": "h100-sxm",
        "total_gpus": 1,
        "provider": "lambda",
        "pricing": "on_demand",
        "region": None,
    }
    return OptionId.of(**{**base, **kw})  # type: ignore[arg-type]


def test_text_is_the_legacy_key_and_parses_back() -> None:
    assert _id().text() == "h100-sxmx1@lambda/on_demand/-"
    assert _id(region="us-east-1", total_gpus=16).text() == "h100-sxmx16@lambda/on_demand/us-east-1"
    for key in (_id(), _id(region="eu-west-1"), _id(gpu="rtx-4090", total_gpus=2, provider="vast-ai")):
        assert OptionId.parse(key.text()) == key
    with pytest.raises(ValueError):
        OptionId.parse("not a key")


def test_an_empty_region_is_no_region() -> None:
    assert _id(region="") == _id(region=None)
    assert OptionId.parse("a100-80gbx8@aws/spot/-").region is None


def test_equality_and_hashing_follow_the_fields() -> None:
    assert _id() == _id()
    assert _id() != _id(total_gpus=2)
    assert _id() != _id(pricing="spot")
    seen = {_id(): "a", _id(region="us"): "b"}
    assert seen[_id()] == "a" and len(seen) == 2
    assert _id().configuration == _id(provider="aws", region="us").configuration
    assert _id().configuration != _id(total_gpus=8).configuration


def test_order_is_the_order_of_the_text() -> None:
    ids = [_id(gpu="l40s"), _id(total_gpus=16), _id(total_gpus=2), _id(provider="aws"), _id(region="eu")]
    assert [i.text() for i in sorted(ids)] == sorted(i.text() for i in ids)


def test_json_writes_the_text_and_reads_it_back() -> None:
    key = _id(region="us-east-1")
    item = SensitivityItem(input="mfu", low="a", high="b", changes_primary=True, primary_at_low=key)
    dumped = item.model_dump(mode="json")
    assert dumped["primary_at_low"] == "h100-sxmx1@lambda/on_demand/us-east-1"
    assert dumped["primary_at_high"] is None
    assert SensitivityItem.model_validate(dumped) == item
    assert SensitivityItem.model_validate_json(item.model_dump_json()) == item


def test_option_key_matches_its_fields() -> None:
    hours = Range(low=1.0, high=2.0)
    opt = Option(
        gpu="h100-sxm",
        gpus_per_node=8,
        nodes=2,
        total_gpus=16,
        vram_gib_per_gpu=80.0,
        peak_gib_per_gpu=40.0,
        provider="lambda",
        pricing="on_demand",
        usd_per_gpu_hour=2.0,
        wall_hours=hours,
        cost_usd=hours,
        region="us-east-1",
    )
    assert opt.key == _id(total_gpus=16, region="us-east-1")
    assert option_json(opt)["key"] == "h100-sxmx16@lambda/on_demand/us-east-1"
