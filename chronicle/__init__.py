"""chronicle: an event-sourced campaign ledger for tabletop role-playing games."""
