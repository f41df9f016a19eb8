"""A device's key, a campaign's invitations and a signature's check, as the front doors that sign and take
signed writes use them (docs/design.md, Packages; docs/guarantees.md)."""

from __future__ import annotations

from ..trust.identity import folder, load_or_create
from ..trust.invitations import invitation_book
from ..trust.signing import valid

__all__ = ["folder", "invitation_book", "load_or_create", "valid"]
