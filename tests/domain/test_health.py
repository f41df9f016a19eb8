"""One health language across the systems: what is left, of how much, and how bad it is."""

from chronicle.domain.health import health


def test_hit_points_left_of_the_most_with_a_level_by_how_many_are_gone():
    assert health({"hp": 30, "max_hp": 30, "states": []}) == {"left": 30, "of": 30, "level": "fit"}
    assert health({"hp": 23, "max_hp": 30, "states": []})["level"] == "hurt"
    assert health({"hp": 15, "max_hp": 30, "states": []})["level"] == "badly hurt"  # half gone
    assert health({"hp": -2, "max_hp": 30, "states": ["dying"]})["level"] == "critical"
    assert health({"hp": -14, "max_hp": 26, "states": ["dead"]})["level"] == "dead"


def test_the_wound_ladder_counts_the_rungs_left_before_death():
    assert health({"wounds": 0, "states": []}) == {"left": 4, "of": 4, "level": "fit"}
    assert health({"wounds": 1, "states": []}) == {"left": 3, "of": 4, "level": "hurt"}
    assert health({"wounds": 2, "states": ["disabled"]}) == {"left": 2, "of": 4, "level": "badly hurt"}
    assert health({"wounds": 3, "states": ["dying", "unconscious"]}) == {"left": 1, "of": 4, "level": "critical"}
    assert health({"wounds": 4, "states": ["dead"]}) == {"left": 0, "of": 4, "level": "dead"}
