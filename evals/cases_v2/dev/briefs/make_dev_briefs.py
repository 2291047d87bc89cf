"""Writes the dev part's brief files (PDF through WeasyPrint, DOCX through python-docx).

    python evals/cases_v2/dev/briefs/make_dev_briefs.py

The PDF puts a header on every page, bullets, a value split across a line break and words hyphenated
at a line end, the way text extracted from a real brief looks. The output is committed; rerun only to
change a brief.
"""

from __future__ import annotations

from pathlib import Path

HERE = Path(__file__).resolve().parent

PAGE_CSS = """
@page { size: A4; margin: 28mm 22mm;
        @top-center { content: "%s"; font-size: 9pt; color: #555; }
        @bottom-right { content: "Page " counter(page) " of " counter(pages); font-size: 9pt; } }
body { font-family: sans-serif; font-size: 11pt; line-height: 1.4; }
h1 { font-size: 18pt; } h2 { font-size: 14pt; margin-top: 1.2em; }
.next { page-break-before: always; }
"""

TWO_WORKLOADS_HTML = """
<html><head><meta charset="utf-8"><style>%s</style></head><body>
<h1>Project Atlas: contract review assistant</h1>
<p>Owner: Applied ML team. Status: draft for procurement. This brief covers two workloads: adapting
the model (section 2) and serving it to the legal department (section 3).</p>
<h2>1. Background</h2>
<p>Our lawyers spend hours on first-pass review of supplier contracts. We want an assistant that
flags unusual clauses and drafts a summary. The pilot with a hosted API went well, and we now want our
own fine-<br>tuned model.</p>
<h2>2. Training</h2>
<ul>
<li>Base model: Llama 3.1 70B</li>
<li>Method: LoRA adapters (rank 16) on the attention and MLP projections</li>
<li>Training data: annotated contracts and clause summaries, 1.2<br>billion tokens in total</li>
<li>Epochs: 2</li>
<li>Training se-<br>quence length: 4,096 tokens (contracts are chunked)</li>
<li>Timeline: the adapted model is needed within 3 weeks of kick-off</li>
</ul>
<div class="next"></div>
<h2>3. Serving</h2>
<ul>
<li>Users: the legal department, about 300 concurrent users at peak</li>
<li>Context window at inference: 32,768 tokens (a whole contract plus instructions)</li>
<li>Hours: business hours, Monday to Friday</li>
</ul>
<h2>4. Evaluation plan</h2>
<p>A panel of three lawyers scores 200 held-out contracts before and after fine-tuning.</p>
</body></html>
"""


def write_pdf(name: str, header: str, html: str) -> None:
    from weasyprint import HTML

    HTML(string=html % (PAGE_CSS % header)).write_pdf(HERE / name)


def write_serving_docx(name: str) -> None:
    from docx import Document

    doc = Document()
    section = doc.sections[0]
    section.header.paragraphs[0].text = "Helvetia Insurance - Claims Copilot - CONFIDENTIAL"
    doc.add_heading("Claims Copilot: hosting requirements", level=1)
    doc.add_paragraph(
        "We will serve a Llama 3.1 70B Instruct model to our claims handlers. The model is used as is "
        "(no fine-tuning); this document is only about hosting it."
    )
    doc.add_heading("Usage", level=2)
    for item in (
        "About 120 claims handlers use it at the same time during the day.",
        "Each request carries up to 8k tokens of context (the claim file and the question).",
        "Answers must stream at 40 ms per token or faster.",
        "The service runs roughly 70% of the time across the week.",
    ):
        doc.add_paragraph(item, style="List Bullet")
    doc.add_heading("Compliance", level=2)
    doc.add_paragraph(
        "All customer data must be processed and stored inside the European Union; no transfer of "
        "personal data to third countries is permitted."
    )
    doc.add_paragraph(
        "We are in a contract dispute with Amazon Web Services, so AWS is not an option for this project."
    )
    doc.add_heading("Commercials", level=2)
    doc.add_paragraph("We plan for a two-year horizon (24 months).")
    doc.save(str(HERE / name))


if __name__ == "__main__":
    write_pdf("atlas_two_workloads.pdf", "Project Atlas - Internal - v0.3", TWO_WORKLOADS_HTML)
    write_serving_docx("claims_copilot_serving.docx")
