"""The topics PenDragon Pass events were recorded under before `events.py` held them all.

Events recorded then name their class in the rule module that held it (`chronicle.domain.pendragon.checks:Checked`,
...): `LEGACY_TOPICS` registers those topics with the library, and each of those modules hands the class on by
name (`common.moved`) for a process that resolves an old topic before it imports this package.
"""

from __future__ import annotations

from eventsourcing.utils import register_topic

from .events import (
    Checked,
    ExperienceRolled,
    FeatAttempted,
    FirstAidGiven,
    GeasBroken,
    GeasTaken,
    IncreaseSpent,
    Injured,
    MagicallyHealed,
    OathBroken,
    OathFulfilled,
    OathSworn,
    PendragonResolution,
    Rested,
    StatusAwarded,
    TacticResolved,
    WinterResolved,
)

# where each class lived before events.py: its topic in events recorded then
LEGACY_MODULES: dict[str, tuple[type[PendragonResolution], ...]] = {
    "checks": (Checked, ExperienceRolled),
    "status": (StatusAwarded, IncreaseSpent),
    "oaths": (OathSworn, OathFulfilled, OathBroken, GeasTaken, GeasBroken),
    "feats": (FeatAttempted,),
    "combat": (TacticResolved,),
    "injury": (Injured, FirstAidGiven, MagicallyHealed),
    "recovery": (Rested,),
    "winter": (WinterResolved,),
}
LEGACY_TOPICS = {
    f"{__package__}.{module}:{cls.__name__}": cls for module, classes in LEGACY_MODULES.items() for cls in classes
}
for _topic, _cls in LEGACY_TOPICS.items():
    register_topic(_topic, _cls)
