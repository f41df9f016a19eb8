"""The command line. A command's process builds some hundred thousand objects as it starts (its modules,
their classes and models) and few of them are garbage: the cyclic collector, at Python's default of a
pass every 700 allocations, spent some 10 ms of a one-shot append walking them. A pass every 100,000
keeps the same bound on garbage for long-running commands (`serve`, `shell`, a batch) at a fraction of
the cost."""

import gc

_, older, oldest = gc.get_threshold()
gc.set_threshold(100_000, older, oldest)
