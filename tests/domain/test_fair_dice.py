"""The fair dice's derivation (docs/fair-dice.md), pure: the seed chain, the faces stream with its rejection
sampling, and the dice source the rules draw from, checked against the published vectors and the docs' own."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chronicle.domain.dice import Dice, DiceRecord
from chronicle.domain.fair_dice import FairSeed, FairStream, chain, faces_agree, hashes_to, rederived

VECTORS = json.loads((Path(__file__).with_name("fair_dice_vectors.json")).read_text())
DEVICE = "ab" * 32


def seed_of(vectors: dict, roll: dict) -> str:
    return roll["seed"] if "seed" in roll else vectors["seeds"][str(roll["index"])]


@pytest.mark.parametrize("name", ["published", "ours"])
def test_each_revealed_seed_hashes_to_the_one_before_it_and_the_first_to_the_head(name):
    vectors = VECTORS[name]
    length = vectors["length"]
    seeds = [bytes.fromhex(vectors["head"])] + [bytes.fromhex(vectors["seeds"][str(i)]) for i in range(1, length + 1)]
    for i in range(1, len(seeds)):
        assert hashlib.sha256(seeds[i]).digest() == seeds[i - 1]
        assert hashes_to(seeds[i], seeds[0], i)
    assert chain(seeds[-1], length) == seeds


@pytest.mark.parametrize("name", ["published", "ours"])
def test_the_faces_of_every_vector_come_out_of_the_stream(name):
    vectors = VECTORS[name]
    for roll in vectors["rolls"]:
        device = bytes.fromhex(roll["device_seed"]) if roll["device_seed"] else b""
        stream = FairStream(bytes.fromhex(seed_of(vectors, roll)), device)
        assert [stream.face(sides) for sides in roll["sides"]] == roll["faces"]
        if "values" in roll:
            assert stream.position == roll["values"]


def test_the_docs_first_block_is_the_hmac_of_label_device_seed_and_counter():
    block = VECTORS["ours"]["first_block_of_roll_2"]
    message = bytes.fromhex(block["message"])
    assert message == b"chronicle-dice-v1" + bytes(range(32)) + (0).to_bytes(8, "big")
    stream = FairStream(bytes.fromhex(VECTORS["ours"]["seeds"]["2"]), bytes(range(32)))
    assert [stream.value() for _ in range(4)] == block["values"]


def test_a_value_at_or_above_the_last_whole_multiple_of_the_sides_is_discarded():
    roll = VECTORS["ours"]["rolls"][3]  # a die of 3 * 2**62 sides: a quarter of all values are discarded
    stream = FairStream(bytes.fromhex(VECTORS["ours"]["seeds"]["4"]))
    values = [stream.value() for _ in range(roll["values"])]
    kept = [v for v in values if v < 3 << 62]
    assert len(kept) == len(roll["faces"]) < len(values)
    assert [1 + v % (3 << 62) for v in kept] == roll["faces"]


def test_the_dice_source_takes_a_seed_only_when_the_ledger_first_rolls():
    taken: list[int] = []

    def reveal() -> FairSeed:
        taken.append(1)
        return FairSeed(index=7, seed=VECTORS["ours"]["seeds"]["2"], device_seed=bytes(range(32)).hex())

    dice = Dice(0, table={"save": [4]}, fair=reveal)
    assert dice.roll(20, 1, "save") == [4] and taken == []  # the table's die reveals nothing
    assert dice.roll(20, 1, "attack") == [17] and dice.roll(6, 4, "damage") == [4, 1, 6, 5]
    record = dice.record()
    assert taken == [1] and record.fair is not None and record.fair.index == 7 and record.draws == 5
    assert [r.source for r in record.rolls] == ["table", "ledger", "ledger"]
    ledger = [(r.sides, r.faces) for r in record.rolls if r.source == "ledger"]
    assert faces_agree(record.fair, ledger, record.draws)
    assert not faces_agree(record.fair, [(20, (17,)), (6, (4, 1, 6, 6))], record.draws)


def test_a_roll_from_the_table_alone_records_no_fair_seed_and_keeps_its_old_bytes():
    dice = Dice(0, table={"roll": [3]}, fair=lambda: pytest.fail("no seed is taken"))
    dice.roll(6, 1, "roll")
    record = dice.record()
    assert record.fair is None and "fair" not in record.model_dump(mode="json")


def test_a_replay_that_needs_more_dice_goes_on_drawing_the_same_stream():
    fair = FairSeed(index=1, seed=VECTORS["ours"]["seeds"]["1"])
    fresh = Dice(0, fair=lambda: fair)
    first = fresh.roll(6, 2, "damage")
    record = fresh.record()
    again = Dice.replay(record)
    assert again.roll(6, 2, "damage") == first  # handed back as recorded
    more = again.roll(8, 3, "bonus")  # not recorded: drawn on from where the record ended
    stream = FairStream(bytes.fromhex(fair.seed))
    assert stream.faces(6, 2) == first and stream.faces(8, 3) == more


def test_an_old_record_keeps_its_old_generator():
    record = DiceRecord(seed=42, draws=1, rolls=())
    assert Dice.replay(record).roll(6, 1, "x") == Dice(42).roll(6, 2, "x")[1:]


@given(st.binary(min_size=32, max_size=32), st.binary(max_size=32), st.lists(st.integers(1, 1 << 63), max_size=8))
def test_every_face_is_within_its_die_and_the_derivation_repeats(seed, device, sides):
    fair = FairSeed(index=1, seed=seed.hex(), device_seed=device.hex() if len(device) == 32 else None)
    faces, drawn = rederived(fair, [(s, 1) for s in sides])
    assert all(1 <= f[0] <= s for f, s in zip(faces, sides, strict=True))
    assert drawn >= len(sides) and rederived(fair, [(s, 1) for s in sides]) == (faces, drawn)


def test_a_device_seed_changes_every_face_stream():
    seed = bytes.fromhex(VECTORS["ours"]["seeds"]["1"])
    plain, mixed = FairStream(seed), FairStream(seed, bytes.fromhex(DEVICE))
    assert [plain.value() for _ in range(8)] != [mixed.value() for _ in range(8)]
