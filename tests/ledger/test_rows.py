"""`character show` and `list` read rows alone, without the domain; they know the index's version by a
copy of it, which must stay the index's own."""

from __future__ import annotations

from chronicle.ledger.application.views import rows
from chronicle.projections import index


def test_the_rows_know_the_index_version():
    assert rows.INDEX_VERSION == index.VERSION
