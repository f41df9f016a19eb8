"""An implementation of the fair dice's derivation (docs/fair-dice.md) that shares no code with chronicle:
`python independent_dice.py EXPORT` reads an export (JSON Lines, oldest first) and prints one JSON line: how
many fair rolls it derived again, the lines (from 1) whose faces or seed do not check, and the faces it
derived, line by line. Only the standard library, as a third party would write it."""

import hashlib
import hmac
import json
import sys


def faces(seed_hex: str, device_hex: str | None, sides_list: list[int]) -> list[int]:
    key, device = bytes.fromhex(seed_hex), bytes.fromhex(device_hex) if device_hex else b""
    values: list[int] = []
    counter, out = 0, []
    for sides in sides_list:
        while True:
            if not values:
                block = hmac.new(key, b"chronicle-dice-v1" + device + counter.to_bytes(8, "big"), hashlib.sha256)
                digest = block.digest()
                values = [int.from_bytes(digest[i : i + 8], "big") for i in range(0, 32, 8)]
                counter += 1
            value = values.pop(0)
            if value < sides * (2**64 // sides):
                out.append(1 + value % sides)
                break
    return out


def check(lines: list[dict]) -> dict:
    head: str | None = None  # the latest commitment's head
    chain: dict[int, str] = {}  # its seeds revealed so far, by index
    derived, wrong = {}, []
    for number, line in enumerate(lines, start=1):
        if "closing" in line:
            continue
        state = line["state"]
        if line["topic"].endswith(":DiceCommitted"):
            head, chain = state["head"], {}
            continue
        fair = (state.get("dice") or {}).get("fair")
        if not fair:
            continue
        ledger = [roll for roll in state["dice"]["rolls"] if roll["source"] == "ledger"]
        sides = [roll["sides"] for roll in ledger for _ in roll["faces"]]
        got = faces(fair["seed"], fair["device_seed"], sides)
        derived[number] = got
        seed, index = bytes.fromhex(fair["seed"]), fair["index"]
        if head is None:  # a roll no commitment comes before
            wrong.append(number)
            continue
        earlier = max((i for i in chain if i < index), default=0)
        target = bytes.fromhex(chain[earlier] if earlier else head)
        for _ in range(index - earlier):
            seed = hashlib.sha256(seed).digest()
        if got != [face for roll in ledger for face in roll["faces"]] or seed != target or index in chain:
            wrong.append(number)
        chain[index] = fair["seed"]
    return {"fair": len(derived), "wrong": wrong, "faces": derived}


if __name__ == "__main__":
    with open(sys.argv[1], encoding="utf-8") as file:
        print(json.dumps(check([json.loads(line) for line in file if line.strip()])))
