"""Certificate problems (table-driven), the hosts table and progress part, and an
end-to-end crawl of https sites with self-signed, expired and wrong-name
certificates: crawled, counted per host, shown in the report."""

from __future__ import annotations

import datetime as dt
import json
import ssl
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from tests.crawling import run_crawl
from webrobot.demo.server import SiteServer
from webrobot.demo.tls import server_context
from webrobot.report.hosts import hosts_progress, hosts_report
from webrobot.urls.hostnotes import HostNotes
from webrobot.urls.tlsmiddleware import problems_of
from webrobot.urls.tlsproblems import (
    EXPIRED,
    NOT_YET_VALID,
    SELF_SIGNED,
    WRONG_NAME,
    certificate_problems,
)

NOW = dt.datetime(2026, 6, 1, tzinfo=dt.UTC)
DAY = dt.timedelta(days=1)


@pytest.mark.parametrize(
    ("before", "after", "self_signed", "matches", "problems"),
    [
        (NOW - DAY, NOW + DAY, False, True, ()),
        (NOW - DAY, NOW + DAY, True, True, (SELF_SIGNED,)),
        (NOW - 2 * DAY, NOW - DAY, False, True, (EXPIRED,)),
        (NOW + DAY, NOW + 2 * DAY, False, True, (NOT_YET_VALID,)),
        (NOW - DAY, NOW + DAY, False, False, (WRONG_NAME,)),
        (NOW - 2 * DAY, NOW - DAY, True, False, (SELF_SIGNED, EXPIRED, WRONG_NAME)),
    ],
)
def test_certificate_problems(
    before: dt.datetime,
    after: dt.datetime,
    self_signed: bool,
    matches: bool,
    problems: tuple[str, ...],
) -> None:
    assert (
        certificate_problems(
            not_before=before,
            not_after=after,
            self_signed=self_signed,
            name_matches=matches,
            now=NOW,
        )
        == problems
    )


def _self_signed(name: str) -> tuple[bytes, bytes]:
    key = ec.generate_private_key(ec.SECP256R1())
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)])
    now = dt.datetime.now(dt.UTC)
    certificate = (
        x509.CertificateBuilder().subject_name(subject).issuer_name(subject)
        .public_key(key.public_key()).serial_number(x509.random_serial_number())
        .not_valid_before(now - DAY).not_valid_after(now + DAY)
        .add_extension(x509.SubjectAlternativeName([x509.DNSName(name)]), critical=False)
        .sign(key, hashes.SHA256())
    )  # fmt: skip
    key_pem = key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    return certificate.public_bytes(serialization.Encoding.PEM), key_pem


@pytest.mark.parametrize(
    ("names", "host", "problems"),
    [
        (("shop.test",), "shop.test", ()),
        (("*.shop.test",), "www.shop.test", ()),
        (("other.test",), "shop.test", (WRONG_NAME,)),
        (("127.0.0.1",), "127.0.0.1", ()),
        (("127.0.0.1",), "127.0.0.2", (WRONG_NAME,)),
    ],
)
def test_names_of_a_real_certificate(
    names: tuple[str, ...], host: str, problems: tuple[str, ...]
) -> None:
    import trustme

    leaf = trustme.CA().issue_cert(*names)
    certificate = x509.load_pem_x509_certificate(leaf.cert_chain_pems[0].bytes())
    assert problems_of(certificate, host, dt.datetime.now(dt.UTC)) == problems


def test_a_self_signed_certificate_is_seen() -> None:
    pem, _ = _self_signed("shop.test")
    certificate = x509.load_pem_x509_certificate(pem)
    assert problems_of(certificate, "shop.test", dt.datetime.now(dt.UTC)) == (SELF_SIGNED,)


def test_the_hosts_table_groups_origins_by_host() -> None:
    notes = HostNotes()
    notes.learn("shop.test", "redirect")
    notes.upgrade("shop.test")
    notes.upgrade("shop.test")
    notes.tls_problems("old.test", (EXPIRED,))
    rows = hosts_report(
        ["http://shop.test:80", "https://shop.test:443", "http://a.test:8080"], notes
    )
    assert rows == [
        {"host": "a.test:8080", "schemes": ["http"], "origins": ["http://a.test:8080"],
         "https_only": None, "upgraded": 0, "tls_problems": []},
        {"host": "old.test", "schemes": [], "origins": [], "https_only": None, "upgraded": 0,
         "tls_problems": ["expired"]},
        {"host": "shop.test", "schemes": ["http", "https"],
         "origins": ["http://shop.test:80", "https://shop.test:443"],
         "https_only": "redirect", "upgraded": 2, "tls_problems": []},
    ]  # fmt: skip
    assert (
        hosts_progress(3, notes)
        == "hosts: 3 (1 moved to https, 2 URLs upgraded, 1 with TLS problems)"
    )
    assert hosts_progress(3, HostNotes()) == ""


def test_host_notes_are_bounded() -> None:
    notes = HostNotes(max_hosts=1)
    notes.upgrade("a")
    notes.upgrade("b")
    notes.upgrade("a")
    assert dict(notes.upgraded) == {"a": 2}


@pytest.fixture
def tls_servers(tmp_path: Path) -> Iterator[Callable[[str, ssl.SSLContext], SiteServer]]:
    started: list[SiteServer] = []

    def factory(name: str, context: ssl.SSLContext) -> SiteServer:
        site = SiteServer(name, tls=context).start()
        site.html("/", f"<title>{name}</title><a href='/a'>a</a>")
        site.html("/a", f"<title>{name} a</title>")
        started.append(site)
        return site

    yield factory
    for site in started:
        site.stop()


@pytest.mark.slow
def test_sites_with_bad_certificates_are_crawled_and_counted(
    tls_servers: Callable[[str, ssl.SSLContext], SiteServer], tmp_path: Path
) -> None:
    now = dt.datetime.now(dt.UTC)
    expired = tls_servers(
        "expired", server_context("expired.test", not_before=now - 30 * DAY, not_after=now - DAY)
    )
    wrong = tls_servers("wrong", server_context("someone-else.test"))
    pem, key = _self_signed("selfsigned.test")
    (tmp_path / "cert.pem").write_bytes(pem)
    (tmp_path / "key.pem").write_bytes(key)
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(tmp_path / "cert.pem", tmp_path / "key.pem")
    selfsigned = tls_servers("selfsigned", context)
    good = tls_servers("good", server_context("good.test"))
    sites = {
        "expired.test": expired,
        "wrong.test": wrong,
        "selfsigned.test": selfsigned,
        "good.test": good,
    }
    result = run_crawl(
        tmp_path / "out",
        args={"start_urls": ",".join(f"https://{n}:{s.port}/" for n, s in sites.items())},
        settings={
            "WEBROBOT_RESOLVE": json.dumps(dict.fromkeys(sites, "127.0.0.1")),
            "WEBROBOT_REPORT_ENABLED": "True",
            "WEBROBOT_REPORT_DIR": str(tmp_path / "report"),
        },
    )
    assert result.returncode == 0, result.stderr
    for name, site in sites.items():
        assert sorted(site.targets()) == ["/", "/a", "/robots.txt"], name
    assert result.stat("webrobot/tls/expired") == 1
    assert result.stat("webrobot/tls/wrong_name") == 1
    assert result.stat("webrobot/tls/self_signed") == 1
    assert result.stat("webrobot/tls/not_yet_valid") == 0
    report = json.loads(next((tmp_path / "report").glob("*report.json")).read_text("utf-8"))
    problems = {row["host"].split(":")[0]: row["tls_problems"] for row in report["hosts"]}
    assert problems == {
        "expired.test": ["expired"], "wrong.test": ["wrong_name"], "selfsigned.test": ["self_signed"],
        "good.test": [],
    }  # fmt: skip
    html = next((tmp_path / "report").glob("*report.html")).read_text("utf-8")
    assert "<h2>Hosts</h2>" in html and "self_signed" in html


@pytest.mark.parametrize(
    ("stats", "line"),
    [
        ({}, ""),
        ({"webrobot/url/upgraded": 0}, ""),
        ({"webrobot/scope/redirect_seed": 1}, "1 host joined the scope by redirect"),
        (
            {"webrobot/scope/redirect_seed": 2, "webrobot/url/upgrade_learned/redirect": 1,
             "webrobot/url/upgrade_learned/hsts": 1, "webrobot/url/upgraded": 5,
             "webrobot/tls/wrong_name": 1, "webrobot/tls/expired": 2},
            ("2 hosts joined the scope by redirect, 2 learnt https-only, 5 URLs upgraded to https, "
            "TLS problems: expired 2, wrong_name 1"),
        ),
    ],
)  # fmt: skip
def test_the_front_door_summary_line(stats: dict[str, int], line: str) -> None:
    from webrobot.report.summary import front_door

    assert front_door(stats) == line
