"""Waiting in a page for a condition by asking it again and again (`page.evaluate`): Playwright's own
`wait_for_function` evaluates a string with `eval` in older releases, which the table view's Content
Security Policy (`script-src 'self'`) rightly refuses."""

from __future__ import annotations

import time
from typing import Any

STEP = 0.025  # seconds between two asks


def until(page: Any, predicate: str, arg: Any = None, timeout: float = 30000) -> None:
    """Until PREDICATE (a JavaScript function of ARG) is true in PAGE; TIMEOUT in milliseconds."""
    deadline = time.monotonic() + timeout / 1000
    while not page.evaluate(predicate, arg):
        if time.monotonic() > deadline:
            raise AssertionError(f"the page never came to {predicate} within {timeout / 1000:g} s")
        time.sleep(STEP)
