"""A Feat is named and described (seed: Feats, "Always name and describe the Feat you are about to
enact"): the inputs take no Feat without its description, and the sentence quotes it."""

import pytest
from pydantic import ValidationError
from test_pendragon_support import act, character

from chronicle.domain.pendragon import FeatAttempted, explain
from chronicle.domain.pendragon.feats import FeatInputs


@pytest.mark.parametrize("given", [{"what": "sword"}, {"what": "sword", "description": ""}])
def test_a_feat_without_a_description_is_not_taken(given):
    with pytest.raises(ValidationError, match="description"):
        FeatInputs.model_validate(given)


def test_the_feat_is_told_by_what_it_is_and_what_the_character_does():
    # Sword 15: a Feat needs 7 or less (15 // 2); a 6 does it, counting as a critical
    hero = character(sword=15)
    event = act(hero, FeatAttempted, rolls={"feat": [6]}, what="sword", description="cuts the rope bridge")
    assert (event.outcome.value, event.outcome.roll, event.outcome.result) == (15, 6, "critical")
    assert explain(event, "Suboti") == (
        'Suboti attempts a Feat of Sword, "cuts the rope bridge": rolled 6, needing at most 7 (half of 15): '
        "done, counting as a critical."
    )
