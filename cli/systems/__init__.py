"""One module per rule system: its Click commands, each a thin adapter over `chronicle.cli.actions`."""
