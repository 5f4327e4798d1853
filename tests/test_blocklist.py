from __future__ import annotations

from pathlib import Path

import pytest

from webrobot.sites.config import ConfigError
from webrobot.urls.blocklist import Blocklist, BlocklistError

FILE = """\
# Sites and URLs webrobot must never request
spam.example          # the whole domain
*.ads.example
https://127.0.0.1:8443   # one site only
http://Bücher.example
re:/calendar/\\d{4}/
re:[?&]sessionid=

   # an indented comment
"""


def test_file_entries_and_matching(tmp_path: Path) -> None:
    path = tmp_path / "blocklist.txt"
    path.write_text(FILE, "utf-8")
    blocklist = Blocklist.from_file(path)
    assert len(blocklist) == 6
    assert blocklist.match("http://spam.example/") == "domain spam.example"
    assert blocklist.match("https://www.spam.example:81/x") == "domain spam.example"
    assert blocklist.match("http://x.ads.example/") == "domain ads.example"
    assert blocklist.match("http://notspam.example/") is None
    assert blocklist.match("http://example/") is None
    assert blocklist.match("https://127.0.0.1:8443/a") == "site https://127.0.0.1:8443"
    assert blocklist.match("http://127.0.0.1:8443/a") is None, "another scheme is another site"
    assert blocklist.match("https://127.0.0.1/a") is None
    assert (
        blocklist.match("http://xn--bcher-kva.example/") == "site http://xn--bcher-kva.example:80"
    )
    assert blocklist.match("http://a/calendar/2024/01") == "pattern /calendar/\\d{4}/"
    assert blocklist.match("http://a/p?a=1&sessionid=2") == "pattern [?&]sessionid="
    assert blocklist.match("http://a/calendar/") is None


def test_ip_hosts_match_exactly() -> None:
    blocklist = Blocklist.from_entries(["0.1", "10.0.0.1"])
    assert blocklist.match("http://10.0.0.1/") == "domain 10.0.0.1"
    assert blocklist.match("http://127.0.0.1/") is None, "no parent-domain walk on IP addresses"


def test_setting_forms(tmp_path: Path) -> None:
    assert (
        not Blocklist.from_setting(None)
        and not Blocklist.from_setting("")
        and not Blocklist.from_setting([])
    )
    assert Blocklist.from_setting(["spam.example"]).match("http://spam.example/")
    assert Blocklist.from_setting('["spam.example", "re:x"]').match("http://a/x")
    path = tmp_path / "list.txt"
    path.write_text("spam.example\n", "utf-8")
    assert Blocklist.from_setting(str(path)).match("http://spam.example/")


@pytest.mark.parametrize(
    ("line", "fragment"),
    [
        ("not a domain", "expected a domain name (example.com), a site without a path"),
        ("http://example.com/private/", "to block part of a site use re:"),
        ("ftp://example.com", "expected a domain name"),
        ("http://example.com:99999", "Port out of range"),
        ("http://user@example.com", "expected a domain name"),
        ("re:(", "expected a valid regular expression, '(' fails"),
        ("re:", "expected a regular expression after 're:'"),
        ("-bad-.example", "expected a domain name"),
    ],
)
def test_bad_line_names_file_line_and_expectation(tmp_path: Path, line: str, fragment: str) -> None:
    path = tmp_path / "blocklist.txt"
    path.write_text(f"# header\nok.example\n{line}\n", "utf-8")
    with pytest.raises(BlocklistError) as info:
        Blocklist.from_file(path)
    message = str(info.value)
    assert message.startswith(f"{path}: line 3: ")
    assert fragment in message
    assert isinstance(info.value, ConfigError), "callers that report config errors catch it too"


def test_bad_list_entry_names_the_setting_and_entry() -> None:
    with pytest.raises(
        BlocklistError, match=r"^WEBROBOT_BLOCKLIST: entry 2: expected a domain name"
    ):
        Blocklist.from_setting(["ok.example", "a b"])
    with pytest.raises(BlocklistError, match=r"^WEBROBOT_BLOCKLIST: entry 1: expected a string"):
        Blocklist.from_setting([3])
    with pytest.raises(BlocklistError, match=r"^WEBROBOT_BLOCKLIST: expected a JSON list"):
        Blocklist.from_setting("[spam")
    with pytest.raises(BlocklistError, match=r"expected a list of entries or a file path"):
        Blocklist.from_setting(42)


def test_unreadable_or_binary_file(tmp_path: Path) -> None:
    missing = tmp_path / "missing.txt"
    with pytest.raises(
        BlocklistError, match=r"missing.txt: the WEBROBOT_BLOCKLIST file cannot be read"
    ):
        Blocklist.from_setting(str(missing))
    binary = tmp_path / "binary.txt"
    binary.write_bytes(b"spam.example\n\xff\xfe\n")
    with pytest.raises(BlocklistError, match=r"binary.txt: expected UTF-8 text"):
        Blocklist.from_file(binary)


def test_the_manual_example_file_blocks_what_it_says(tmp_path: Path) -> None:
    """The manual's blocklist.txt, copied verbatim: its commented re: line must work."""
    manual = (Path(__file__).parent.parent / "docs" / "traps.md").read_text("utf-8")
    example = manual.split("# blocklist.txt\n", 1)[1].split("```", 1)[0]
    path = tmp_path / "blocklist.txt"
    path.write_text(example, "utf-8")
    blocklist = Blocklist.from_file(path)
    assert blocklist.match("http://shop.example/calendar/2024/05/") is not None
    assert blocklist.match("http://shop.example/calendar/") is None
    assert blocklist.match("http://x.ads.example/") == "domain ads.example"


@pytest.mark.parametrize(
    ("entry", "url", "blocked"),
    [
        ("re:/private/   # staff only", "http://a/private/x", True),
        ("re:/private/\t# staff only", "http://a/private/x", True),
        ("re:/private/ #", "http://a/private/x", True),
        ("re:[^ #]+/secret", "http://a/x/secret", True),  # no space before '#': part of the pattern
        ("re:a#b", "http://a/a#b", True),
    ],
)
def test_a_pattern_may_end_with_a_comment(entry: str, url: str, blocked: bool) -> None:
    assert (Blocklist.from_entries([entry]).match(url) is not None) is blocked


def test_a_file_saved_with_a_byte_order_mark(tmp_path: Path) -> None:
    path = tmp_path / "blocklist.txt"
    path.write_bytes("re:/calendar/\nspam.example\n".encode("utf-8-sig"))
    blocklist = Blocklist.from_file(path)
    assert blocklist.match("http://a/calendar/1") == "pattern /calendar/"
