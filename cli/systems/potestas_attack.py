"""`chronicle attack ATTACKER TARGET` for Potestas: its options and help; the application layer records
the attack on the target, then one injury per hit (`chronicle.ledger.application.commands.potestas`)."""

from __future__ import annotations

from typing import Any

import click

from ...ledger.application.commands.potestas import FLAGS, NUMBERS, Attack
from ..commanding import executes
from ..options import common

# Dispatched commands run under `dispatch`'s context, which has no help option of its own.
HELP = {"help_option_names": ["-h", "--help"]}


def _options(command: Any) -> Any:
    for field, text in reversed(NUMBERS.items()):
        command = click.option(f"--{field.replace('_', '-')}", field, type=int, metavar="N", help=text)(command)
    for field, text in reversed(FLAGS.items()):
        command = click.option(f"--{field.replace('_', '-')}", field, is_flag=True, help=text)(command)
    return command


@click.command(context_settings=HELP)
@click.argument("attacker")
@click.argument("target")
@click.option(
    "--weapon",
    "weapons",
    multiple=True,
    metavar="NAME|SPEC",
    help="A weapon on ATTACKER's sheet by NAME, or a full SPEC name:attack=N,damage=D,enhancement=N,"
    "threat=N,multiplier=N,types=a+b plus flags light, two_handed, ranged, thrown (a ranged attack "
    "that adds Str), unarmed, nonlethal. Default: the sheet's only weapon. Two or more only "
    "with --multi-weapon.",
)
@click.option("--roll", type=int, metavar="N", help="The table's d20 attack roll.")
@click.option("--confirm-roll", type=int, metavar="N", help="The table's d20 confirmation roll (needs --roll).")
@click.option(
    "--dice", metavar="FACES", help="The table's damage dice faces, hit by hit and weapon by weapon (needs --roll)."
)
@click.option(
    "--save-roll",
    "save_rolls",
    type=int,
    multiple=True,
    metavar="N",
    help="The table's d20 injury save; repeat for hit 1, 2, ... (extras are ignored, with a note).",
)
@click.option(
    "--multi-weapon",
    is_flag=True,
    help="Declare a multi-weapon attack: with every weapon named, or every weapon on the sheet if none is.",
)
@click.option(
    "--nonlethal/--lethal",
    "nonlethal",
    default=None,
    help="Deal nonlethal (lethal) damage; default: the weapons' usual type.",
)
@_options
@click.option("--force", is_flag=True, help="Attack a dead character or destroyed object anyway.")
@common
@executes(Attack)
def attack() -> None:
    """ATTACKER attacks TARGET: d20 + attack bonus >= 10 + defence, with the
    full-attack options declared. The attack is recorded on TARGET, then each
    hit as its own injury (DR and a save each). ATTACKER's BAB, Str, Dex and
    size are copied into the event. Weapons: each --weapon NAME is the
    sheet's weapon of that name (a SPEC with `:` stands alone); without
    --weapon, the sheet's only weapon, or all of them with --multi-weapon.
    Weapons go on the sheet as specs separated by `;`:
    `character add Kara --stat "weapons=longsword:damage=1d8,types=slashing;javelin:damage=1d6,thrown"`.

    Table rolls the rules do not ask for (a --confirm-roll without a threat,
    --save-roll for a hit DR stopped or a hit that never came) are ignored with
    a note. Attacking a dead target is refused (exit 1) unless --force.

    \b
    Example:
      chronicle attack Ivanior Guard --multi-weapon-fighting --iterative --roll 10 \\
        --weapon rapier:attack=15,damage=3,enhancement=3,threat=18,types=piercing \\
        --weapon dagger:attack=13,damage=2,enhancement=1,threat=19,light,types=piercing
    """
