"""Cloud instance types named for the GPUs they hold (expert review 16, R13: "a 1-year AWS reservation
for one p5.48xlarge (8x H100)" was dropped, where "8x H100 SXM reserved on AWS" is read).

- INSTANCE_TYPES: name pattern -> (catalog GPU id, GPUs per instance, provider id). Sources read
  2026-11-28: shared/references/prices.md lines 9-11 (p5.48xlarge 8x H100 SXM, p4de A100 80GB, p4d A100
  40GB, ND96isr_H100_v5, NC40ads_H100_v5 H100 NVL, NC24ads_A100_v4, a3-highgpu H100, a3-ultragpu-8g 8x
  H200); torchx named_resources_aws.py (github.com/meta-pytorch/torchx: p4d/p4de/p5/p5e/p5en gpu=8);
  a GPU-instance table (gist.github.com/shashankprasanna/10ebe6dc1ba1d8d93db17da4e2cc890e: p4d.24xlarge
  8x A100 40GB, g5 A10G 1 or 4 per size); Hugging Face's Azure hardware page
  (huggingface.co/docs/microsoft-azure/azure-ai/hardware: NC A100 v4 1/2/4, NC H100 v5 1/2, ND96asr_v4
  8x A100 40GB, ND96amsr_A100_v4 8x A100 80GB, ND96isr_H100_v5 8x H100); GoogleCloudPlatform
  cluster-toolkit release v1.44.1 (a3-ultragpu-8g: 8 H200). NOT read here, written from the clouds' naming
  (verify before relying on them): p5e/p5en H200, p6-b200 B200, g6 L4 / g6e L40S sizes, a4-highgpu-8g
  B200, a2-ultragpu A100 80GB, g2-standard L4, ND H200 v5, ND MI300X v5.
- find_instances(text): every instance type named, with how many instances were said before it ("one
  p5.48xlarge", "2x p4d.24xlarge"), as (gpu id, total GPUs, provider, start, end).
"""

from __future__ import annotations

import re
from typing import NamedTuple

_AZ = r"(?:standard[_ ])?"  # Azure sizes are also written with their "Standard_" prefix
# pattern -> (GPU id, GPUs per instance, provider); a size group "n" gives the count where the name does
INSTANCE_TYPES: tuple[tuple[str, str, int, str], ...] = (
    # AWS EC2
    (r"p5\.48xlarge", "h100-sxm", 8, "aws"),
    (r"p5\.4xlarge", "h100-sxm", 1, "aws"),
    (r"p5en?\.48xlarge", "h200", 8, "aws"),
    (r"p4de\.24xlarge", "a100-80gb-sxm", 8, "aws"),
    (r"p4d\.24xlarge", "a100-40gb-sxm", 8, "aws"),
    (r"p6-b200\.48xlarge", "b200", 8, "aws"),
    (r"g6e\.(?:12|24)xlarge", "l40s", 4, "aws"),
    (r"g6e\.48xlarge", "l40s", 8, "aws"),
    (r"g6e\.(?:2|4|8|16)?xlarge", "l40s", 1, "aws"),
    (r"g6\.(?:12|24)xlarge", "l4", 4, "aws"),
    (r"g6\.48xlarge", "l4", 8, "aws"),
    (r"g6\.(?:2|4|8|16)?xlarge", "l4", 1, "aws"),
    (r"g5\.(?:12|24)xlarge", "a10g", 4, "aws"),
    (r"g5\.48xlarge", "a10g", 8, "aws"),
    (r"g5\.(?:2|4|8|16)?xlarge", "a10g", 1, "aws"),
    # GCP Compute Engine: the "-Ng" suffix is the GPU count
    (r"a3-(?:high|mega|edge)gpu-(?P<n>[1248])g", "h100-sxm", 0, "gcp"),
    (r"a3-ultragpu-(?P<n>8)g", "h200", 0, "gcp"),
    (r"a4-highgpu-(?P<n>8)g", "b200", 0, "gcp"),
    (r"a2-(?:high|mega)gpu-(?P<n>1|2|4|8|16)g", "a100-40gb-sxm", 0, "gcp"),
    (r"a2-ultragpu-(?P<n>[1248])g", "a100-80gb-sxm", 0, "gcp"),
    # Azure
    (_AZ + r"(?:nd96isr[_ ]h100[_ ]v5|nd\s+h100\s+v5)", "h100-sxm", 8, "azure"),
    (_AZ + r"(?:nd96isr[_ ]h200[_ ]v5|nd\s+h200\s+v5)", "h200", 8, "azure"),
    (_AZ + r"(?:nd96amsr[_ ]a100[_ ]v4|ndm\s+a100\s+v4)", "a100-80gb-sxm", 8, "azure"),
    (_AZ + r"(?:nd96asr[_ ](?:a100[_ ])?v4|nd\s+a100\s+v4)", "a100-40gb-sxm", 8, "azure"),
    (_AZ + r"(?:nd96isr[_ ]mi300x[_ ]v5|nd\s+mi300x\s+v5)", "mi300x", 8, "azure"),
    (_AZ + r"nc40ads[_ ]h100[_ ]v5", "h100-nvl", 1, "azure"),
    (_AZ + r"nc80adis[_ ]h100[_ ]v5", "h100-nvl", 2, "azure"),
    (_AZ + r"nc24ads[_ ]a100[_ ]v4", "a100-80gb-pcie", 1, "azure"),
)
_WORDS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "eight": 8}
# how many instances were said right before the name: "one p5.48xlarge", "2x p4d.24xlarge", "4 x a3-..."
_COUNT_BEFORE = re.compile(r"\b(?P<k>\d{1,3}|a|an|one|two|three|four|five|six|eight)\s*(?:x|×)?\s*$", re.I)
_COMPILED = tuple(
    (re.compile(rf"(?<![\w.-])(?:{pat})(?![\w-])", re.I), gpu, per, provider)
    for pat, gpu, per, provider in INSTANCE_TYPES
)


class Instance(NamedTuple):
    gpu_id: str
    gpu_count: int
    provider: str
    start: int
    end: int


def find_instances(text: str) -> list[Instance]:
    """Every instance type named in `text`, its GPUs x the instances said before it (module docstring)."""
    out: list[Instance] = []
    for rx, gpu, per, provider in _COMPILED:
        for m in rx.finditer(text):
            if any(i.start <= m.start() < i.end for i in out):
                continue
            each = per or int(m.group("n"))
            k = _COUNT_BEFORE.search(text, max(0, m.start() - 12), m.start())
            instances = 1 if k is None else _WORDS.get(k.group("k").lower()) or int(k.group("k"))
            out.append(Instance(gpu, each * instances, provider, m.start(), m.end()))
    return sorted(out, key=lambda i: i.start)
