"""Replay archived pages in a real player: pywb (Webrecorder's wayback machine,
run in proxy mode on a loopback port) and headless Chromium using it as its
proxy, so the page is asked for by its own URL and every request it makes goes
to the archive, never to the live servers.

pywb pins versions of redis and other packages that webrobot's own
dependencies do not fit, so it lives in its own virtual environment,
``.venv-replay`` (``make replay-venv`` builds it from PyPI; the variable
``WEBROBOT_REPLAY_VENV`` names another). The ``wacz`` package is there too.

A request pywb could not answer from the archive is a line of its access log
with the absolute URL (proxy mode) and a status of 400 or more.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from tests.browser import BROWSER_SERVICE_SUFFIXES, CHROMIUM_FLAGS

PROJECT_ROOT = Path(__file__).resolve().parent.parent
_ACCESS = re.compile(r'"(GET|HEAD) (https?://\S+) HTTP/[\d.]+" (\d{3}) ')
#: pywb's own scripts and banner in proxy mode
PYWB_HOST = "pywb.proxy"


def replay_venv() -> Path | None:
    folder = Path(os.environ.get("WEBROBOT_REPLAY_VENV") or PROJECT_ROOT / ".venv-replay")
    return folder if (folder / "bin" / "wayback").exists() else None


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _browser_service(url: str) -> bool:
    """Chromium's own calls (time, updates), never a page's."""
    host = url.split("://", 1)[-1].split("/", 1)[0].split(":", 1)[0].lower()
    return host.endswith(BROWSER_SERVICE_SUFFIXES)


@dataclass
class Visit:
    url: str
    dom: str
    #: (url, status) of every request the page made through pywb
    requests: list[tuple[str, int]]

    #: the URLs the collection's index holds (an archived 404 is an answer, not a miss)
    archived: frozenset[str] = frozenset()

    @property
    def misses(self) -> list[str]:
        """URLs the page asked for that pywb could not answer from the archive."""
        return sorted(
            {u for u, status in self.requests if status >= 400 and u not in self.archived}
        )


class Pywb:
    """A pywb collection made with ``wb-manager init`` / ``add``, served by ``wayback --proxy``."""

    def __init__(self, venv: Path, folder: Path, archives: list[Path], coll: str = "crawl") -> None:
        self.bin = venv / "bin"
        self.folder = folder
        self.coll = coll
        folder.mkdir(parents=True, exist_ok=True)
        self._run("wb-manager", "init", coll)
        unpack = ["--unpack-wacz"] if any(a.suffix == ".wacz" for a in archives) else []
        self._run("wb-manager", "add", *unpack, coll, *map(str, archives))
        self.archived = frozenset(self._indexed_urls())
        self.log_path = folder / "wayback.log"
        self._log = self.log_path.open("wb")
        for attempt in range(3):  # another process (a test beside this one) may take the port
            self.port = free_port()
            self.process = subprocess.Popen(
                [str(self.bin / "wayback"), "--proxy", coll, "-b", "127.0.0.1", "-p", str(self.port)],
                cwd=folder, stdout=self._log, stderr=subprocess.STDOUT,
            )  # fmt: skip
            if self._started(last=attempt == 2):
                break

    def _started(self, last: bool) -> bool:
        """Whether pywb listens (polled with a deadline); False when it exited because
        its port was taken (and ``last`` is False)."""
        deadline = time.monotonic() + 60
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return True
            except OSError:
                log = self.log_path.read_text(errors="replace")
                exited = self.process.poll() is not None
                if exited and not last and "Address already in use" in log:
                    return False
                if exited or time.monotonic() > deadline:
                    raise RuntimeError("pywb did not start: " + log[-2000:]) from None
                time.sleep(0.1)

    def _indexed_urls(self) -> set[str]:
        urls = set()
        for path in (self.folder / "collections" / self.coll).rglob("*.cdxj"):
            for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
                parts = line.split(" ", 2)
                if len(parts) == 3:
                    try:
                        urls.add(json.loads(parts[2])["url"])
                    except (ValueError, KeyError):
                        continue
        return urls

    def _run(self, *command: str) -> None:
        done = subprocess.run(
            [str(self.bin / command[0]), *command[1:]], cwd=self.folder,
            capture_output=True, text=True, timeout=300, check=False,
        )  # fmt: skip
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(command)} failed: {done.stderr[-2000:]}")

    def visit(self, url: str, budget_ms: int = 4000) -> Visit:
        """Open ``url`` in headless Chromium through pywb; the requests it made."""
        before = self.log_path.stat().st_size
        chromium = shutil.which("chromium") or "chromium"
        done = subprocess.run(
            [chromium, *CHROMIUM_FLAGS, f"--proxy-server=http://127.0.0.1:{self.port}",
             "--proxy-bypass-list=<-loopback>", f"--virtual-time-budget={budget_ms}",
             "--dump-dom", url],
            capture_output=True, text=True, timeout=120, check=False,
        )  # fmt: skip
        deadline = time.monotonic() + 10
        while True:  # the page's own access line is written once its answer is sent
            with self.log_path.open("rb") as log:
                log.seek(before)
                lines = log.read().decode("utf-8", "replace")
            if f" {url} HTTP/" in lines or time.monotonic() > deadline:
                break
            time.sleep(0.05)
        requests = [
            (m.group(2), int(m.group(3)))
            for m in _ACCESS.finditer(lines)
            if f"//{PYWB_HOST}/" not in m.group(2) and not _browser_service(m.group(2))
        ]
        return Visit(url, done.stdout, requests, self.archived)

    def close(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self._log.close()
