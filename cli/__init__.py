"""The command line: `chronicle` (cli/main.py), one module per noun, and the front doors built on it."""
