"""`gpu-advisor ask` on the v17 procurement XML (evals/cases_v17/serving.yaml,
v17-serve-xml-procurement-nemo-eu-l40s) with the real engine: Mistral NeMo 12B, 120 sessions, 6,000-token
prompts, first token in 2 s (then 1 s, a target the L40S range straddles), EU only, L40S, Nebius preferred.
The reply names an L40S layout at an EU provider and its TTFT verdict, never 'nothing fits' (srv15)."""

from __future__ import annotations

import json

import pytest

from advisor.cli import main

XML = """<ServiceRequest id="REQ-2026-1187">
  <Workload type="inference">
    <Model>Mistral NeMo 12B</Model>
    <ConcurrentSessions>120</ConcurrentSessions>
    <PromptTokens>6000</PromptTokens>
    <OutputTokens>500</OutputTokens>
    <TimeToFirstToken unit="s">{ttft}</TimeToFirstToken>
  </Workload>
  <Constraints>
    <DataResidency>EU only</DataResidency>
    <GPU>L40S</GPU>
    <PreferredProvider>Nebius</PreferredProvider>
  </Constraints>
</ServiceRequest>"""


@pytest.mark.parametrize(
    ("ttft", "verdict"), [("2", "within your 2 s target"), ("1", "over at the slow end")]
)
def test_ask_answers_an_l40s_layout_with_its_ttft_verdict(
    capsys: pytest.CaptureFixture[str], ttft: str, verdict: str
) -> None:
    assert main(["ask", XML.format(ttft=ttft), "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["profile"]["ttft_target_s"] == float(ttft) and out["profile"]["gpus_wanted"] == ["l40s"]
    primary = out["recommendation"]["primary"]
    assert primary is not None and primary["gpu"] == "l40s" and primary["eu"] is True
    assert any(verdict in w for w in primary["why"])
    assert "Nothing in the catalog fits" not in out["reply"]
