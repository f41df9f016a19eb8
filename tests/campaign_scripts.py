"""Three short campaigns, one per system, as batch scripts: played by the tests of what people read
(tests/cli/test_people.py), of told rows (tests/ledger/test_told.py) and of the fold from memory (tests/perf).
A module beside conftest.py, so every test folder imports it by one name, as pytest puts tests/ on the path."""

from __future__ import annotations

POTESTAS = """
campaign new Greyhawk --system potestas
character add Brand --stat fort=2 --stat dr=1 --stat bab=3 --stat defence=2
character add Ivanior --stat fort=4 --stat bab=6
session start "The ford"
attack Ivanior Brand --roll 15 --weapon rapier:attack=8,damage=6,threat=18,types=piercing
injure Brand --damage 30 --type slashing --save-roll 2
exert Brand --action "charged the ogre"
dying-save Brand --roll 3
injure Brand --damage 30 --type slashing --save-roll 1 --force
fall Ivanior --feet 30 --save-roll 12
rest Ivanior --hours 8
roll 2d6+1 --for Ivanior --reason "spot the ambush"
note "The ogre fled north" --for Ivanior
campaign rule disable_margin=5 --reason "house rule"
session end
character set Ivanior fort=5 --reason "level 5"
"""

ADND2E = """
campaign new Waterdeep --system adnd2e
character add Thief --stat hp=20 --stat level=5 --stat class=thief --stat str=16 --stat "weapons=club:blunt"
character add Guard --stat hp=30 --stat hd=3 --stat str=17
character add Brute --stat hp=40 --stat hd=4 --stat str=18/50
session start "The docks"
attack Thief Guard --maneuver sap --weapon club --roll 17
injure Guard --damage 7 --mode sap --knockout-roll 90 --attacker Thief
injure Guard --damage 12 --mode lethal --attacker Brute
mug Thief Guard --save-number 12 --save-roll 16
grab person Brute Thief --dice 3,12
rest Guard --hours 8
injure Guard --damage 40 --mode lethal --attacker Brute
grab break-hold Thief --dice 3,9
grab state Brute --asleep
session end
"""

PENDRAGON = """
campaign new Sartar --system pendragon-pass
character add Vasana --stat siz=15 --stat con=13 --stat valorous=17 --stat sword=15 --stat loyalty_clan=16 \
--virtues valorous,generous,honest,just,merciful
campaign rule experience_timing=month_after_adventure --reason "the seed's option"
character add Harrek --stat siz=14 --stat con=12 --stat sword=14 --stat first_aid=12 --stat chirurgery=10
session start "The temple"
check Vasana sword --roll 12 --opposed-by Harrek:sword --opposed-roll 9 --award-check
status award Vasana --amount 400 --reason "held the ford"
status award Vasana --honour rune-lord
increase Vasana valorous
oath swear Vasana "avenge Orlanth's temple"
oath fulfil Vasana oath-1 --status 100
oath swear Vasana "never yield the ford"
oath break Vasana oath-2
geas take Vasana "never eat horse"
geas break Vasana geas-1
feat Vasana sword --roll 6 --describe "leaps the wall of shields"
tactic Vasana great-blow --skill sword --opponent Harrek:sword --roll 12 --opponent-roll 15
injure Vasana --damage 14 --attacker Harrek
first-aid Vasana 1 --healer Harrek --roll 8 --heal-roll 2
chirurgery Vasana --healer Harrek --roll 8
heal Vasana 1 --points 3
rest Vasana --hours 336
experience Vasana --dice sword=17
injure Harrek --damage 40 --attacker Vasana
session end
winter --year 1621 --land-roll 4
"""

CAMPAIGNS = {"potestas": POTESTAS, "adnd2e": ADND2E, "pendragon-pass": PENDRAGON}
