"""Https for phones: browsers make WebCrypto keys only in a secure context (https, or the server's
own machine), so `serve --certfile PATH --keyfile PATH` serves https (uvicorn's TLS). Both or neither; a
file missing, not PEM, encrypted or of another key is one line and exit 2, before anything listens. Served
on the network with --writes and no certificate, it warns in one line that phones' browsers will refuse to
sign, and how to fix it. Measured on a real `chronicle serve` process with a self-signed certificate made
here: a page over https, a plain http request refused; in Chromium, a page opened by the machine's network
address is a secure context over https and not over http."""

from __future__ import annotations

import datetime
import ipaddress
import ssl
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from chronicle.cli.web.writes import address_of

from .conftest import CHROMIUM

HERE = Path(__file__).parent
NETWORK = address_of("0.0.0.0", 0).removeprefix("http://").rsplit(":", 1)[0]  # this machine's on its network


@dataclass
class Certificate:
    cert: Path
    key: Path
    pem: str


def self_signed(folder: Path, name: str = "table", password: bytes | None = None) -> Certificate:
    """A certificate for 127.0.0.1, localhost and this machine's network address, and its key, as PEM files."""
    key = ec.generate_private_key(ec.SECP256R1())
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "chronicle at the table")])
    now = datetime.datetime.now(datetime.UTC)
    addresses = {"127.0.0.1", NETWORK}
    cert = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(
            x509.SubjectAlternativeName(
                [x509.DNSName("localhost"), *(x509.IPAddress(ipaddress.ip_address(a)) for a in addresses)]
            ),
            critical=False,
        )
        .sign(key, hashes.SHA256())
    )
    encryption = serialization.BestAvailableEncryption(password) if password else serialization.NoEncryption()
    found = Certificate(
        folder / f"{name}.pem", folder / f"{name}-key.pem", cert.public_bytes(serialization.Encoding.PEM).decode()
    )
    found.cert.write_text(found.pem)
    found.key.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, encryption))
    return found


@pytest.fixture
def certificate(tmp_path: Path) -> Certificate:
    return self_signed(tmp_path)


@pytest.fixture
def ledger(run_sqlite) -> str:
    run_sqlite.json("campaign", "new", "Sartar", "--system", "pendragon-pass")
    run_sqlite.json("character", "add", "Vasana", "--stat", "siz=15", "--stat", "con=13")
    return run_sqlite.db


@dataclass
class Served:
    process: subprocess.Popen[str]
    address: str  # as its first line says it
    lines: list[str]  # its first lines on stdout

    def stop(self) -> str:
        """Stop it; its standard error."""
        self.process.terminate()
        _, err = self.process.communicate(timeout=20)
        return err


def serve(db: str, *args: str, lines: int = 1) -> Served:
    """`chronicle serve --port 0 ARGS` as a real process, once it answers (its first `lines` lines read)."""
    process = subprocess.Popen(
        [sys.executable, "-m", "chronicle.cli", "--db", db, "serve", "--port", "0", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=HERE,
    )
    assert process.stdout is not None and process.stderr is not None  # both piped
    said = [process.stdout.readline() for _ in range(lines)]
    if " at http" not in said[0]:
        process.kill()
        raise AssertionError("".join(said) + process.stderr.read())
    served = Served(process, said[0].split(" at ")[1].split()[0].rstrip("/"), said)
    httpx.get(served.address + "/static/table.css", verify=False, timeout=20)  # up: all it says first is said
    return served


@pytest.fixture
def https(ledger: str, certificate: Certificate) -> Iterator[Served]:
    served = serve(ledger, "--certfile", str(certificate.cert), "--keyfile", str(certificate.key))
    yield served
    if served.process.poll() is None:
        served.stop()


def test_serve_with_a_certificate_serves_https_and_refuses_plain_http(https, certificate):
    assert https.address.startswith("https://127.0.0.1:")
    assert https.lines[0].startswith("Serving ") and "read-only at https://127.0.0.1:" in https.lines[0]
    page = httpx.get(https.address + "/", verify=False, timeout=10)
    assert page.status_code == 200 and "Sartar" in page.text and "Vasana" in page.text
    port = int(https.address.rsplit(":", 1)[1])
    assert ssl.get_server_certificate(("127.0.0.1", port)).strip() == certificate.pem.strip()  # ours, presented
    with pytest.raises(httpx.TransportError):  # no page over plain http on that port
        httpx.get(https.address.replace("https://", "http://") + "/", timeout=10)
    assert httpx.get(https.address + "/static/table.css", verify=False, timeout=10).status_code == 200  # still up
    err = https.stop()
    assert "Traceback" not in err and "Error" not in err, err


@pytest.mark.parametrize("given", ["--certfile", "--keyfile"])
def test_a_certificate_without_its_key_or_a_key_without_its_certificate_is_bad_input(
    ledger, run_sqlite, certificate, given
):
    path = certificate.cert if given == "--certfile" else certificate.key
    done = run_sqlite("serve", "--port", "0", given, str(path))
    other = "--keyfile" if given == "--certfile" else "--certfile"
    assert done.exit_code == 2 and done.stdout == ""
    assert done.stderr == f"Error: {given} needs {other} too: give both to serve https, or neither\n"


def test_certificate_files_that_cannot_serve_https_are_one_line_each(ledger, run_sqlite, certificate, tmp_path):
    other = self_signed(tmp_path, "other")
    locked = self_signed(tmp_path, "locked", password=b"a passphrase")
    (tmp_path / "notes.txt").write_text("not a certificate")
    missing = tmp_path / "missing.pem"
    cert, key = str(certificate.cert), str(certificate.key)
    cases = [
        ((str(missing), key), f"cannot read the certificate file '{missing}': No such file or directory"),
        ((cert, str(missing)), f"cannot read the key file '{missing}': No such file or directory"),
        ((str(tmp_path), key), f"cannot read the certificate file '{tmp_path}': Is a directory"),
        (
            (cert, str(other.key)),
            f"cannot serve https with '{cert}' and '{other.key}': the key is not the certificate's",
        ),
        (
            (str(tmp_path / "notes.txt"), key),
            f"cannot serve https with '{tmp_path / 'notes.txt'}' and '{key}': they are not a PEM certificate and"
            " its private key",
        ),
        (
            (str(locked.cert), str(locked.key)),
            f"the key file '{locked.key}' is encrypted: serve takes a key without a passphrase",
        ),
    ]
    for (certfile, keyfile), said in cases:
        done = run_sqlite("serve", "--port", "0", "--certfile", certfile, "--keyfile", keyfile)
        assert done.exit_code == 2 and done.stdout == "", said
        assert done.stderr == f"Error: {said}\n"


@pytest.mark.skipif(NETWORK.startswith("127."), reason="this machine has no address on a network")
def test_writes_on_the_network_over_plain_http_warn_in_one_line(ledger, certificate):
    plain = serve(ledger, "--writes", "--host", NETWORK, lines=2)
    assert plain.address.startswith(f"http://{NETWORK}:")
    assert plain.lines[1] == f"Listening on {NETWORK}: every device on that network can read the campaign.\n"
    err = plain.stop()
    warnings = [line for line in err.splitlines() if line.startswith("Warning:")]
    assert warnings == [
        "Warning: phones' browsers will refuse to sign over plain http: serve https with --certfile and --keyfile"
        " (or through an https proxy, given to `participant invite --url`)."
    ], err
    secure = serve(
        ledger, "--writes", "--host", NETWORK, "--certfile", str(certificate.cert), "--keyfile", str(certificate.key)
    )
    assert secure.address.startswith(f"https://{NETWORK}:")
    assert "Warning" not in secure.stop()
    local = serve(ledger, "--writes")  # on this machine's own address: browsers make keys over http
    assert local.address.startswith("http://127.0.0.1:") and "Warning" not in local.stop()


@pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed at /usr/bin/chromium")
@pytest.mark.skipif(NETWORK.startswith("127."), reason="this machine has no address on a network")
def test_a_phone_on_the_network_can_make_a_key_over_https_only(ledger, certificate, chromium):
    """What the certificate is for: by the machine's network address, Chromium makes an Ed25519 key with
    WebCrypto on a page served over https (its certificate accepted as a phone's owner would), not over http."""
    make_key = """() => window.isSecureContext && crypto.subtle.generateKey({name: "Ed25519"}, false, ["sign"])
        .then(pair => pair.privateKey.extractable === false)"""
    secure = serve(ledger, "--host", NETWORK, "--certfile", str(certificate.cert), "--keyfile", str(certificate.key))
    plain = serve(ledger, "--host", NETWORK)
    try:
        context = chromium.new_context(ignore_https_errors=True, viewport={"width": 390, "height": 844})
        page = context.new_page()
        page.goto(secure.address + "/")
        assert page.evaluate(make_key) is True
        page.goto(plain.address + "/")
        assert page.evaluate("window.isSecureContext") is False
        context.close()
    finally:
        secure.stop()
        plain.stop()
