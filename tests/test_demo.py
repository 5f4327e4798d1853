from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from parsel import Selector

from tests.crawling import PROJECT_ROOT

pytestmark = pytest.mark.slow


def test_demo_crawl_command_end_to_end(tmp_path: Path) -> None:
    out = tmp_path / "demo"
    done = subprocess.run(
        [sys.executable, "-m", "webrobot.demo", "crawl", "--port-base", "0", "--out", str(out)],
        cwd=PROJECT_ROOT, env={**os.environ, "PYTHONPATH": str(PROJECT_ROOT)},
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert "webrobot demo crawl summary" in done.stdout
    assert "finish reason : finished" in done.stdout
    # The summary's failures are the report's (the demo web has a broken link, a 404).
    report = json.loads((out / "items.report.json").read_text("utf-8"))
    failed = next(line for line in done.stdout.splitlines() if "failed        :" in line)
    assert f": {report['totals']['failed']} requests (" in failed and "as in the report" in failed
    assert report["totals"]["failed"] > 0, "the demo web's broken link is a failure"
    assert (out / "items.jsonl").stat().st_size > 0
    assert (out / "stats.json").exists() and (out / "crawl.log").exists()
    door = next(line for line in done.stdout.splitlines() if "front door" in line)
    assert "joined the scope by redirect" in door and "URLs upgraded to https" in door, door
    assert "wrong_name 1" in door, "the certificate is for www. only"
    pages = {
        json.loads(line)["url"] for line in (out / "items.jsonl").read_text("utf-8").splitlines()
    }
    www = {u.split("/", 3)[3] for u in pages if u.startswith("https://www.frontdoor.test:")}
    assert www == {"", "about.html", "products.html", "contact.html"}, pages
    for line in done.stdout.splitlines():
        if line.strip().startswith("requests each demo site saw:"):
            counts = dict(part.split() for part in line.split(":", 1)[1].split(","))
            assert int(counts["shop"]) > 20
            # The front door: http://frontdoor.test/ lives on https://www.frontdoor.test/.
            assert int(counts["www"]) >= 5 and int(counts["frontdoor"]) >= 1
            break
    else:
        pytest.fail("no per-site request counts in the summary")


def test_demo_report_templates_table_reads_at_a_glance(tmp_path: Path) -> None:
    """The demo crawl's many one-page URLs are summed in a note, not listed as rows."""
    out = tmp_path / "demo"
    done = subprocess.run(
        [sys.executable, "-m", "webrobot.demo", "crawl", "--port-base", "0", "--out", str(out)],
        cwd=PROJECT_ROOT, env={**os.environ, "PYTHONPATH": str(PROJECT_ROOT)},
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    report = json.loads((out / "items.report.json").read_text("utf-8"))
    templates = report["templates"]
    mattering = [t for t in templates if t["pages"] > 1 or t["refused"]]
    singles = report["templates_single_urls"]
    assert singles == len(templates) - len(mattering) > 20, "the demo has many one-page URLs"
    html = Selector(text=(out / "items.report.html").read_text("utf-8"))
    card = next(c for c in html.css("section.card") if c.css("h2::text").get() == "URL templates")
    shown = [(r.css("td::text").getall()) for r in card.css("tbody tr")]
    assert [row[0] for row in shown] == [t["template"] for t in mattering]
    assert all(int(row[1]) > 1 or row[3] != "–" for row in shown)
    assert 1 <= len(shown) <= 5
    assert f"{singles} single URLs (one page each, nothing refused) are left out" in card.get()


def test_demo_ports_in_use_give_one_clear_line(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run(
            [sys.executable, "-m", "webrobot.demo", "crawl", "--port-base", str(port),
             "--out", str(tmp_path / "demo")],
            cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(PROJECT_ROOT)},
            capture_output=True, text=True, timeout=60, check=False,
        )  # fmt: skip
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and f"127.0.0.1:{port}-" in lines[0] and "--port-base" in lines[0]
