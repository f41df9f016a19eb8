"""`python -m chronicle.cli` runs the `chronicle` command."""

from .main import main

main()
