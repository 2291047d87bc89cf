"""Price records for the cost tests, built from the schema (figures: shared/references/prices.md)."""

from __future__ import annotations

import datetime as dt

import pytest

from tools.catalog.schema import EgressSchedule, EgressTier, StoragePrice

AS_OF = dt.date(2026, 11, 1)

# AWS internet egress: first 100 GB/month free, $0.09/GB to 10 TB, $0.085 next 40 TB, $0.07 next
# 100 TB, $0.05 above 150 TB (skypilot sky/clouds/aws.py; seed 001). TB = 1,024 GB as AWS bills.
AWS_EGRESS = EgressSchedule(
    cloud="aws",
    free_gb_per_month=100,
    source="prices.md (AWS egress)",
    as_of=AS_OF,
    tiers=(
        EgressTier(up_to_gb=10240, usd_per_gb=0.09),
        EgressTier(up_to_gb=51200, usd_per_gb=0.085),
        EgressTier(up_to_gb=153600, usd_per_gb=0.07),
        EgressTier(usd_per_gb=0.05),
    ),
)
# GCP: $0.12/GB to 1 TB, $0.11 to 10 TB, then $0.08; no free allowance (prices.md).
GCP_EGRESS = EgressSchedule(
    cloud="gcp",
    free_gb_per_month=0,
    source="prices.md (GCP egress)",
    as_of=AS_OF,
    tiers=(
        EgressTier(up_to_gb=1024, usd_per_gb=0.12),
        EgressTier(up_to_gb=10240, usd_per_gb=0.11),
        EgressTier(usd_per_gb=0.08),
    ),
)
S3 = StoragePrice(provider="aws", usd_per_gb_month=0.023, source="prices.md (S3 Standard)", as_of=AS_OF)


@pytest.fixture(scope="session")
def aws_egress() -> EgressSchedule:
    return AWS_EGRESS


@pytest.fixture(scope="session")
def gcp_egress() -> EgressSchedule:
    return GCP_EGRESS


@pytest.fixture(scope="session")
def s3() -> StoragePrice:
    return S3
