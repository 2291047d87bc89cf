"""Writes the held-out part's brief files (PDF through WeasyPrint, DOCX through python-docx).

    python evals/cases_v2/heldout/briefs/make_heldout_briefs.py

HELD-OUT: do not read while writing extraction rules (see evals/cases_v2/README.md). The PDFs put a
header on every page, bullets, values split across line breaks and words hyphenated at a line end, the
way text extracted from a real brief looks. The output is committed; rerun only to change a brief.
"""

from __future__ import annotations

from pathlib import Path

HERE = Path(__file__).resolve().parent

PAGE_CSS = """
@page { size: A4; margin: 28mm 22mm;
        @top-left { content: "%s"; font-size: 9pt; color: #555; }
        @bottom-center { content: counter(page); font-size: 9pt; } }
body { font-family: serif; font-size: 11pt; line-height: 1.45; }
h1 { font-size: 17pt; } h2 { font-size: 13pt; margin-top: 1.1em; }
.next { page-break-before: always; }
td, th { border: 1px solid #999; padding: 3px 6px; text-align: left; }
table { border-collapse: collapse; }
"""

RFP_HTML = """
<html><head><meta charset="utf-8"><style>%s</style></head><body>
<h1>Request for Proposal: GPU capacity for the NordBank knowledge model</h1>
<p>NordBank AB invites GPU cloud providers and resellers to propose capacity for two related workloads:
adapting an open-weight model to our internal knowledge base (Part A), and hosting the adapted model
for employees (Part B). Proposals are due on 4 December.</p>
<h2>Part A: model adaptation</h2>
<p>We will start from Qwen2.5 32B. The model will be fully fine-<br>tuned: every weight is updated, no
adapters and no quantisation during training. Mixed precision (bf16) is acceptable.</p>
<ul>
<li>Training corpus: internal wiki, policies and anonymised case notes, about 3.6<br>billion tokens</li>
<li>Passes over the data: one epoch</li>
<li>Training sequence length: 8,192 to-<br>kens</li>
<li>The run must complete within 21 days of access to the hardware</li>
</ul>
<div class="next"></div>
<h2>Part B: hosting</h2>
<ul>
<li>Expected load: 500 concurrent employees at peak</li>
<li>Maximum context per request: 32,768 tokens (long policy documents are pasted in full)</li>
<li>Availability: business hours in Stockholm and Oslo</li>
</ul>
<h2>Regulatory requirements</h2>
<p>As a regulated credit institution we require that all processing, storage and backups take place
within the EU/EEA. Proposals relying on data centres outside the EU/EEA will not be considered.</p>
<h2>Evaluation of proposals</h2>
<p>Price 40%%, delivery time 30%%, compliance 30%%.</p>
</body></html>
"""

SERVING_HTML = """
<html><head><meta charset="utf-8"><style>%s</style></head><body>
<h1>Service design note: "Ask HR" assistant</h1>
<p>This note fixes the sizing inputs for hosting the Ask HR assistant in production. Training is out of
scope: the model is used off the shelf with retrieval.</p>
<h2>Model</h2>
<ul><li>Llama 3.3 70B Instruct, served with vLLM</li></ul>
<h2>Traffic</h2>
<ul>
<li>Peak: 400 concurrent sessions (Monday mornings, payroll days)</li>
<li>Average prompt including retrieved passages: 2,000 tokens</li>
<li>Average response: 600 tokens</li>
<li>Streaming speed: at least 25 tokens per second per user, or the interface feels bro-<br>ken</li>
</ul>
<div class="next"></div>
<h2>Platform constraints</h2>
<ul>
<li>Provider: AWS only (existing enterprise agreement and security review)</li>
<li>On-Demand or Reserved capacity only. Spot is not permitted for production workloads.</li>
</ul>
<h2>Planning horizon</h2>
<p>Costs should be planned over 24<br>months.</p>
</body></html>
"""


def write_pdf(name: str, header: str, html: str) -> None:
    from weasyprint import HTML

    HTML(string=html % (PAGE_CSS % header)).write_pdf(HERE / name)


def write_training_docx(name: str) -> None:
    from docx import Document

    doc = Document()
    doc.sections[0].header.paragraphs[0].text = "Fleetline Logistics - ML platform"
    doc.add_heading("Dispatcher assistant: fine-tuning plan", level=1)
    doc.add_paragraph(
        "We want to teach Llama 3.1 70B how our dispatchers talk to drivers and customers. The "
        "adaptation uses LoRA; the base weights stay frozen."
    )
    doc.add_heading("Data", level=2)
    doc.add_paragraph(
        "45,000 dispatcher conversations exported from the ticketing system, averaging 1,200 tokens "
        "each. We plan 3 epochs."
    )
    doc.add_heading("Settings", level=2)
    table = doc.add_table(rows=3, cols=2)
    for row, (k, v) in zip(
        table.rows,
        (("LoRA rank", "64"), ("Sequence length", "4,096 tokens"), ("Precision", "bf16")),
        strict=True,
    ):
        row.cells[0].text, row.cells[1].text = k, v
    doc.add_heading("Hardware", level=2)
    doc.add_paragraph(
        "We have an 8x H100 80GB server on site that we own; please use it if the job fits. Otherwise "
        "we will rent cloud capacity."
    )
    doc.add_heading("Budget and timing", level=2)
    doc.add_paragraph("Budget: USD 12,000. The adapter is needed in 2 weeks.")
    doc.save(str(HERE / name))


def write_two_workloads_docx(name: str) -> None:
    from docx import Document

    doc = Document()
    doc.add_heading("Patient-letter simplifier: compute brief", level=1)
    doc.add_paragraph(
        "Clinic network Süd wants a model that rewrites discharge letters in plain language. There are "
        "two parts: training the model and running it for our staff."
    )
    doc.add_heading("1. Training", level=2)
    for item in (
        "Base model: Gemma 2 27B",
        "Method: QLoRA (4-bit base, LoRA adapters)",
        "Corpus: 150M tokens of paired letters (original and simplified)",
        "Training sequence length: 2,048 tokens",
    ):
        doc.add_paragraph(item, style="List Bullet")
    doc.add_heading("2. Serving", level=2)
    for item in (
        "Max context: 8,192 tokens",
        "Concurrent users: 60 doctors and nurses",
    ):
        doc.add_paragraph(item, style="List Bullet")
    doc.add_heading("3. Data protection", level=2)
    doc.add_paragraph(
        "Personal data must remain within the EEA at all times, including during training; the letters "
        "are health data under Art. 9 GDPR."
    )
    doc.save(str(HERE / name))


if __name__ == "__main__":
    write_pdf("nordbank_rfp.pdf", "NordBank AB | RFP 2026-117 | Confidential", RFP_HTML)
    write_pdf("ask_hr_serving.pdf", "Ask HR - service design note - rev B", SERVING_HTML)
    write_training_docx("dispatcher_lora_plan.docx")
    write_two_workloads_docx("patient_letters_brief.docx")
