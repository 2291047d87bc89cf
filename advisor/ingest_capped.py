"""Reading an uploaded brief in a child process with a memory and a time cap.

advisor.ingest refuses what it can see before parsing (size, zip-bomb ratios, page counts), but a file
can still make a parser work far beyond its size: a PDF's content streams unpack up to 75 MB each (pypdf's
own cap) on every page, a malformed one can send a parser round a long loop. Parsed inside the web
process, one such file would hold its memory or CPU for as long as it likes. So `read_upload` parses in a
child process of its own:

- memory: the child's address space may grow by at most `UploadLimits.memory_mib` over what it starts
  with (RLIMIT_AS, Linux and other POSIX systems); past it an allocation fails (MemoryError) or the child
  dies, and the upload is refused;
- time: past `UploadLimits.time_s` the child is killed and the upload refused;
- each refusal is one line naming the file and what to do; the web process's memory does not grow by
  what the parse needs.

Children are forked from a multiprocessing fork server that has this module (and so advisor.ingest,
pypdf, python-docx) imported already, so a child starts in milliseconds; the server exits with the
process that started it, and a child with its parent (advisor.web.lifeline).
"""

from __future__ import annotations

import io
import multiprocessing
import multiprocessing.forkserver
import resource
from contextlib import suppress
from dataclasses import dataclass
from typing import Any

from advisor.ingest import MAX_BYTES, MAX_PDF_PAGES, read_brief
from advisor.web.lifeline import die_with_parent
from tools.errors import InputError

UPLOAD_MEMORY_MIB = 1024
"""Address space a brief's parse may add to its process. A 10 MB PDF or DOCX parses in ~100-300 MiB; one
75 MB content stream (pypdf's cap per stream) needs ~2-3x that while its text is extracted."""
UPLOAD_TIME_S = 30.0
"""Wall time a brief's parse may take; a 200-page text PDF reads in a few seconds."""
MIB = 1024 * 1024


@dataclass(frozen=True)
class UploadLimits:
    """Caps on parsing one upload: memory added (MiB), wall time (s), and whether to parse in a child
    process at all (False: in this process, uncapped; for callers that are a child process already)."""

    memory_mib: int = UPLOAD_MEMORY_MIB
    time_s: float = UPLOAD_TIME_S
    in_subprocess: bool = True


def pdf_page_count(data: bytes) -> int | None:
    """Pages of a PDF (None when pypdf cannot read its page tree; read_brief then reports the problem)."""
    # lazy: pypdf costs ~50 ms at start-up (the fork server preloads it for the children that call this)
    from pypdf import PdfReader

    try:
        return len(PdfReader(io.BytesIO(data), strict=False).pages)
    except Exception:
        return None


def check_and_read(data: bytes, filename: str, max_pages: int = MAX_PDF_PAGES) -> str:
    """The text of an uploaded brief (size and page limits, then advisor.ingest.read_brief), uncapped."""
    if len(data) > MAX_BYTES:
        raise InputError(
            f"{filename} is {len(data) / MIB:.1f} MB, over the {MAX_BYTES // MIB} MB limit; "
            "send the text of the brief or a shorter document"
        )
    if data[:1024].lstrip().startswith(b"%PDF"):
        pages = pdf_page_count(data)
        if pages is not None and pages > max_pages:
            raise InputError(
                f"{filename} has {pages} pages, over the {max_pages}-page limit; "
                "upload the part that describes the workload"
            )
    return read_brief(data, filename)


def _address_space_bytes() -> int | None:
    """This process's virtual memory size (Linux /proc), or None where it cannot be read."""
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmSize:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError):
        return None
    return None


def _cap_memory(memory_mib: int) -> None:
    """RLIMIT_AS at what the process uses now plus `memory_mib` (no-op where it cannot be read or set)."""
    used = _address_space_bytes()
    if used is None:
        return
    soft = used + memory_mib * MIB
    _cur, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        soft = min(soft, hard)
    with suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


def _child(conn: Any, data: bytes, filename: str, max_pages: int, memory_mib: int) -> None:
    """The parse, in the child: ("ok", text), ("refused", one line) or ("memory", "") sent back. Its
    parent is the fork server, which exits with the process that started it; the child follows."""
    die_with_parent()
    _cap_memory(memory_mib)
    try:
        reply: tuple[str, str] = ("ok", check_and_read(data, filename, max_pages))
    except InputError as exc:
        reply = ("refused", str(exc))
    except MemoryError:
        reply = ("memory", "")
    except Exception as exc:  # a parser's own failure: the file is unreadable, one line for the user
        kind = type(exc).__name__
        reply = ("refused", f"{filename} could not be read ({kind}); save it again or paste its text")
    del data
    try:
        conn.send(reply)
    except MemoryError:
        conn.send(("memory", ""))
    conn.close()


def _too_much_memory(filename: str, limits: UploadLimits) -> InputError:
    return InputError(
        f"{filename} needs more than {limits.memory_mib} MiB of memory to read and was refused; "
        "upload a smaller or simpler document, or paste its text"
    )


def _context() -> Any:
    """The fork-server context (the web process has threads: no plain fork), its server preloading this
    module and the parsers (started on first use)."""
    ctx = multiprocessing.get_context("forkserver")
    ctx.set_forkserver_preload([__name__, "pypdf", "docx"])
    return ctx


def start_fork_server() -> None:
    """Start the fork server now (it imports the parsers, ~1 s), so the first upload does not wait."""
    _context()
    multiprocessing.forkserver.ensure_running()


def read_upload(
    data: bytes, filename: str, max_pages: int = MAX_PDF_PAGES, limits: UploadLimits | None = None
) -> str:
    """The text of an uploaded brief, parsed in a child process under `limits` (memory and time), or
    InputError with one line saying what to do: the file's own problem, or the cap it ran into."""
    limits = limits or UploadLimits()
    if len(data) > MAX_BYTES or not limits.in_subprocess:
        return check_and_read(data, filename, max_pages)  # refused before any parsing, or uncapped
    ctx = _context()
    receive, send = ctx.Pipe(duplex=False)
    proc = ctx.Process(
        target=_child,
        args=(send, data, filename, max_pages, limits.memory_mib),
        daemon=True,
        name="gpu-advisor-upload",
    )
    proc.start()
    send.close()
    try:
        if not receive.poll(limits.time_s):
            proc.kill()
            raise InputError(
                f"{filename} took over {limits.time_s:g} s to read and was stopped; "
                "upload a shorter or simpler document, or paste its text"
            )
        try:
            status, value = receive.recv()
        except (EOFError, OSError) as exc:  # the child died (out of memory inside C code, a crash)
            raise _too_much_memory(filename, limits) from exc
    finally:
        receive.close()
        proc.join(5)
        if proc.is_alive():
            proc.kill()
            proc.join(1)
    if status == "ok":
        return str(value)
    if status == "memory":
        raise _too_much_memory(filename, limits)
    raise InputError(str(value))
