"""`chronicle demo`: a guided tour through the real commands, on the embedded default database."""

from __future__ import annotations

import shlex

import click

from ..ledger.application.queries import CampaignList, Log
from .context import Env
from .options import common

IVANIOR = (
    "--weapon rapier:attack=15,damage=3,enhancement=3,threat=18,types=piercing "
    "--weapon dagger:attack=13,damage=2,enhancement=1,threat=19,light,types=piercing"
)

# (campaign, what the scene shows, command lines)
SCENES = [
    (
        "Potestas",
        "potestas",
        "Ivanior's multi-weapon attack from the seed (+11, 12 damage, DC 17), then wounds and rest.",
        [
            "character add Ivanior --stat bab=12 --stat str=14 --stat dex=16 --stat fort=6 --stat defence=6",
            "character add Guard --stat fort=4 --stat defence=5",
            f"attack Ivanior Guard --multi-weapon --multi-weapon-fighting --roll 12 {IVANIOR} --save-roll 9",
            "injure Guard --damage 14 --type slashing",
            "rest Guard --hours 8",
            "character show Guard",
        ],
    ),
    (
        "AD&D 2E",
        "adnd2e",
        "The seed's mugging (a 9th-level thief and a 4 HD ogre: 12 becomes 17), then a flat blade.",
        [
            "character add Thief --stat class=thief --stat level=9 --stat hp=30 --stat height=66"
            " --stat weapons=cudgel:blunt,damage=1d6",
            "character add Ogre --stat hd=4 --stat hp=25 --stat size=large --stat height=108",
            "mug Thief Ogre --save-number 12 --save-roll 14",
            "injure Ogre --damage 9 --mode armed-nonlethal",
            "rest Ogre --minutes 30",
            "character show Ogre",
        ],
    ),
    (
        "Glorantha",
        "pendragon-pass",
        "Status, an honour, an oath and a Winter Phase in Sartar.",
        [
            "character add Vasana --stat siz=15 --stat con=13 --stat valorous=17 --stat loyalty_clan=16 "
            "--stat stewardship=14 --stat religion=12 --virtues chaste,energetic,generous,honest,pious",
            "status award Vasana --foe troll --head",
            "status award Vasana --honour rune-lord",
            'oath swear Vasana "never cross the Doskior before vengeance on the Fabeli"',
            "winter --year 1621 --land-roll 4",
            "character show Vasana",
        ],
    ),
]


@click.command()
@click.option("--db", "target", metavar="PATH", help="Where to record the tour (default: the global --db).")
@click.option("--seed", type=int, default=1621, show_default=True, help="Seed for the ledger's own dice.")
@common
@click.pass_context
def demo(ctx: click.Context, target: str | None, seed: int) -> None:
    """A guided tour: a scene in each rule system, an amendment, a what-if replay and verify —
    all through the same commands you would type.

    \b
    Example:
      chronicle demo --db tour.db
    """
    env = ctx.obj
    if target:
        env.db, env._app = target, None
    env.seed = seed
    names = [_free_name(env, f"Demo: {title}") for title, _, _, _ in SCENES]
    for name, (title, system, what, lines) in zip(names, SCENES, strict=True):
        _heading(f"{title} — {what}")
        env.campaign = name
        _run(ctx, env, f"campaign new {shlex.quote(name)} --system {system}")
        for line in lines:
            _run(ctx, env, line)
    _heading("A disputed ruling: the table misheard the ogre's damage, then asks what a harsher rule would do")
    env.campaign = names[1]
    _run(ctx, env, f"amend '#{_position(env, 'Ogre', 'Injured')}' --set damage=12 --reason \"it was 12, not 9\"")
    env.campaign = names[0]
    _run(ctx, env, "replay --ruling disable_margin=4")
    _run(ctx, env, "log Guard")
    _run(ctx, env, "verify")
    click.echo(f"\nThe tour is recorded in {env.db}; try `chronicle --campaign {shlex.quote(names[2])} report Vasana`.")


def _free_name(env: Env, wanted: str) -> str:
    """The demo never touches a table's own campaigns: a second tour gets a fresh name."""
    listed = env.ledger.ask(CampaignList(archived=True)).document["campaigns"]
    taken = {campaign["name"] for campaign in listed}
    name, n = wanted, 1
    while name in taken:
        n += 1
        name = f"{wanted} ({n})"
    return name


def _position(env: Env, name: str, kind: str) -> int:
    logged = env.ledger.ask(Log(name=name)).document["events"]
    return next(e["position"] for e in logged if e["type"] == kind)


def _heading(text: str) -> None:
    click.echo("")
    click.secho(f"== {text}", bold=True)


def _run(ctx: click.Context, env: Env, line: str) -> None:
    """Echo the command line, then run it exactly as `chronicle` would (its own human output)."""
    click.secho(f"$ chronicle --campaign {shlex.quote(env.campaign or '')} {line}", fg="cyan")
    args = shlex.split(line)
    root = ctx.find_root()
    group = root.command
    assert isinstance(group, click.Group)
    command = group.get_command(root, args[0])
    assert command is not None, args[0]
    with command.make_context(args[0], args[1:], parent=root, obj=env) as sub:
        command.invoke(sub)
