"""Which module defines each command's model (and its handler), by command name: one `module:Class` per
variant, the variants of a name that differs by rule system in the order potestas, adnd2e, pendragon-pass."""

from __future__ import annotations

from . import register

register("campaign new", "table:CampaignNew")
register("campaign rule", "table:CampaignRule")
register("campaign use", "table:CampaignUse")
register("campaign archive", "table:CampaignArchive")
register("character add", "table:CharacterAdd")
register("character set", "table:CharacterSet")
register("character retire", "table:CharacterRetire")
register("character rename", "table:CharacterRename")
register("session start", "table:SessionStart")
register("session end", "table:SessionEnd")
register("note", "table:Note")
register("roll", "table:Roll")
register("amend", "audit:Amend")
register("replay", "audit:Replay")

# the same name in several systems: one variant each (ledger/application/commands/<system>.py)
register("injure", "potestas:Injure", "adnd2e:Injure", "pendragon:Injure")
register("rest", "potestas:Rest", "adnd2e:Rest", "pendragon:Rest")
register("attack", "potestas:Attack", "adnd2e:Attack")

register("participant add", "participants:ParticipantAdd")
register("participant remove", "participants:ParticipantRemove")
register("participant invite", "invitations:ParticipantInvite")
register("participant join", "invitations:ParticipantJoin")

# PenDragon Pass (ledger/application/commands/pendragon*.py)
register("check", "pendragon:Check")
register("status award", "pendragon:StatusAward")
register("increase", "pendragon:Increase")
register("feat", "pendragon:Feat")
register("experience", "pendragon:Experience")
register("oath swear", "pendragon_oaths:OathSwear")
register("oath fulfil", "pendragon_oaths:OathFulfil")
register("oath break", "pendragon_oaths:OathBreak")
register("geas take", "pendragon_oaths:GeasTake")
register("geas break", "pendragon_oaths:GeasBreak")
register("tactic", "pendragon_tactic:Tactic")
register("first-aid", "pendragon_injury:FirstAid")
register("heal", "pendragon_injury:Heal")
register("chirurgery", "pendragon_injury:Chirurgery")
register("winter", "pendragon_winter:Winter")

# potestas
register("dying-save", "potestas:DyingSave")
register("exert", "potestas:Exert")
register("fall", "potestas:Fall")
# adnd2e
register("mug", "adnd2e:Mug")
register("grab object", "adnd2e:GrabObject")
register("grab person", "adnd2e:GrabPerson")
register("grab monster", "adnd2e:GrabMonster")
register("grab break-hold", "adnd2e:GrabBreakHold")
register("grab state", "adnd2e:GrabState")
