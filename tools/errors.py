"""The one exception type for errors a user can cause (bad flag, unknown model, broken file).

Its message is one line that says what to do; the CLI prints it and exits with code 2.
"""

from __future__ import annotations


class InputError(ValueError):
    """A user-caused error with a one-line, actionable message."""

    def __init__(self, message: str) -> None:
        super().__init__(" ".join(message.split()))
