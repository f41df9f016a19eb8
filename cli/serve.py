"""`chronicle serve [--host 127.0.0.1] [--port 8765] [--writes] [--certfile PATH --keyfile PATH]`: the table
view, read-only unless --writes, over https with a certificate, until interrupted."""

from __future__ import annotations

import contextlib
import ipaddress
import signal
import socket
import ssl
import threading
from collections.abc import Iterator

import click

from ..domain.errors import BadInput
from ..domain.text import printable
from ..ledger.application.addresses import redact
from ..ledger.application.connections import staying_up
from .context import Env
from .web.app import build
from .web.limits import Room, room
from .web.reading import LedgerUnavailable, Reading
from .web.writes import Writer, address_of


@click.command()
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="Address to listen on; another than this machine's own lets the whole network read.",
)
@click.option("--port", default=8765, show_default=True, type=click.IntRange(0, 65535), help="Port (0: any free one).")
@click.option(
    "--writes",
    is_flag=True,
    help="Take writes signed on participants' own devices (POST /api/commands; `participant invite` links).",
)
@click.option(
    "--certfile",
    metavar="PATH",
    help="Serve https with this certificate (PEM; with --keyfile): phones' browsers sign only over https.",
)
@click.option("--keyfile", metavar="PATH", help="The certificate's private key (PEM, not encrypted; with --certfile).")
@click.pass_obj
def serve(env: Env, host: str, port: int, writes: bool, certfile: str | None, keyfile: str | None) -> None:
    """Serve the ledger read-only as live web pages for the table: the campaigns, each character's
    sheet, condition, story and Status, and the log; every open page follows new events.
    `GET /events` is the same stream for scripts (one `data:` line per event, as `log --json`).
    With --writes, participants record from their own phones: a gm's `participant invite NAME` prints
    a link that gives a device a key of its own, and each page offers its forms to a key's participant.
    Browsers make keys only over https or on this machine: for phones on the network, serve https with
    --certfile and --keyfile.

    \b
    Examples:
      chronicle --db table.db serve --port 8765
      chronicle serve --writes --host 0.0.0.0 --certfile table.pem --keyfile table-key.pem
    """
    tls = _tls(certfile, keyfile)
    staying_up()  # its connections keep small page caches: it serves for days
    data = Reading(env.db)
    data.check_target()
    try:
        data.warm()
    except LedgerUnavailable as problem:
        raise BadInput(str(problem)) from None
    limits = room()
    listener = _listen(host, port, limits.backlog)
    bound = listener.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    scheme = "https" if tls else "http"
    writer = Writer(env.db, lambda line: click.echo(f"chronicle serve: {line}", err=True)) if writes else None
    if writer is not None:
        writer.note_address(address_of(host, bound, scheme))  # where `participant invite` links point
    kind = "taking participants' signed writes" if writer is not None else "read-only"
    click.echo(f"Serving {_shown_target(env.db)} {kind} at {scheme}://{shown}:{bound}/ (Ctrl-C stops).")
    if not _loopback(host):
        click.echo(f"Listening on {host}: every device on that network can read the campaign.")
        if writer is not None and tls is None:  # WebCrypto: a secure context (https, or this machine) only
            click.echo(
                "Warning: phones' browsers will refuse to sign over plain http: serve https with --certfile and"
                " --keyfile (or through an https proxy, given to `participant invite --url`).",
                err=True,
            )
    try:
        _run(data, listener, limits, writer, tls)
    finally:
        data.close()
        if writer is not None:
            writer.close()
    click.echo("Stopped.")


def _run(
    data: Reading, listener: socket.socket, limits: Room, writer: Writer | None, tls: tuple[str, str] | None
) -> None:
    import uvicorn
    from uvicorn.server import HANDLED_SIGNALS

    app = build(data, lambda line: click.echo(f"chronicle serve: {line}", err=True), limits.streams, writer)

    class Server(uvicorn.Server):
        @contextlib.contextmanager
        def capture_signals(self) -> Iterator[None]:
            """uvicorn's, without raising the caught Ctrl-C again once stopped (a traceback from asyncio)."""
            if threading.current_thread() is not threading.main_thread():
                yield
                return
            before = {sig: signal.signal(sig, self.handle_exit) for sig in HANDLED_SIGNALS}
            try:
                yield
            finally:
                for sig, handler in before.items():
                    signal.signal(sig, handler)

        async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
            await app.state.hub.stop()  # end the open event streams, which uvicorn would wait for
            await super().shutdown(sockets)

    # Past `limit_concurrency` uvicorn answers 503 itself; "error": not a warning line for each of those
    config = uvicorn.Config(
        app,
        log_level="error",
        access_log=False,
        lifespan="on",
        timeout_graceful_shutdown=3,
        limit_concurrency=limits.connections,
        backlog=limits.backlog,
        ssl_certfile=tls[0] if tls else None,
        ssl_keyfile=tls[1] if tls else None,
    )
    Server(config).run(sockets=[listener])


def _tls(certfile: str | None, keyfile: str | None) -> tuple[str, str] | None:
    """The certificate and key files to serve https with, checked now (readable, PEM, the key the
    certificate's and not encrypted: uvicorn would ask for its passphrase), or None for plain http."""
    if certfile is None and keyfile is None:
        return None
    if certfile is None or keyfile is None:
        given, missing = ("--certfile", "--keyfile") if keyfile is None else ("--keyfile", "--certfile")
        raise BadInput(f"{given} needs {missing} too: give both to serve https, or neither")
    for what, path in (("certificate", certfile), ("key", keyfile)):
        try:
            with open(path, "rb") as file:
                file.read(1)
        except OSError as problem:
            raise BadInput(f"cannot read the {what} file {printable(path)}: {problem.strerror or problem}") from None
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    try:
        context.load_cert_chain(certfile, keyfile, password=_no_passphrase)
    except _Encrypted:
        raise BadInput(
            f"the key file {printable(keyfile)} is encrypted: serve takes a key without a passphrase"
        ) from None
    except ssl.SSLError as problem:
        reason = (
            "the key is not the certificate's"
            if problem.reason == "KEY_VALUES_MISMATCH"
            else "they are not a PEM certificate and its private key"
        )
        raise BadInput(f"cannot serve https with {printable(certfile)} and {printable(keyfile)}: {reason}") from None
    except OSError as problem:  # (a file gone since it was read)
        raise BadInput(f"cannot read {printable(certfile)} or {printable(keyfile)}: {problem.strerror}") from None
    return certfile, keyfile


class _Encrypted(Exception):
    """The key file asked for a passphrase."""


def _no_passphrase() -> bytes:
    raise _Encrypted


def _listen(host: str, port: int, backlog: int) -> socket.socket:
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
        listener = socket.socket(family, kind, proto)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(address)
        listener.listen(backlog)  # from here a browser that connects waits for the app, rather than being refused
    except OSError as problem:
        raise BadInput(f"cannot listen on {_named(host)} port {port}: {problem.strerror or problem}") from None
    except UnicodeError:  # the IDNA codec's refusal of a label that is empty or longer than 63 characters
        raise BadInput(f"cannot listen on {_named(host)}: not a host name or address") from None
    listener.set_inheritable(True)
    return listener


def _named(host: str) -> str:
    """The host as a message names it: quoted, escaped, and shortened when long."""
    return printable(host if len(host) <= 80 else host[:80] + "...") if host else "an empty host name"


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _shown_target(target: str) -> str:
    return redact(target)
