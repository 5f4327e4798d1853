"""The real web's front door on this machine: a real nginx serving name-based
virtual hosts over HTTP (port 80) and HTTPS (port 443) of one loopback address.

A test describes what each origin (scheme + host name) answers: pages it serves
(:meth:`NginxBed.serve`) or a 301 to another origin with the same path
(:meth:`NginxBed.redirect`), HSTS, the certificate it shows (one issued by the
bed's own test certificate authority, or a self-signed, expired or wrong-name
one, or a handshake it rejects), then :meth:`NginxBed.start`. nginx runs
in the foreground (``daemon off;``) as a child process with its own
configuration, pid file, error log and access log in the test's temporary
folder; :meth:`NginxBed.stop` ends it.

nginx writes one JSON object per request to its access log (``$msec``,
``$request_time``, ``$scheme``, ``$host``, ``$status``, ``$request_uri``,
``$remote_addr``...): :meth:`NginxBed.hits` reads it back, and the functions at
the end of this module judge a crawl by it (requests per page, gaps between
request starts, requests to one host that overlapped, robots.txt fetches per
origin).

Ports 80 and 443 are what make ``http://h/`` and ``https://h/`` one host; each
bed takes its own address in ``127.0.0.0/8`` so that tests do not collide.
Binding them needs root (CI runs as root); where nginx is missing or the ports
cannot be bound, :class:`BedUnavailable` says why and the fixture skips.

Host names are never looked up in DNS: the crawl is given :attr:`NginxBed.hosts`
(name -> address) through the product's resolver setting, and the bed's own
probes connect to the address and send the name (``Host``, SNI).

The certificates come from ``trustme`` (a test certificate authority and leaf
certificates in a few lines, with validity dates; the self-signed one is made
with ``cryptography``, which trustme is built on): :attr:`NginxBed.ca_file` is
the authority's certificate, to be trusted by the crawl where a test wants
certificate checks to pass.
"""

from __future__ import annotations

import datetime
import hashlib
import http.client
import itertools
import json
import os
import random
import shutil
import signal
import socket
import ssl
import subprocess
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, NoReturn, Self
from urllib.parse import urlsplit

import trustme
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

HTTP_PORT = 80
HTTPS_PORT = 443

Cert = Literal["good", "selfsigned", "expired", "wrongname", "reject"]

#: The access log format: one JSON object per request.
LOG_FORMAT = (
    '{"msec":"$msec","request_time":"$request_time","scheme":"$scheme","host":"$host",'
    '"status":"$status","uri":"$request_uri","method":"$request_method",'
    '"remote_addr":"$remote_addr","server_port":"$server_port","agent":"$http_user_agent",'
    '"bytes":"$body_bytes_sent","connection":"$connection",'
    '"connection_requests":"$connection_requests","ssl_protocol":"$ssl_protocol"}'
)

#: Debian's libnginx-mod-http-echo: ``echo_sleep`` makes answers take time.
ECHO_MODULE = "/usr/lib/nginx/modules/ngx_http_echo_module.so"

#: The host name of the bed's own readiness probe (never logged).
PROBE_HOST = "probe.bed.invalid"


class BedUnavailable(RuntimeError):
    """nginx is missing, or this run cannot bind the bed's ports (the fixture skips)."""


def _raise_unavailable(reason: str) -> NoReturn:
    raise BedUnavailable(reason)


@dataclass(frozen=True)
class Hit:
    """One request as nginx logged it."""

    end: float  # $msec: when the answer was sent (the log line was written)
    duration: float  # $request_time: since the first byte of the request was read
    scheme: str
    host: str
    status: int
    uri: str
    method: str
    remote_addr: str
    agent: str
    connection: int

    @property
    def start(self) -> float:
        return self.end - self.duration

    @property
    def path(self) -> str:
        return urlsplit(self.uri).path

    @property
    def origin(self) -> str:
        return f"{self.scheme}://{self.host}"

    @property
    def url(self) -> str:
        return f"{self.scheme}://{self.host}{self.uri}"

    @classmethod
    def parse(cls, line: str) -> Hit:
        data = json.loads(line)
        return cls(
            end=float(data["msec"]),
            duration=float(data["request_time"]),
            scheme=data["scheme"],
            host=data["host"].lower(),
            status=int(data["status"]),
            uri=data["uri"],
            method=data["method"],
            remote_addr=data["remote_addr"],
            agent=data["agent"],
            connection=int(data["connection"]),
        )


@dataclass
class _Origin:
    scheme: str
    host: str
    files: dict[str, str] = field(default_factory=dict)
    redirect_to: str | None = None  # an origin: 301 to it + the request's path and query
    hsts: bool = False
    cert: Cert = "good"
    delay: float = 0.0  # seconds each answer waits before it is sent
    drop: bool = False  # close the connection without an answer (nginx's 444)

    @property
    def key(self) -> str:
        return f"{self.scheme}://{self.host}"


def address_for(name: str) -> str:
    """A loopback address for a test, from its name (127.0.0.2-127.0.0.254; the
    bed moves to another when it is taken)."""
    digest = hashlib.sha256(name.encode()).digest()
    return f"127.0.0.{2 + digest[0] % 253}"


def nginx_binary() -> str | None:
    return shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin:/usr/local/sbin")


class NginxBed:
    def __init__(self, workdir: Path, address: str = "127.0.0.2",
                 unavailable: Callable[[str], NoReturn] | None = None) -> None:  # fmt: skip
        """``unavailable(reason)`` is called (it must raise) where nginx is missing
        or the ports cannot be bound; by default it raises :class:`BedUnavailable`."""
        self.unavailable = unavailable or _raise_unavailable
        self.workdir = Path(workdir)
        self.address = address
        self.origins: dict[str, _Origin] = {}
        self.process: subprocess.Popen[bytes] | None = None
        self.generation = 0
        self.ca = trustme.CA(organization_name="webrobot test bed")
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.ca_file = self.workdir / "ca.pem"
        self.ca.cert_pem.write_to_path(str(self.ca_file))
        self.access_log = self.workdir / "access.log"
        self.error_log = self.workdir / "error.log"
        self.conf_file = self.workdir / "nginx.conf"

    # --- What the origins answer -----------------------------------------------------------

    def serve(self, origin: str, files: dict[str, str], *, hsts: bool = False,
              cert: Cert = "good", delay: float = 0.0) -> Self:  # fmt: skip
        """``origin`` (``https://shop.test``) serves ``files`` (path -> body; ``/``
        and paths ending in ``/`` are that folder's index; no extension is HTML,
        ``.txt`` plain text). ``hsts``: send ``Strict-Transport-Security`` (https
        only). ``delay``: each answer waits that long (nginx's echo module), so
        that requests last long enough for overlaps to show in the log."""
        scheme, host = _split_origin(origin)
        self.origins[origin] = _Origin(scheme, host, dict(files), None, hsts, cert, delay)
        return self

    def redirect(self, origin: str, to: str, *, hsts: bool = False, cert: Cert = "good") -> Self:
        """Every request to ``origin`` (robots.txt too) answers 301 to the same
        path and query on origin ``to``."""
        scheme, host = _split_origin(origin)
        _split_origin(to)
        self.origins[origin] = _Origin(scheme, host, {}, to.rstrip("/"), hsts, cert)
        return self

    def drop(self, origin: str, *, cert: Cert = "good") -> Self:
        """``origin`` closes every connection without an answer."""
        scheme, host = _split_origin(origin)
        self.origins[origin] = _Origin(scheme, host, {}, None, False, cert, 0, drop=True)
        return self

    def set_cert(self, origin: str, cert: Cert) -> None:
        """Change the certificate of an https origin; :meth:`reload` applies it."""
        self.origins[origin].cert = cert

    @property
    def host_names(self) -> list[str]:
        return sorted({o.host for o in self.origins.values()})

    @property
    def hosts(self) -> dict[str, str]:
        """Every host name of the bed -> its address (for the crawl's resolver)."""
        return dict.fromkeys(self.host_names, self.address)

    # --- Running nginx ---------------------------------------------------------------------

    def start(self, attempts: int = 8, timeout: float = 10.0) -> Self:
        binary = nginx_binary()
        if binary is None:
            self.unavailable(
                "nginx not found: `make test` installs Debian's nginx package "
                "(or run: apt-get install nginx)"
            )
        rng = random.Random(self.address)
        for _ in range(attempts):
            problem = self._bindable()
            if problem == "in use":
                self.address = f"127.0.0.{rng.randrange(2, 255)}"
                continue
            if problem:
                self.unavailable(problem)
            self._write()
            self.process = subprocess.Popen(
                [binary, "-p", str(self.workdir), "-c", str(self.conf_file),
                 "-e", str(self.error_log)],
                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
            )  # fmt: skip
            if self._wait_ready(timeout):
                return self
            stderr = self._stop_process()
            log = self.error_log.read_text(errors="replace") if self.error_log.exists() else ""
            if "Address already in use" in stderr + log:
                self.address = f"127.0.0.{rng.randrange(2, 255)}"
                continue
            if "Permission denied" in stderr + log:
                self.unavailable(f"nginx cannot bind ports 80 and 443: {stderr.strip()}")
            raise RuntimeError(f"nginx did not start: {stderr.strip()} {log[-1500:]}")
        self.unavailable(f"no free loopback address for ports 80 and 443 after {attempts} tries")

    def reload(self, timeout: float = 10.0) -> None:
        """Write the configuration again (after :meth:`set_cert`...) and make nginx
        use it; returns once the new workers answer."""
        assert self.process is not None
        old_workers = self._workers()
        self._write()
        self.process.send_signal(signal.SIGHUP)
        deadline = time.monotonic() + timeout
        # Done when the new workers answer and the old ones have gone (until then an
        # old worker may still accept a connection on the old configuration).
        while self._probe() != str(self.generation) or old_workers & self._workers():
            if time.monotonic() > deadline or self.process.poll() is not None:
                raise RuntimeError(f"nginx did not reload: {self.error_log.read_text()[-1500:]}")
            time.sleep(0.02)

    def _workers(self) -> set[str]:
        """Process ids of nginx's workers (the master's children)."""
        assert self.process is not None
        pid = self.process.pid
        try:
            return set(Path(f"/proc/{pid}/task/{pid}/children").read_text().split())
        except OSError:
            return set()

    def stop(self) -> None:
        self._stop_process()

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _stop_process(self) -> str:
        if self.process is None:
            return ""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGQUIT)  # graceful: workers finish, then exit
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        stderr = self.process.stderr.read().decode(errors="replace") if self.process.stderr else ""
        if self.process.stderr:
            self.process.stderr.close()
        self.process = None
        return stderr

    def _bindable(self) -> str:
        """ "" when both ports can be bound on the address, "in use" when one is
        taken, else why not."""
        for port in (HTTP_PORT, HTTPS_PORT):
            with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                try:
                    sock.bind((self.address, port))
                except PermissionError:
                    return f"cannot bind {self.address}:{port} (needs root or CAP_NET_BIND_SERVICE)"
                except OSError as exc:
                    if exc.errno == 98:  # EADDRINUSE
                        return "in use"
                    return f"cannot bind {self.address}:{port}: {exc}"
        return ""

    def _wait_ready(self, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process is None or self.process.poll() is not None:
                return False
            if self._probe() == str(self.generation) and self._port_open(HTTPS_PORT):
                return True
            time.sleep(0.02)
        return False

    def _port_open(self, port: int) -> bool:
        try:
            with socket.create_connection((self.address, port), timeout=1):
                return True
        except OSError:
            return False

    def _probe(self) -> str:
        try:
            connection = http.client.HTTPConnection(self.address, HTTP_PORT, timeout=2)
            connection.request("GET", "/generation", headers={"Host": PROBE_HOST})
            body = connection.getresponse().read().decode()
            connection.close()
            return body
        except OSError:
            return ""

    # --- The configuration -----------------------------------------------------------------

    def _write(self) -> None:
        self.generation += 1
        for folder in ("tmp", "certs", "sites"):
            (self.workdir / folder).mkdir(exist_ok=True)
        servers = [self._probe_server(), *self._default_servers()]
        for origin in self.origins.values():
            servers.append(self._server(origin))
        user = "user root root;\n" if os.geteuid() == 0 else ""
        if any(o.delay for o in self.origins.values()):
            if not Path(ECHO_MODULE).exists():
                self.unavailable(
                    f"nginx's echo module ({ECHO_MODULE}) is missing: `make test` installs "
                    "Debian's libnginx-mod-http-echo (or run: apt-get install libnginx-mod-http-echo)"
                )
            user = f"load_module {ECHO_MODULE};\n{user}"
        tmp = self.workdir / "tmp"
        self.conf_file.write_text(
            f"""{user}daemon off;
master_process on;
worker_processes 1;
pid {self.workdir / "nginx.pid"};
error_log {self.error_log} info;
events {{ worker_connections 256; }}
http {{
    types {{ text/html html; text/plain txt; application/xml xml; }}
    default_type text/html;
    charset utf-8;
    log_format bed escape=json '{LOG_FORMAT}';
    access_log {self.access_log} bed;
    client_body_temp_path {tmp}/body;
    proxy_temp_path {tmp}/proxy;
    fastcgi_temp_path {tmp}/fastcgi;
    uwsgi_temp_path {tmp}/uwsgi;
    scgi_temp_path {tmp}/scgi;
    sendfile off;
    keepalive_timeout 30s;
    keepalive_requests 1000;
    gzip on;
    gzip_min_length 20;
    gzip_types text/plain application/xml;
    server_tokens off;
    ssl_protocols TLSv1.2 TLSv1.3;
    ssl_session_cache shared:bed:1m;
{"".join(servers)}}}
""",
            "utf-8",
        )

    def _probe_server(self) -> str:
        return f"""    server {{
        listen {self.address}:{HTTP_PORT};
        server_name {PROBE_HOST};
        access_log off;
        location = /generation {{ return 200 "{self.generation}"; }}
    }}
"""

    def _default_servers(self) -> list[str]:
        """A name the bed does not know: HTTP closes the connection, HTTPS refuses
        the handshake."""
        return [
            f"""    server {{
        listen {self.address}:{HTTP_PORT} default_server;
        server_name _;
        return 444;
    }}
    server {{
        listen {self.address}:{HTTPS_PORT} ssl default_server;
        server_name _;
        ssl_reject_handshake on;
    }}
"""
        ]

    def _server(self, origin: _Origin) -> str:
        lines = [f"server_name {origin.host};"]
        if origin.scheme == "https":
            lines.append(f"listen {self.address}:{HTTPS_PORT} ssl;")
            if origin.cert == "reject":
                lines.append("ssl_reject_handshake on;")
            else:
                cert, key = self._cert_files(origin)
                lines += [f"ssl_certificate {cert};", f"ssl_certificate_key {key};"]
            if origin.hsts:
                lines.append('add_header Strict-Transport-Security "max-age=31536000" always;')
        else:
            lines.append(f"listen {self.address}:{HTTP_PORT};")
        if origin.drop:
            lines.append("return 444;")
        elif origin.redirect_to is not None:
            lines.append(f"return 301 {origin.redirect_to}$request_uri;")
        else:
            root = self._write_files(origin)
            lines += [f"root {root};", "index index.html;"]
            files = "try_files $uri $uri/index.html =404;"
            if origin.delay:
                lines.append(f"location / {{ echo_sleep {origin.delay}; echo_exec @files; }}")
                lines.append(f"location @files {{ {files} }}")
            else:
                lines.append(f"location / {{ {files} }}")
        body = "".join(f"        {line}\n" for line in lines)
        return f"    server {{\n{body}    }}\n"

    def _write_files(self, origin: _Origin) -> Path:
        root = self.workdir / "sites" / f"{origin.scheme}_{origin.host}"
        if root.exists():
            shutil.rmtree(root)
        root.mkdir(parents=True)
        for path, body in origin.files.items():
            relative = path.lstrip("/")
            if relative == "" or relative.endswith("/"):
                relative += "index.html"
            target = root / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(body, "utf-8")
        return root

    def _cert_files(self, origin: _Origin) -> tuple[Path, Path]:
        folder = self.workdir / "certs"
        stem = folder / f"{origin.host}-{origin.cert}"
        cert, key = stem.with_suffix(".crt"), stem.with_suffix(".key")
        if cert.exists():
            return cert, key
        now = datetime.datetime.now(datetime.UTC)
        if origin.cert == "selfsigned":
            _self_signed(origin.host, cert, key)
            return cert, key
        if origin.cert == "expired":
            leaf = self.ca.issue_cert(
                origin.host,
                not_before=now - datetime.timedelta(days=60),
                not_after=now - datetime.timedelta(days=30),
            )
        elif origin.cert == "wrongname":
            leaf = self.ca.issue_cert(f"not-{origin.host}")
        else:
            leaf = self.ca.issue_cert(origin.host)
        leaf.private_key_and_cert_chain_pem.write_to_path(str(cert))
        leaf.private_key_pem.write_to_path(str(key))
        return cert, key

    # --- What nginx saw --------------------------------------------------------------------

    def hits(self, host: str | None = None) -> list[Hit]:
        """Every request logged so far (of one host name, any scheme), in log order."""
        if not self.access_log.exists():
            return []
        lines = self.access_log.read_text("utf-8").splitlines()
        hits = [Hit.parse(line) for line in lines if line.strip()]
        return [h for h in hits if host is None or h.host == host]

    def rejected_handshakes(self) -> int:
        """TLS handshakes refused so far (``cert="reject"``), from nginx's error log."""
        if not self.error_log.exists():
            return 0
        return self.error_log.read_text(errors="replace").count("handshake rejected")

    # --- Asking it directly (the bed's own checks) ---------------------------------------

    def get(self, url: str, *, verify: bool = True, headers: dict[str, str] | None = None,
            timeout: float = 10) -> tuple[int, dict[str, str], bytes]:  # fmt: skip
        """One request to the bed, the host name sent but never looked up."""
        parts = urlsplit(url)
        host = parts.hostname or ""
        target = parts.path or "/"
        if parts.query:
            target += "?" + parts.query
        connection: http.client.HTTPConnection
        if parts.scheme == "https":
            context = ssl.create_default_context(cafile=str(self.ca_file))
            if not verify:
                context.check_hostname = False
                context.verify_mode = ssl.CERT_NONE
            connection = _NamedHTTPSConnection(self.address, host, context, timeout)
        else:
            connection = http.client.HTTPConnection(self.address, HTTP_PORT, timeout=timeout)
        logged = len(self.hits())
        try:
            connection.request("GET", target, headers={"Host": host, **(headers or {})})
            response = connection.getresponse()
            status, body = response.status, response.read()
            answer_headers = {k.lower(): v for k, v in response.getheaders()}
        finally:
            connection.close()
        # nginx writes the log line once the answer is sent: wait for it, so that a
        # test reading the log next finds this request there.
        self.wait_until(lambda: len(self.hits()) > logged, "the request in the access log")
        return status, answer_headers, body

    def wait_until(self, condition: Callable[[], bool], what: str, timeout: float = 5.0) -> None:
        deadline = time.monotonic() + timeout
        while not condition():
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out after {timeout} s waiting for {what}")
            time.sleep(0.01)


class _NamedHTTPSConnection(http.client.HTTPSConnection):
    """HTTPS to an address, with the host name as SNI and for the certificate check."""

    def __init__(self, address: str, name: str, context: ssl.SSLContext, timeout: float) -> None:
        super().__init__(address, HTTPS_PORT, timeout=timeout, context=context)
        self._name = name
        self._ssl_context = context

    def connect(self) -> None:
        self.sock = socket.create_connection((self.host, self.port), self.timeout)
        self.sock = self._ssl_context.wrap_socket(self.sock, server_hostname=self._name)


def _self_signed(host: str, cert_path: Path, key_path: Path) -> None:
    """A certificate for ``host`` (the right name) that is its own issuer: trusted
    by nobody, as a server set up with ``openssl req -x509`` shows it."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, host)])
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=30))
        .add_extension(x509.SubjectAlternativeName([x509.DNSName(host)]), critical=False)
        .sign(key, hashes.SHA256())
    )
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )


def _split_origin(origin: str) -> tuple[str, str]:
    parts = urlsplit(origin)
    if (
        parts.scheme not in ("http", "https")
        or not parts.hostname
        or parts.port
        or parts.path.strip("/")
    ):
        raise ValueError(f"an origin without port or path was expected, not {origin!r}")  # fmt: skip
    return parts.scheme, parts.hostname


# --- Sites ----------------------------------------------------------------------------------


def site_pages(count: int, forms: Sequence[str], *, title: str = "page", prefix: str = "/p/",
               extra: Iterable[str] = ()) -> dict[str, str]:  # fmt: skip
    """``count`` pages ``/p/0``... (and ``/`` linking ``/p/0``) that link each
    other in the given forms: page i links page i+1 relatively (so every page
    is reachable through the site's own origin) and pages 2i+1, 2i+2 and 0
    with absolute prefixes taken in turn from ``forms`` (``http://shop.test``,
    ``https://www.shop.test``, ``""`` for a root-relative link), then the ``extra``
    links."""
    cycle = itertools.cycle(forms or [""])
    pages: dict[str, str] = {}
    for i in range(count):
        links = []
        if i + 1 < count:
            links.append(f"{i + 1}")  # relative to /p/
        for target in (2 * i + 1, 2 * i + 2, 0):
            if target < count:
                links.append(f"{next(cycle)}{prefix}{target}")
        links += list(extra)
        anchors = "".join(f'<a href="{link}">{link}</a>\n' for link in links)
        pages[f"{prefix}{i}"] = (
            f"<html><head><title>{title} {i}</title></head><body>\n{anchors}</body></html>\n"
        )
    pages["/"] = f'<html><head><title>{title} home</title></head><body><a href="{prefix}0">start</a></body></html>\n'  # fmt: skip
    return pages


def expected_pages(origin: str, pages: dict[str, str], reached: set[str] | None = None) -> set[str]:
    """The URLs of ``pages`` (or of the paths ``reached``) on ``origin``, robots.txt left out."""
    return {origin + path for path in (reached or set(pages)) if path != "/robots.txt"}


def moved_to_tls(bed: NginxBed, host: str, pages: dict[str, str], delay: float = 0.0) -> None:
    """``host`` answers ``http`` with a 301 to ``https`` (robots.txt too);
    ``www.host`` sends both schemes to ``https://host``."""
    bed.redirect(f"http://{host}", f"https://{host}")
    bed.serve(f"https://{host}", pages, delay=delay)
    bed.redirect(f"http://www.{host}", f"https://{host}")
    bed.redirect(f"https://www.{host}", f"https://{host}")


def moved_to_www(bed: NginxBed, host: str, pages: dict[str, str], delay: float = 0.0) -> None:
    """``host`` lives on ``https://www.host`` (HSTS there); every other form of
    the name answers a 301 to it."""
    www = f"https://www.{host}"
    for origin in (f"http://{host}", f"https://{host}", f"http://www.{host}"):
        bed.redirect(origin, www)
    bed.serve(www, pages, hsts=True, delay=delay)


def page_paths(count: int) -> set[str]:
    return {f"/p/{i}" for i in range(count)}


def robots(crawl_delay: float | None = None, disallow: Iterable[str] = ()) -> str:
    lines = ["User-agent: *"]
    lines += [f"Disallow: {path}" for path in disallow] or ["Disallow:"]
    if crawl_delay is not None:
        lines.append(f"Crawl-delay: {crawl_delay}")
    return "\n".join(lines) + "\n"


# --- Judging a crawl by the log -------------------------------------------------------------


def pages_served(hits: Iterable[Hit]) -> Counter[str]:
    """URL -> times it was answered 200, robots.txt left out."""
    return Counter(h.url for h in hits if h.status == 200 and h.path != "/robots.txt")


def requests_per_page(hits: Sequence[Hit]) -> float:
    """Requests (redirects too, robots.txt left out) per distinct page served 200."""
    requests = [h for h in hits if h.path != "/robots.txt"]
    pages = pages_served(hits)
    return len(requests) / max(1, len(pages))


def start_gaps(hits: Iterable[Hit]) -> list[float]:
    """Seconds between consecutive request starts, in start order."""
    starts = sorted(h.start for h in hits)
    return [b - a for a, b in itertools.pairwise(starts)]


def held(delay: float) -> float:
    """The shortest gap between two request starts in nginx's log that still
    shows ``delay`` was kept: the log has millisecond times, and a request on a
    new connection reaches nginx a handshake later than it left the crawler."""
    return delay * 0.9 - 0.005


def unspaced(hits: Iterable[Hit], delay: float) -> list[str]:
    """Requests that started less than ``delay`` after the one before, in log
    order, described. On a loaded machine a request can reach nginx late (its
    worker or the crawler's reactor waited for the CPU) and the next one then
    seems early; a short gap right after a long one, the two together at least
    two delays, is that and not two requests sent too close."""
    ordered = sorted(hits, key=lambda h: h.start)
    gaps = [b.start - a.start for a, b in itertools.pairwise(ordered)]
    found = []
    for i, gap in enumerate(gaps):
        if gap >= held(delay):
            continue
        if i > 0 and gaps[i - 1] + gap >= 2 * held(delay):
            continue
        found.append(f"{gap:.3f} s from {ordered[i].url} to {ordered[i + 1].url}")
    return found


def overlaps(hits: Iterable[Hit], slack: float = 0.002) -> list[tuple[Hit, Hit]]:
    """Pairs of requests that were in progress at once (one started more than
    ``slack`` seconds before the other was answered)."""
    ordered = sorted(hits, key=lambda h: h.start)
    found = []
    for i, hit in enumerate(ordered):
        for later in ordered[i + 1 :]:
            if later.start >= hit.end - slack:
                break
            found.append((hit, later))
    return found


def robots_fetches(hits: Iterable[Hit]) -> Counter[str]:
    """Origin -> times its robots.txt was requested."""
    return Counter(h.origin for h in hits if h.path == "/robots.txt")


def by_host(hits: Iterable[Hit]) -> dict[str, list[Hit]]:
    grouped: dict[str, list[Hit]] = defaultdict(list)
    for hit in hits:
        grouped[hit.host].append(hit)
    return dict(grouped)


def figures(hits: Sequence[Hit]) -> dict[str, object]:
    """What a crawl cost, per host name: pages served, requests per page, the
    shortest gap between two request starts (robots.txt left out), requests in
    progress at once; printed by the tests (``pytest -rP`` shows them)."""
    result: dict[str, object] = {}
    for host, host_hits in sorted(by_host(hits).items()):
        pages = [h for h in host_hits if h.path != "/robots.txt"]
        gaps = start_gaps(pages)
        result[host] = {
            "pages": len(pages_served(host_hits)),
            "requests": len(pages),
            "requests_per_page": round(requests_per_page(host_hits), 3),
            "min_gap": round(min(gaps), 3) if gaps else None,
            "overlaps": len(overlaps(host_hits)),
            "robots": dict(robots_fetches(host_hits)),
        }
    return result


def describe(hits: Iterable[Hit]) -> str:
    """The log, one request a line, for assertion messages."""
    ordered = sorted(hits, key=lambda h: h.start)
    if not ordered:
        return "(no requests)"
    t0 = ordered[0].start
    return "\n".join(f"{h.start - t0:8.3f} +{h.duration:.3f} {h.status} {h.url}" for h in ordered)
