"""Required providers and pricing ruled out show in the report's workload table and the reply's
'I understood' line, in words ('on-demand', not 'on_demand')."""

from __future__ import annotations

from advisor.extract.rules import RulesExtractor
from advisor.llm.templates import understood
from reports.labels import FIELD_LABELS, field_value


def test_report_and_reply_name_the_constraints() -> None:
    p = RulesExtractor().extract("Must be on AWS, on-demand only. LoRA Llama 3 8B on 50M tokens.")
    assert field_value("pricing_excluded", p.pricing_excluded) == "spot, reserved, owned"
    assert field_value("pricing_excluded", ["on_demand"]) == "on-demand"
    assert {"providers_required", "pricing_excluded"} <= set(FIELD_LABELS)
    line = understood(p, ["providers_required", "pricing_excluded"])
    assert "required providers (nothing else) aws" in line
    assert "pricing ruled out spot, reserved, owned" in line
