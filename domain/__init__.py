"""Pure rules and the event model: no storage, no Click, no clock, no global RNG."""
