"""docs/reference/events.md cannot drift from the code: every key of every event kind,
of ``changes`` entries and of each kind of ``evidence``; the webhook's method, headers,
body and the answers it takes as delivered, checked against a real POST to a local
receiver; the retry waits and defaults; the digest's lines."""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, ClassVar

import pytest

from tests.docs_reference import REFERENCE
from webrobot.monitor import events
from webrobot.monitor.digest import line
from webrobot.monitor.nearcopy import ProtectedText
from webrobot.monitor.outbox import DEAD_LETTERS
from webrobot.monitor.snapshot import Snapshot, changes
from webrobot.monitor.store import MonitorStore
from webrobot.monitor.watch import ProtectedImage, WatchRule, page_matches
from webrobot.monitor.webhook import WebhookSender, backoff
from webrobot.settingsmodel.model import BY_NAME

PAGE = (REFERENCE / "events.md").read_text("utf-8")
T = "2026-11-28T06:00:12Z"
TEXT = ("The lighthouse keeper climbed the spiral stairs every evening at dusk, carrying a can "
        "of oil and a rag to polish the great lens until it shone like a second moon.")  # fmt: skip


def sections() -> dict[str, list[list[str]]]:
    """Heading -> its table rows (cells as written)."""
    out: dict[str, list[list[str]]] = {}
    current = ""
    for text in PAGE.splitlines():
        if text.startswith("#"):
            current = text.lstrip("#").strip()
            out[current] = []
        elif text.startswith("|") and not re.match(r"^\|\s*-", text):
            out[current].append([c.strip() for c in text.strip("|").split("|")])
    for rows in out.values():
        del rows[:1]  # the header row
    return out


SECTIONS = sections()


def keys(heading: str) -> set[str]:
    """The code spans of the first column of a section's table."""
    return {k for row in SECTIONS[heading] for k in re.findall(r"`([^`]+)`", row[0])}


def value(heading: str, first: str) -> str:
    (row,) = [r for r in SECTIONS[heading] if r[0] == f"`{first}`"]
    return row[1]


def all_kinds() -> dict[str, dict[str, Any]]:
    old = Snapshot(("The museum opens at ten.",), {"price": "1299.00"})
    new = Snapshot(("The cafe closes in winter.",), {"price": "1249.00", "title": "Lantern"})
    rule = WatchRule.of("brand", terms=["Acme Widget"], texts=[ProtectedText.of("keeper.txt", TEXT)],
                        images=[ProtectedImage("logo.png", 0xF0F0F0F0F0F0F0F0)])  # fmt: skip
    item = {"main_text": f"I bought an Acme Widget.\n{TEXT}",
            "images": [{"url": "https://x.example/l.jpg", "phash": "f0f0f0f0f0f0f0f1"}]}  # fmt: skip
    matches = {m["kind"]: m for m in page_matches([rule], "https://x.example/", T, item)}
    return {
        "new": events.new("https://x.example/", T, "Title"),
        "changed": events.changed("https://x.example/", T, changes(old, new)),
        "removed": events.removed("https://x.example/", T, 410),
        "moved": events.moved("https://x.example/", T, "https://x.example/new", 301, True),
        **{f"match {kind}": m for kind, m in matches.items()},
        "template_changed": events.template_changed("https://x.example", T, ["B."], ["A."], 40),
    }


KINDS = all_kinds()


def test_every_event_kind_and_its_keys_are_documented() -> None:
    assert keys("Keys of every event") == {"event", "url", "time", "id"}
    assert {k.split()[0] for k in KINDS} == set(events.KINDS)
    for name, event in KINDS.items():
        kind = name.split()[0]
        assert set(event) == keys(f"`{kind}`"), kind
        assert event["event"] == kind
        assert re.fullmatch(r"[0-9a-f]{32}", event["id"])
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", event["time"])


def test_changes_entries_and_evidence_are_documented() -> None:
    entries = KINDS["changed"]["changes"]
    assert [e["field"] for e in entries] == ["price", "title", "main_text"]
    assert KINDS["changed"]["fields"] == ["price", "title", "main_text"]
    assert set().union(*entries) == keys("`changes` entries")
    assert entries[1]["old"] is None, "absent is null"
    for kind in ("term", "text", "image"):
        evidence = KINDS[f"match {kind}"]["evidence"]
        assert set(evidence) == keys(
            f"`evidence` of a{'n' if kind == 'image' else ''} `{kind}` match"
        )


def test_the_drift_check_can_fail() -> None:
    assert keys("`removed`") != set(KINDS["new"])


class Capture(BaseHTTPRequestHandler):
    seen: ClassVar[list[tuple[str, dict[str, str], bytes]]] = []
    status = 204

    def _any(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        Capture.seen.append((self.command, dict(self.headers.items()), body))
        self.send_response(Capture.status)
        if 300 <= Capture.status < 400:
            self.send_header("Location", "/elsewhere")
        self.send_header("Content-Length", "0")
        self.end_headers()

    do_POST = do_GET = _any

    def log_message(self, *args: Any) -> None:
        return


@pytest.fixture
def capture() -> Iterator[str]:
    Capture.seen = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), Capture)
    threading.Thread(
        target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
    ).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/hook"
    server.shutdown()
    server.server_close()


def send_one(folder: Path, url: str, wait: float = 3) -> tuple[dict[str, Any], int]:
    store = MonitorStore(folder, webhook=True)
    event = KINDS["changed"]
    store.record(event["url"], Snapshot(), (), T, [event])
    store.close()
    sender = WebhookSender(folder, url, user_agent="webrobot-test/1", ceiling=0.2)
    sender.start()
    return event, sender.close(wait)


#: Headers urllib adds to any request; the webhook's own are documented.
TRANSPORT = {"Host", "Content-Length", "Connection", "Accept-Encoding"}


def test_the_webhook_request_is_as_documented(tmp_path: Path, capture: str) -> None:
    event, left = send_one(tmp_path, capture)
    assert left == 0
    method, headers, body = Capture.seen[0]
    assert value("The webhook's request", "method").startswith(f"`{method}`")
    assert set(headers) - TRANSPORT == keys("Headers")
    assert value("Headers", "Content-Type") == f"`{headers['Content-Type']}`"
    assert headers["Idempotency-Key"] == event["id"]
    assert headers["User-Agent"] == "webrobot-test/1"
    assert json.loads(body) == event
    line_in_log = (tmp_path / "events.jsonl").read_text("utf-8").splitlines()[0]
    assert json.loads(line_in_log) == json.loads(body), "the body is the event's line"


def documented_answer(status: int) -> str:
    """What the page says webrobot does with ``status``: its own row, else its class's."""
    rows = {code: row[1] for row in SECTIONS["What the receiver answers"]
            for code in re.findall(r"`([^`]+)`", row[0])}  # fmt: skip
    return rows.get(str(status)) or rows[f"{str(status)[0]}xx"]


def test_the_4xx_tried_again_are_the_codes() -> None:
    from webrobot.monitor.answers import LATER

    rows = [re.findall(r"`(\d+)`", row[0]) for row in SECTIONS["What the receiver answers"]]
    assert {int(code) for codes in rows for code in codes if code.startswith("4")} == LATER


@pytest.mark.parametrize(
    "status", [200, 201, 204, 301, 302, 307, 400, 404, 408, 410, 422, 425, 429, 500, 503]
)
def test_what_each_answer_does_is_as_documented(tmp_path: Path, capture: str, status: int) -> None:
    Capture.status = status
    try:
        event, left = send_one(tmp_path, capture, wait=1.5)
    finally:
        Capture.status = 204
    says = documented_answer(status)
    dead = tmp_path / DEAD_LETTERS
    dead_ids = (
        [json.loads(x)["id"] for x in dead.read_text("utf-8").splitlines()] if dead.exists() else []
    )
    assert [m for m, _, _ in Capture.seen] == ["POST"] * len(Capture.seen), "no redirect followed"
    if says.startswith("the event is delivered"):
        assert (left, len(Capture.seen), dead_ids) == (0, 1, []), says
    elif says.startswith("refused for good"):
        assert (left, len(Capture.seen), dead_ids) == (0, 1, [event["id"]]), says
        assert "dead-letters.jsonl" in says and DEAD_LETTERS == "dead-letters.jsonl"
    else:
        assert says.startswith("a failure"), says
        assert (left, dead_ids) == (1, []), says
        assert len(Capture.seen) >= 2, "a failure is tried again"


def test_retry_waits_and_defaults_are_the_codes() -> None:
    assert [backoff(n, 300) for n in (1, 2, 3, 4)] == [1, 2, 4, 8]
    assert "after 1 s, then 2, 4, 8 ... seconds" in PAGE
    for name in ("WEBROBOT_MONITOR_WEBHOOK_BACKOFF_MAX", "WEBROBOT_MONITOR_WEBHOOK_CLOSE_WAIT",
                 "WEBROBOT_MONITOR_WEBHOOK_TIMEOUT"):  # fmt: skip
        default = BY_NAME[name].default
        assert re.search(rf"`{name}`(\s+seconds)?\s+\({default:g}\)", PAGE), name


def test_the_digest_lines_are_as_documented() -> None:
    documented = [row[0].strip("`") for row in SECTIONS["Digests by e-mail and chat"]]
    made = [
        line(events.new("URL", T, "title")),
        line(
            events.changed(
                "URL",
                T,
                [
                    {"field": "price", "old": "1299.00", "new": "1249.00"},
                    {"field": "main_text", "added": ["x"], "removed": []},
                ],
            )
        ),
        line(events.removed("URL", T, 404)),
        line(events.moved("URL", T, "TO", 301, True)),
        line({"event": "match", "url": "URL", "rule": "NAME", "kind": "KIND", "score": "S"}),
    ]
    assert made == documented
