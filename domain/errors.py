"""The error family every layer raises; the CLI maps each to an exit status in one place."""


class ChronicleError(Exception):
    """Base of every error a user may see. `exit_code` follows Click: 2 bad input, 1 refusal."""

    exit_code = 2
    code = "error"


class BadInput(ChronicleError):
    """The request cannot be understood: unknown name, malformed value, out-of-range roll."""

    code = "bad_input"


class NotFound(BadInput):
    """A name or reference the campaign does not have (the contract makes it bad input)."""

    code = "not_found"


class OfTheCharacter(ChronicleError):
    """An error of the rules about the character whose sheet and condition they were given. The rules know
    no names, so it says "the character" or "this sheet"; where the character is known, the ledger raises
    `of(name)` instead: the same error, naming them (issue 34: messages name the character)."""

    def of(self, name: str) -> ChronicleError:
        raise NotImplementedError


class NotOnSheet(NotFound, OfTheCharacter):
    """A name a character's sheet has no value for. A sheet knows no character's name, so the rules say
    "this sheet"; where the character is known, `of(whose)` says whose sheet lacks what, with the
    nearest name it has: "Bruno's sheet has no skill 'swrd': did you mean 'sword'?"."""

    def __init__(self, message: str, lacking: str, hint: str = ""):
        super().__init__(message)
        self.lacking, self.hint = lacking, hint

    def __reduce__(self) -> tuple[type["NotOnSheet"], tuple[str, str, str]]:  # (an error a worker process pickles)
        return type(self), (str(self), self.lacking, self.hint)

    def of(self, whose: str) -> NotFound:
        possessive = f"{whose}'" if whose.endswith("s") else f"{whose}'s"  # as the log's sentences write it
        return NotFound(f"{possessive} sheet has no {self.lacking}{self.hint}")


class Refusal(ChronicleError):
    """The request is understood, but the rules (or the ledger's invariants) refuse it."""

    exit_code = 1
    code = "refused"


class CharacterRefused(Refusal, OfTheCharacter):
    """A refusal whose sentence starts with the character: `subject` ("the character", "the target") and
    the `rest` (" is dead: Chirurgery cannot help"); `of("Vasana")` says "Vasana is dead: ..."."""

    def __init__(self, rest: str, subject: str = "the character"):
        super().__init__(f"{subject}{rest}")
        self.rest, self.subject = rest, subject

    def __reduce__(self) -> tuple[type["CharacterRefused"], tuple[str, str]]:  # (an error a worker pickles)
        return type(self), (self.rest, self.subject)

    def of(self, name: str) -> ChronicleError:
        return Refusal(f"{name}{self.rest}")


class Conflict(Refusal):
    """Another writer kept winning the race for the same aggregate."""

    code = "conflict"


class Forbidden(Refusal):
    """The rules allow it, but not to this participant (a player acting for another's character)."""

    code = "forbidden"


class BadSignature(Refusal):
    """A signature that does not verify, a key that is no participant's, or a nonce seen before."""

    code = "bad_signature"


class DamagedLog(Refusal):
    """The log no longer holds what was recorded (an event removed, moved or rewritten behind chronicle's back):
    nothing more is decided on it until it is restored (`verify` names what changed)."""

    code = "damaged_log"
