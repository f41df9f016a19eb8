"""potestas rules (in progress)."""
