"""Which module defines each command's model (and its handler), by command name: one `module:Class` per
variant, the variants of a name that differs by rule system in the order potestas, adnd2e, pendragon-pass.
Data alone, below the package that reads it: a variant's `systems` say where it applies, and the one with
none applies in every system."""

from __future__ import annotations

CATALOGUE: dict[str, tuple[str, ...]] = {
    "campaign new": ("table:CampaignNew",),
    "campaign rule": ("table:CampaignRule",),
    "campaign use": ("table:CampaignUse",),
    "campaign archive": ("table:CampaignArchive",),
    "character add": ("table:CharacterAdd",),
    "character set": ("table:CharacterSet",),
    "character retire": ("table:CharacterRetire",),
    "character rename": ("table:CharacterRename",),
    "session start": ("table:SessionStart",),
    "session end": ("table:SessionEnd",),
    "note": ("table:Note",),
    "roll": ("table:Roll",),
    "amend": ("audit:Amend",),
    "replay": ("audit:Replay",),
    # the same name in several systems: one variant each (ledger/application/commands/<system>.py)
    "injure": ("potestas:Injure", "adnd2e:Injure", "pendragon:Injure"),
    "rest": ("potestas:Rest", "adnd2e:Rest", "pendragon:Rest"),
    "attack": ("potestas:Attack", "adnd2e:Attack"),
    "participant add": ("participants:ParticipantAdd",),
    "participant remove": ("participants:ParticipantRemove",),
    "participant invite": ("invitations:ParticipantInvite",),
    "participant join": ("invitations:ParticipantJoin",),
    # PenDragon Pass (ledger/application/commands/pendragon*.py)
    "check": ("pendragon:Check",),
    "status award": ("pendragon:StatusAward",),
    "increase": ("pendragon:Increase",),
    "feat": ("pendragon:Feat",),
    "experience": ("pendragon:Experience",),
    "oath swear": ("pendragon_oaths:OathSwear",),
    "oath fulfil": ("pendragon_oaths:OathFulfil",),
    "oath break": ("pendragon_oaths:OathBreak",),
    "geas take": ("pendragon_oaths:GeasTake",),
    "geas break": ("pendragon_oaths:GeasBreak",),
    "tactic": ("pendragon_tactic:Tactic",),
    "first-aid": ("pendragon_injury:FirstAid",),
    "heal": ("pendragon_injury:Heal",),
    "chirurgery": ("pendragon_injury:Chirurgery",),
    "winter": ("pendragon_winter:Winter",),
    # potestas
    "dying-save": ("potestas:DyingSave",),
    "exert": ("potestas:Exert",),
    "fall": ("potestas:Fall",),
    # adnd2e
    "mug": ("adnd2e:Mug",),
    "grab object": ("adnd2e:GrabObject",),
    "grab person": ("adnd2e:GrabPerson",),
    "grab monster": ("adnd2e:GrabMonster",),
    "grab break-hold": ("adnd2e:GrabBreakHold",),
    "grab state": ("adnd2e:GrabState",),
}
