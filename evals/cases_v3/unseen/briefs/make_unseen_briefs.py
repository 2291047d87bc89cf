"""Writes the v3 unseen part's brief files (PDF through WeasyPrint, DOCX through python-docx).

    python evals/cases_v3/unseen/briefs/make_unseen_briefs.py

Same pattern as evals/cases_v2/dev/briefs/make_dev_briefs.py: the PDF puts a header on every page,
bullets, values split across a line break and words hyphenated at a line end, the way text extracted
from a real brief looks. The output is committed; rerun only to change a brief.
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

RETAIL_HTML = """
<html><head><meta charset="utf-8"><style>%s</style></head><body>
<h1>Shopping assistant: model adaptation and hosting</h1>
<p>Prepared by the e-commerce data science team for the infrastructure board. The request has two
parts: adapting an open model to our catalogue (section 2) and hosting it on the web shop (section 3).</p>
<h2>1. Background</h2>
<p>The current search box fails on natural-language questions. A pilot with a hosted model raised
conversion, so we want our own adapted model, trained on product descrip-<br>tions and past chats.</p>
<h2>2. Adaptation</h2>
<ul>
<li>Base model: Llama 3.1 70B</li>
<li>Method: LoRA, rank 64, on all linear layers</li>
<li>Data: product descriptions, reviews and anonymised chats, 2.5<br>billion tokens after cleaning</li>
<li>One epoch</li>
<li>Training se-<br>quence length: 4,096 tokens</li>
</ul>
<h2>Data residency</h2>
<p>All processing has to take place in data centres located in the EU; customer chats may not be
transferred to any third country.</p>
<div class="next"></div>
<h2>3. Hosting</h2>
<ul>
<li>Peak traffic: about 500 shoppers chatting at the same time</li>
<li>Context per conversation: 8,192 tokens</li>
<li>Each shopper should see text at 30 tokens per second or faster</li>
</ul>
<h2>4. Success criteria</h2>
<p>Conversion uplift measured in an A/B test over four weeks.</p>
</body></html>
"""


def write_pdf(name: str, header: str, html: str) -> None:
    from weasyprint import HTML  # lazy: only this generator needs WeasyPrint

    HTML(string=html % (PAGE_CSS % header)).write_pdf(HERE / name)


def write_pharma_docx(name: str) -> None:
    from docx import Document  # lazy: only this generator needs python-docx

    doc = Document()
    section = doc.sections[0]
    section.header.paragraphs[0].text = "Northwind Pharma - Regulatory Writing Assistant - INTERNAL"
    doc.add_heading("Regulatory writing assistant: training request", level=1)
    doc.add_paragraph(
        "We want a model that drafts sections of regulatory submissions in our house style. The "
        "model's weights will be fully fine-tuned end to end; we evaluated adapters and they were "
        "not good enough."
    )
    doc.add_heading("Training", level=2)
    for item in (
        "Base model: Mistral Nemo 12B.",
        "Data: 900 million tokens of past submissions and reviewer comments.",
        "Sequence length 4,096 tokens, 3 epochs.",
        "The corpus is in an Amazon S3 bucket in us-east-1.",
    ):
        doc.add_paragraph(item, style="List Bullet")
    doc.add_heading("Procurement and compliance", level=2)
    doc.add_paragraph(
        "Only providers with a current SOC 2 Type II report may be used. Microsoft Azure is excluded "
        "by procurement for this project."
    )
    doc.add_paragraph("The compute budget is capped at $20,000 and the model is needed within 14 days.")
    doc.save(str(HERE / name))


if __name__ == "__main__":
    write_pdf("retail_two_workloads.pdf", "Shopping assistant - Infrastructure board - draft 2", RETAIL_HTML)
    write_pharma_docx("pharma_full_finetune.docx")
