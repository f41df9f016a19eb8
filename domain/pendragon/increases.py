"""The increase Status earns: one for every full 1,000 points (seed: Glory and Ambitions, "every 1000
Status points allows the character to add 1 point to any trait, passion, statistic, or skill").

The rule is written here alone: the condition counts increases by it, the sheet tells the next one by
it, and the table view and the report draw their thresholds by it.
"""

STATUS_PER_INCREASE = 1000


def increases_earned(status: int) -> int:
    """How many increases a Status total has earned (none below 0)."""
    return max(status, 0) // STATUS_PER_INCREASE


def next_increase_at(status: int) -> int:
    """The Status total that earns the next increase."""
    return (increases_earned(status) + 1) * STATUS_PER_INCREASE
