"""adnd2e rules (in progress)."""
