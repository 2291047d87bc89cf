"""Instance types map to the GPUs they hold (advisor/extract/instance_types.py's sources)."""

from __future__ import annotations

import pytest

from advisor.extract.instance_types import find_instances
from tools.catalog.load import load_catalog


@pytest.mark.parametrize(
    ("text", "gpu", "count", "provider"),
    [
        ("one p5.48xlarge", "h100-sxm", 8, "aws"),  # shared/references/prices.md: 8x H100 SXM
        ("2x p4d.24xlarge", "a100-40gb-sxm", 16, "aws"),  # prices.md: p4d is A100 40GB, 8 per instance
        ("a p5en.48xlarge", "h200", 8, "aws"),
        ("three a3-highgpu-4g", "h100-sxm", 12, "gcp"),  # the -4g suffix is 4 GPUs
        ("a3-ultragpu-8g", "h200", 8, "gcp"),  # prices.md: a3-ultragpu-8g H200
        ("an ND H100 v5", "h100-sxm", 8, "azure"),
        ("NC40ads_H100_v5", "h100-nvl", 1, "azure"),  # prices.md: H100 NVL
        ("g6e.12xlarge", "l40s", 4, "aws"),
    ],
)
def test_instance_types_give_gpu_and_count(text: str, gpu: str, count: int, provider: str) -> None:
    (found,) = find_instances(text)
    assert (found.gpu_id, found.gpu_count, found.provider) == (gpu, count, provider)


def test_every_mapped_gpu_is_in_the_catalog() -> None:
    from advisor.extract.instance_types import INSTANCE_TYPES

    ids = {g.id for g in load_catalog().gpus}
    assert {gpu for _, gpu, _, _ in INSTANCE_TYPES} <= ids


def test_near_miss_names_that_only_look_alike() -> None:
    assert find_instances("p5.48xlargest, xp5.48xlarge, a3-highgpu-3g") == []
