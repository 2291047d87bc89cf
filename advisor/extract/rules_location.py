"""Data location rules (moved from rules_context.py, module size): data_location and data_region from storage
names (S3, GCS, Azure Blob, on-prem) and cloud regions; data_cached."""

from __future__ import annotations

from advisor.extract.regex_keys import keyed
from advisor.extract.rules_ctx import Ctx, I, negated, q
from advisor.extract.sentence_memo import read_once

_LOCATIONS = (
    (
        keyed(
            r"\b(?:s3|amazon s3|aws s3|s3 bucket)\b|\b(?:data|dataset|corpus|bucket)\b[^.]{0,30}\b(?:on"
            r"|in) aws\b",
            I,
        ),
        "aws",
    ),
    (
        keyed(
            r"\b(?:gcs|google cloud storage|gs://)|\b(?:data|dataset|corpus|bucket)\b[^.]{0,30}\b(?:on"
            r"|in) (?:gcp|google cloud)\b",
            I,
        ),
        "gcp",
    ),
    (
        keyed(
            r"\b(?:azure blob(?: storage)?|adls|azure data lake|azure storage)\b|\b(?:data|dataset"
            r"|corpus)\b[^.]{0,30}\b(?:on|in) azure\b",
            I,
        ),
        "azure",
    ),
    (
        keyed(
            r"\b(?:on[\s-]?prem(?:ise|ises)?|our own (?:nas|servers?|storage|data ?cent(?:er"
            r"|re))|"
            r"nas\b|local (?:file ?system|disks?|storage)|university cluster)",
            I,
        ),
        "on_prem",
    ),  # fmt: skip
)
_AWS_REGION = keyed(
    r"\b(?:us|eu|ap|sa|ca|me|af|il|mx)-(?:east|west|north|south|central|northeast|southeast|northwest"
    r"|southwest)-\d\b",
    I,
)
_GCP_REGION = keyed(
    r"\b(?:us|europe|asia|australia|northamerica|southamerica|me|africa)-(?:west|east|central|north|south"
    r"|northeast|southeast|southwest|northwest)\d{1,2}\b",
    I,
)
_AZURE_REGION = keyed(
    r"\b(?:westeurope|northeurope|eastus2?|westus[23]?|centralus|southcentralus|northcentralus|uksouth"
    r"|ukwest|"
    r"francecentral|germanywestcentral|swedencentral|switzerlandnorth|norwayeast|polandcentral|italynorth|"
    r"spaincentral|westcentralus|canadacentral|japaneast|australiaeast|southeastasia|eastasia"
    r"|centralindia)\b",
    I,
)
_DATA_CONTEXT = keyed(
    r"\b(?:data(?!\s+scien)|dataset|corpus|stored|storage|sits|lives|bucket|files|text|nas)\b", I
)


@read_once
def rule_location(ctx: Ctx) -> None:
    """data_location and data_region from storage names (S3, GCS, Azure Blob, on-prem) and regions."""
    entries = (*(rx for rx, _loc in _LOCATIONS), _AWS_REGION, _GCP_REGION, _AZURE_REGION, _CACHED)
    for s in ctx.sentences_with(*entries):  # each finding below needs one of them to match
        t = s.text
        for rx, loc in _LOCATIONS:
            for m in rx.finditer(t):
                if negated(t, m.start()):
                    continue
                if loc == "on_prem" and not _DATA_CONTEXT.search(t):
                    continue
                ctx.add(s, "data_location", loc, q(m), "stated", m.start())
        for rx, loc in ((_AWS_REGION, "aws"), (_GCP_REGION, "gcp"), (_AZURE_REGION, "azure")):
            for m in rx.finditer(t):
                ctx.add(s, "data_region", m.group(0).lower(), q(m), "stated", m.start())
                if not ctx.has("data_location"):
                    ctx.add(s, "data_location", loc, f'region "{q(m)}" -> {loc}', "inferred", m.start())
        if _CACHED.search(t):
            ctx.add(s, "data_cached", True, t, "stated")


_CACHED = keyed(r"\b(?:cache[sd]?|copy|copied)\b[^.]{0,40}\b(?:once|after the first pull|locally)\b", I)
