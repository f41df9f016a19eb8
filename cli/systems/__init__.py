"""One module per rule system: its Click commands, each its options, help and `@executes(Model)` of a
command in `chronicle.ledger.application.commands`."""
