"""`chronicle serve`: the table view, a read-only live web page of the ledger (see `app.py`)."""
