"""Dependencies point one way: tools/ is pure and imports no front-end, LLM or rendering library."""

import subprocess
import sys

FORBIDDEN = (
    "langchain",
    "langchain_core",
    "openai",
    "jinja2",
    "fastapi",
    "slack_bolt",
    "slack_sdk",
    "weasyprint",
    "torch",
    "transformers",
    "advisor",
    "reports",
    "httpx",
    "requests",
    "sqlalchemy",
)


def test_importing_tools_pulls_in_no_llm_web_or_rendering_module() -> None:
    code = (
        "import sys, pkgutil, importlib, tools\n"
        "for m in pkgutil.walk_packages(tools.__path__, 'tools.'):\n"
        "    importlib.import_module(m.name)\n"
        f"bad = sorted({{n.split('.')[0] for n in sys.modules}} & set({FORBIDDEN!r}))\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "", f"tools/ imports {out.stdout.strip()}"


def test_cli_start_does_not_import_heavy_libraries() -> None:
    code = (
        "import sys, advisor.cli as c\n"
        "c._register()\n"
        "heavy = ('weasyprint', 'langchain', 'torch', 'fastapi', 'slack_bolt', 'transformers')\n"
        "print(','.join(sorted(h for h in heavy if h in sys.modules)))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "", f"CLI start imports {out.stdout.strip()}"
