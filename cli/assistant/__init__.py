"""`chronicle mcp`'s parts: the tools and resources an assistant sees (`tools.py`, `reads.py`,
`resources.py`) and the Model Context Protocol server that offers them (`server.py`). Every call opens
the ledger as the CLI does, runs the same layer and renders with the CLI's own renderers."""
