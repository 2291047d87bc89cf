"""Child processes that die with their parent.

The web process starts children (the report renderer, the turn workers). After a kill -9 of the web
process they would live on as orphans, holding memory and the resource tracker's pipe (which keeps the
tracker alive too). Each child calls `die_with_parent()` at its start:

- a daemon thread exits the child as soon as its parent is gone (the parent id changes when the child
  is re-parented); it needs the interpreter lock, which a render can hold for seconds inside C code;
- so, on Linux and when `kernel_signal` is set, the kernel also sends the child SIGKILL when its parent
  dies (prctl PR_SET_PDEATHSIG). The kernel ties that signal to the parent *thread* that started the
  child, so only children started by a thread that lives as long as the process ask for it (the report
  worker's); turn workers may be restarted from short-lived request threads and rely on the thread.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
import threading
import time

PARENT_POLL_S = 0.5
"""How often a child looks for its parent: an orphan exits within about this long."""
PR_SET_PDEATHSIG = 1  # <linux/prctl.h>


def _kernel_death_signal() -> None:
    """Linux: SIGKILL this process when the thread that started it ends (no-op elsewhere)."""
    if not sys.platform.startswith("linux"):
        return
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):  # no libc prctl (musl without it, sandboxes): the thread remains
        return


def die_with_parent(
    parent: int | None = None, poll_s: float = PARENT_POLL_S, *, kernel_signal: bool = False
) -> None:
    """Exit this process (status 0, no clean-up: the parent that would wait for it is gone) once its
    parent process has exited. Call once, at the child's start, with `parent` the id the parent passed
    (os.getpid() there): a child still importing when its parent died is then not mistaken for the
    child of whatever adopted it."""
    if parent is None:
        parent = os.getppid()
    if os.getppid() != parent:
        os._exit(0)
    if kernel_signal:
        _kernel_death_signal()
        if os.getppid() != parent:  # the parent died before the signal was asked for
            os._exit(0)

    def watch() -> None:
        while True:
            time.sleep(poll_s)
            if os.getppid() != parent:
                os._exit(0)

    threading.Thread(target=watch, name="gpu-advisor-parent-watch", daemon=True).start()
