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


class Refusal(ChronicleError):
    """The request is understood, but the rules (or the ledger's invariants) refuse it."""

    exit_code = 1
    code = "refused"


class Conflict(Refusal):
    """Another writer kept winning the race for the same aggregate."""

    code = "conflict"


class Forbidden(Refusal):
    """The rules allow it, but not to this participant (a player acting for another's character)."""

    code = "forbidden"


class BadSignature(Refusal):
    """A signature that does not verify, a key that is no participant's, or a nonce seen before."""

    code = "bad_signature"
