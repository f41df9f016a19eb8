"""What every command and query returns to every front door (`Ledger.execute`, `Ledger.ask`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import Any


@dataclass(frozen=True)
class Reply:
    """Its JSON document and its text for people (sentences, a sheet, a table), each built when first
    read: a batch reads neither, the CLI one of them, an assistant both."""

    build_document: Callable[[], dict[str, Any]]
    build_text: Callable[[], str]

    @cached_property
    def document(self) -> dict[str, Any]:
        return self.build_document()

    @cached_property
    def text(self) -> str:
        return self.build_text()

    @classmethod
    def of(cls, document: dict[str, Any], text: str) -> Reply:
        return cls(lambda: document, lambda: text)
