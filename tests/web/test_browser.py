"""End to end: a real uvicorn server on 127.0.0.1 driven by headless Chromium (Debian's /usr/bin/chromium
through Playwright's Python package; no browser download). Chat, answer the advisor's question, upload a
brief, create the PDF, download it and read its text; XSS stays inert in the page.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from advisor.store import open_repository
from advisor.web.app import create_app
from advisor.web.settings import WebSettings

CHROMIUM = os.environ.get("GPU_ADVISOR_CHROMIUM", "/usr/bin/chromium")
LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
BRIEF = """# Support assistant fine-tune

Our budget is $2,000 and we need it within 2 weeks. The data sits in us-east-1.
"""
XSS = '<img src=x onerror="window.__xss=1"><script>window.__xss=2</script>" autofocus onfocus="window.__xss=3'


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright (Python package) not installed")
    if not (Path(CHROMIUM).exists() or shutil.which(CHROMIUM)):
        pytest.skip(f"Chromium not found at {CHROMIUM} (Debian package 'chromium'; set GPU_ADVISOR_CHROMIUM)")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=LAUNCH_ARGS)
        yield b
        b.close()


@pytest.fixture
def server(tmp_path: Path, live_server: Any) -> Any:
    repo = open_repository(f"sqlite:///{tmp_path / 'e2e.sqlite'}")
    app = create_app(repo=repo, reports_dir=tmp_path / "reports", settings=WebSettings(report_poll_s=0.1))
    yield live_server(app)
    repo.engine.dispose()


def test_chat_upload_answer_and_download_the_pdf(browser: Any, server: Any, tmp_path: Path) -> None:
    from pypdf import PdfReader

    page = browser.new_page(accept_downloads=True)
    page.set_default_timeout(60_000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(server.url + "/")

    # Keyboard: type in the labelled message box and press Enter.
    box = page.get_by_label("Your message")
    box.fill("We want to fine-tune a model")
    box.press("Enter")
    question = page.locator("#question-list li").first
    question.wait_for()
    assert "model" in question.inner_text().lower()
    assert page.locator("#recommendation").inner_text().strip() == "No recommendation yet."

    # Answer the advisor's question: the Answer button puts focus in the message box.
    question.get_by_role("button").click()
    assert page.evaluate("document.activeElement.id") == "message"
    page.keyboard.type("Llama 3 8B with LoRA on 50M tokens, 3 epochs")
    page.keyboard.press("Enter")
    page.locator(".primary-pick .title").wait_for()
    assert "×" in page.locator(".primary-pick .title").inner_text()
    profile = page.locator("#profile-rows")
    assert "llama-3-8b" in profile.inner_text()
    assert page.locator("#assumed-rows .badge.assumed").count() > 0  # defaults, folded away
    assert page.locator("#profile-rows .badge.stated").count() > 0

    # Upload a brief with the file picker.
    brief = tmp_path / "brief.md"
    brief.write_text(BRIEF)
    page.get_by_label("Choose a brief file").set_input_files(str(brief))
    page.get_by_role("button", name="Upload brief").click()
    page.get_by_text("Read brief.md").wait_for()
    assert "2,000" in profile.inner_text()  # the brief's budget is in the profile now
    assert page.locator("#transcript .msg.user").last.inner_text().find("[brief: brief.md]") >= 0

    # Create the report, watch the progress, download the PDF.
    page.get_by_role("button", name="Create PDF report").click()
    download_button = page.get_by_role("button", name="Download PDF")
    download_button.wait_for(state="visible", timeout=120_000)
    assert page.evaluate("document.activeElement.id") == "download"  # focus moved to the result
    with page.expect_download() as info:
        download_button.click()
    saved = tmp_path / "downloaded.pdf"
    info.value.save_as(saved)
    text = "\n".join(p.extract_text() for p in PdfReader(saved).pages)
    assert "llama-3-8b" in text.lower() or "Llama 3 8B" in text
    assert "2,000" in text  # the budget from the brief reached the report

    # A reload restores the conversation from the server (the session is in sessionStorage).
    page.reload()
    page.locator("#transcript .msg.user").nth(2).wait_for()
    assert page.locator("#transcript .msg").count() == 7  # intro + 3 user + 3 advisor
    assert "2,000" in page.locator("#profile-rows").inner_text()
    assert errors == []
    page.close()


def test_user_text_renders_inert(browser: Any, server: Any) -> None:
    page = browser.new_page()
    page.set_default_timeout(60_000)
    dialogs: list[str] = []

    def on_dialog(dialog: Any) -> None:
        dialogs.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", on_dialog)
    page.goto(server.url + "/")
    page.get_by_label("Your message").fill(XSS)
    page.get_by_role("button", name="Send").click()
    page.locator("#transcript .msg.assistant:not(.pending)").nth(1).wait_for()
    user = page.locator("#transcript .msg.user .text").first
    assert user.inner_text() == XSS  # shown literally
    assert page.locator("#transcript img").count() == 0 and page.locator("#transcript script").count() == 0
    assert page.evaluate("window.__xss === undefined")
    assert dialogs == []
    page.close()


def test_a_refused_message_stays_in_the_box_with_the_reason(browser: Any, server: Any) -> None:
    """413 (too long) and 429 (rate limit) alike: the text is given back, not shown as sent (issue 17)."""
    page = browser.new_page()
    page.set_default_timeout(60_000)
    page.goto(server.url + "/")
    box = page.get_by_label("Your message")
    too_long = "LoRA Llama 3 8B on 20M tokens. " + "x" * 25_000
    box.fill(too_long)
    box.press("Enter")
    error = page.locator("#error")
    error.wait_for(state="visible")
    assert "over the 20000 limit" in error.inner_text() and "still in the box" in error.inner_text()
    assert box.input_value() == too_long
    assert page.locator("#transcript .msg.user").count() == 0  # not shown as if it had been sent

    # Send it short: it is answered, and the error goes away.
    box.fill("LoRA Llama 3 8B on 20M tokens")
    box.press("Enter")
    page.locator(".primary-pick .title").wait_for()
    assert page.locator("#transcript .msg.user").count() == 1
    assert box.input_value() == ""
    page.close()


def test_new_conversation_resets_the_report_button(browser: Any, server: Any) -> None:
    page = browser.new_page()
    page.set_default_timeout(60_000)
    page.goto(server.url + "/")
    report = page.locator("#make-report")
    first_label = report.inner_text()
    page.get_by_label("Your message").fill("LoRA Llama 3 8B on 20M tokens")
    page.get_by_label("Your message").press("Enter")
    page.locator(".primary-pick .title").wait_for()
    report.click()
    page.get_by_role("button", name="Download PDF").wait_for(state="visible", timeout=120_000)
    assert report.inner_text() == "Create the report again"
    page.get_by_role("button", name="New conversation").click()
    assert report.inner_text() == first_label == "Create PDF report"
    assert report.is_disabled()  # nothing to report on yet
    page.close()


def test_delete_this_conversation_removes_it_from_the_server(browser: Any, server: Any) -> None:
    """Issue 17: the page's delete button deletes the conversation on the server, then starts afresh; the
    API docs link opens in a new tab whose page cannot read the chat's token."""
    page = browser.new_page()
    page.set_default_timeout(60_000)
    page.goto(server.url + "/")
    page.get_by_label("Your message").fill("LoRA Llama 3 8B on 20M tokens")
    page.get_by_label("Your message").press("Enter")
    page.locator(".primary-pick .title").wait_for()
    saved = page.evaluate("JSON.parse(sessionStorage.getItem(Object.keys(sessionStorage)[0]))")
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Delete this conversation").click()
    page.get_by_text("Deleted the conversation").wait_for()
    assert page.locator("#transcript .msg.user").count() == 0
    gone = page.request.get(
        f"{server.url}/api/sessions/{saved['id']}", headers={"Authorization": f"Bearer {saved['token']}"}
    )
    assert gone.status == 404

    link = page.get_by_role("link", name="API documentation")
    assert link.get_attribute("target") == "_blank" and "noopener" in (link.get_attribute("rel") or "")
    with page.context.expect_page() as opened:
        link.click()
    docs = opened.value
    docs.wait_for_load_state()
    docs.locator(".opblock").first.wait_for()
    assert docs.evaluate(READ_STORAGE) == "unreadable"  # the sandboxed docs page cannot read the token
    page.close()
    docs.close()


READ_STORAGE = """(() => {
  try { return JSON.stringify(Object.entries(sessionStorage)); } catch (e) { return "unreadable"; }
})()"""


def test_api_docs_render_offline_and_cannot_read_the_token(browser: Any, server: Any) -> None:
    """Issue 17: /api/docs shows Swagger UI's operations with no network beyond the server (the bundle comes
    from the installed swagger-ui-bundle package, integrity-checked), no CSP or integrity error in the
    console, and even opened in the chat's own tab its scripts cannot read the chat's sessionStorage."""
    context = browser.new_context()
    outside: list[str] = []

    def only_the_server(route: Any) -> None:
        if route.request.url.startswith(server.url):
            route.continue_()
        else:
            outside.append(route.request.url)
            route.abort()

    context.route("**/*", only_the_server)
    page = context.new_page()
    page.set_default_timeout(60_000)
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type in ("error", "warning") else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.goto(server.url + "/")
    page.get_by_label("Your message").fill("LoRA Llama 3 8B on 20M tokens")
    page.get_by_label("Your message").press("Enter")
    page.locator(".primary-pick .title").wait_for()
    assert "token" in page.evaluate(READ_STORAGE)  # the chat page holds its token there
    page.goto(server.url + "/api/docs")  # the same tab: its sessionStorage holds the token
    page.locator(".opblock").first.wait_for()
    paths = page.locator(".opblock-summary-path").all_inner_texts()
    assert "/api/sessions/{session_id}/messages" in paths and len(paths) >= 10, paths
    assert page.evaluate(READ_STORAGE) == "unreadable" and page.evaluate("origin") == "null"
    assert page.locator(".try-out").count() == 0  # read-only: the API answers no cross-origin calls
    assert outside == [] and problems == [], (outside, problems)
    context.close()
