"""pendragon rules (in progress)."""
