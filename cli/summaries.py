"""Each command's short help as `chronicle --help` lists it, read from here so that listing the commands
imports none of their modules (every rule system's). tests/cli/test_summaries.py keeps it equal to the
commands' own help; a command missing here is loaded to ask it."""

from __future__ import annotations

SUMMARIES = {
    "amend": (
        "Correct the event REF (id, position as 12 or #12, or time) by a new event; the original stays in the log."
    ),
    "attack": "Resolve an attack by ATTACKER on TARGET and record it.",
    "batch": (
        "Run FILE (`-` for stdin): one command line a line, without the program name or global options; blank"
        " lines and `#` comments are skipped. With --jsonl, one command document a line (`chronicle commands "
        "--json` lists them). On the first failing line nothing of the file is written, and the exit status is"
        " that line's."
    ),
    "campaign": "Start a campaign, show it, change its rulings.",
    "character": "Register characters and read their projected state.",
    "commands": (
        "List every command that writes: its rule systems and what it does; with --json, each command "
        "document's JSON Schema (draft 2020-12)."
    ),
    "check": "A d20 against NAME's SKILL (any statistic, trait, passion or skill), unopposed or opposed.",
    "checkpoint": (
        "Sign the campaign's log as it is now: a note (a C2SP checkpoint) of its number of events and their RFC "
        "6962 Merkle root, signed by your identity. Keep it outside the database (send it to the players): "
        "`verify --witness NOTE` proves the log still extends it, or names the first event whose history "
        "changed. Refused (exit 1) when the log no longer extends the last checkpoint this chronicle saw of the "
        "campaign."
    ),
    "chirurgery": (
        "Chirurgery on NAME (a major wound, or after falling unconscious): a d20 against the healer's "
        "Chirurgery, once a week of care (ruling chirurgery_interval_days). Success ends every need for "
        "Chirurgery, so rest heals again; a critical also heals the Healing Rate at once (ruling "
        "chirurgery_critical); failure changes nothing; a fumble deals a new wound of 1d6. Refused (exit 1) "
        "on the dead, on a patient who needs none, and by the patient on themself."
    ),
    "dice": (
        "List the ledger's commitments to chains of fair dice seeds (where each is in the log, its head, how many "
        "seeds it holds and how many its rolls revealed) and the fair rolls' share of all the campaign's rolls. "
        "`verify` checks every fair roll against them (docs/fair-dice.md)."
    ),
    "demo": (
        "A guided tour: a scene in each rule system, an amendment, a what-if replay and verify — all through "
        "the same commands you would type."
    ),
    "dying-save": (
        "A dying character's save for this turn: d20 + Fort - 1 per wound against DC 10 + 1 for each round "
        "NAME has been unconscious (ruling dying_dc): each dying save is a round, and so are rounds knocked "
        "out or stable before it. Success: stable. Failure: still dying (ruling dying_failure). Natural 1 and"
        " 20: ruling dying_save_naturals. Refused (exit 1) unless dying."
    ),
    "exert": (
        "Record a strenuous action by NAME: disabled becomes dying, staggered becomes unconscious; otherwise "
        "nothing changes. Refused (exit 1) for an unconscious character or an object."
    ),
    "experience": (
        "Experience rolls for NAME's checks a month after an adventure (only under the ruling "
        "experience_timing=month_after_adventure; otherwise they wait for the Winter Phase): a d20 over the "
        "value, or a 20, raises it by 1, and a trait's opposite falls by 1. Dice the table does not give are "
        "rolled by the ledger."
    ),
    "export": (
        "The campaign's whole log as JSON Lines, one event a line, oldest first, and a closing line with "
        "their count and digest (`import` refuses a file without it: one cut short)."
    ),
    "fall": (
        "NAME falls N feet: 4 bludgeoning damage per full 5 ft/s of impact velocity, min(sqrt(70 * feet), "
        "210), then the injury rules (DR, save). A --save-roll given when no damage gets through is ignored, "
        "with a note."
    ),
    "feat": (
        "A Feat with a combat skill or physical statistic WHAT (never Riding): d20 at or under half the value"
        " (ruling feat_threshold) is a critical; anything else a fumble with knockdown."
    ),
    "first-aid": (
        "First Aid on NAME's wound WOUND: once per wound, within a day of it; heals 1d3. Without --skill or "
        "--healer the aid is taken as successful. A dead character is refused (exit 1) unless --force."
    ),
    "geas": (
        "Geasa: take one (+5 Status each winter it is kept) or break it (+10 Status, -10 if a clan geas, and "
        "-d6 Honor)."
    ),
    "grab": "Strength contests after a grab hits, breaking holds, and the asleep/held states.",
    "heal": (
        "Magical healing of NAME's wound WOUND by --points N: once per wound. Waking an unconscious character"
        " ends its need for Chirurgery; a major wound's only with --heals-all or --regrows-limbs."
    ),
    "identity": "Your identity: the Ed25519 key pair that signs what you record.",
    "import": (
        "Import an exported log (FILE or `-`): every outcome is re-checked first, and a file that does not "
        "verify is refused with nothing written."
    ),
    "increase": (
        "Spend one pending increase of NAME: +1 to WHAT (a trait, passion, statistic or skill), even past "
        "normal limits; a trait's opposite falls by 1. Refused (exit 1) when none is pending."
    ),
    "injure": "Apply damage to NAME by the campaign's rules and record the outcome.",
    "key": "Keys for encrypting stored events (AES-256-GCM).",
    "log": "The events, oldest first: position, local time, author, and what each decided in sentences.",
    "mcp": (
        "Serve the ledger to an assistant over the Model Context Protocol on standard input and output: a tool "
        "per command that writes (as `commands --json` lists them) of the rule systems the database's campaigns "
        "use, acting as your identity with your role; the tools log, character_show, campaign_show, recap and "
        "verify; each campaign and character as a resource. Every tool takes an optional `campaign`, which "
        "writes nothing; the global options (--db, --by, --campaign) apply to every call."
    ),
    "mug": (
        "After a mugging hit: VICTIM saves vs petrification, the number raised by MUGGER's level minus "
        "VICTIM's level or HD."
    ),
    "note": "Record free text in the log, on a character or on the campaign.",
    "oath": "Oaths: swear, fulfil (Status as the table sets) or break (Honor -1, or d6 when grave).",
    "participant": "The campaign's participants: gms and players, their characters and keys.",
    "rebuild": (
        "Replay the read models from the whole log (every campaign in the database) into fresh tables, and "
        "put them in place of the old ones, which stay readable until then."
    ),
    "recap": "Previously on the campaign: per character, what changed in a session, in sentences.",
    "replay": (
        "What if: re-derive every recorded outcome (of NAME, or of everyone) under other rulings, cascading "
        "through later state, and show what changes. Writes nothing, unless --fork writes the alternative "
        "timeline as a new campaign whose events point at their originals."
    ),
    "report": (
        "The story of NAME from the log: every wound, healing, award, oath, geas, winter and correction (with"
        " who and why), the sheet and condition, and for PenDragon Pass Status over time."
    ),
    "rest": "Natural healing for NAME: --hours H or --minutes M [--interrupted].",
    "roll": (
        "Roll dice and record the result: NdX, dX, d%, constants, kh/kl/dh/dl, + - * / (rounding down), "
        "parentheses and a leading minus."
    ),
    "rules": "Pure rule calculations that write nothing.",
    "serve": (
        "Serve the ledger read-only as live web pages for the table: the campaigns, each character's sheet, "
        "condition, story and Status, and the log; every open page follows new events. `GET /events` is the "
        "same stream for scripts (one `data:` line per event, as `log --json`). With --writes, participants "
        "record from their own phones: a gm's `participant invite NAME` prints a link that gives a device a key "
        "of its own, and each page offers its forms to a key's participant. Browsers make keys only over https "
        "or on this machine: for phones on the network, serve https with --certfile and --keyfile."
    ),
    "shell": (
        "A prompt for the command lines `batch` takes, each recorded on its own: a failing line prints its "
        "error, writes nothing, and the prompt comes back. Tab completes commands, options, character and "
        "campaign names; history is kept between runs. `exit`, `quit` or Ctrl-D leaves. With standard input "
        "not a terminal, its lines are read the same way (an error names its line) and the exit status is 0 "
        "at their end."
    ),
    "session": "Sessions at the table: the events between a start and its end.",
    "status": "PenDragon Pass Status (Glory): awards. Every full 1,000 earns one increase.",
    "tactic": "Resolve one special TACTIC for NAME and record it (one event on NAME).",
    "verify": (
        "Re-derive every recorded outcome and check the log's tamper-evident hash chains, reading every row "
        "of the events table; the index and the characters read model are checked against it."
    ),
    "winter": (
        "Run the campaign's Winter Phase: one land roll (1 terrible -5, 2 bad -2, 3-4 normal, 5 good +2, 6 "
        "excellent +5), then for every living character economics, worship, Status from traits and passions "
        "at 16+, the religious virtues, geas upkeep and leadership, training and experience rolls for every "
        "check. A second winter for the same year is refused (exit 1) and writes nothing."
    ),
}
