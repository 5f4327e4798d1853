"""Open a local HTML file in headless Chromium (Debian's ``chromium``), as the
report tests do: a screenshot, the DOM after scripts ran, every console message,
and every network request the page made.

Requests are caught by pointing Chromium's proxy at a local listener that only
records what it is asked for (loopback included, so nothing can slip past).
Chromium's own background calls to Google services are left out; a page's
references in markup and CSS are checked statically by the tests as well.
"""

from __future__ import annotations

import contextlib
import shutil
import socket
import subprocess
import tempfile
import threading
from dataclasses import dataclass, field
from pathlib import Path

#: Chromium as the brief runs it: root, no sandbox, nothing phoning home that can be switched off
CHROMIUM_FLAGS = (
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--disable-extensions", "--hide-scrollbars", "--enable-logging=stderr", "--v=0",
)  # fmt: skip
#: hosts Chromium itself calls (updates, time, accounts), never a page
BROWSER_SERVICE_SUFFIXES = (".google.com", ".googleapis.com", ".gvt1.com")


def chromium_binary() -> str:
    binary = shutil.which("chromium") or shutil.which("chromium-browser")
    if binary is None:
        raise RuntimeError(
            "chromium is not installed: `make test` installs it (Debian package chromium)"
        )
    return binary


class RecordingProxy:
    """Accepts connections on 127.0.0.1 and records each request line."""

    def __init__(self) -> None:
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.lines: list[str] = []
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            with conn:
                conn.settimeout(2)
                try:
                    head = conn.recv(4096).split(b"\r\n", 1)[0]
                except OSError:
                    head = b"(no request line)"
                if head:  # a connection closed unused (Chromium's preconnect) asked for nothing
                    self.lines.append(head.decode("latin-1"))

    def close(self) -> None:
        with contextlib.suppress(OSError):  # wakes the thread's accept(), which close() would not
            self.sock.shutdown(socket.SHUT_RDWR)
        self.sock.close()
        self._thread.join(timeout=5)

    def page_requests(self) -> list[str]:
        out = []
        for line in self.lines:
            parts = line.split()
            target = parts[1] if len(parts) > 1 else line
            host = target.split("://", 1)[-1].split("/", 1)[0].split(":", 1)[0].lower()
            if not host.endswith(BROWSER_SERVICE_SUFFIXES):
                out.append(line)
        return out


@dataclass
class Rendered:
    dom: str
    console: list[str]
    requests: list[str]
    screenshot: Path
    stderr: str = field(repr=False, default="")


def render(page: Path, screenshot: Path, width: int = 1400, height: int = 1000,
           timeout: float = 90) -> Rendered:  # fmt: skip
    """Load ``page`` once: screenshot to ``screenshot``, DOM, console, requests."""
    proxy = RecordingProxy()
    profile = tempfile.mkdtemp(prefix="chromium-profile-")
    try:
        done = subprocess.run(
            [
                chromium_binary(), *CHROMIUM_FLAGS, f"--user-data-dir={profile}",
                f"--proxy-server=http://127.0.0.1:{proxy.port}", "--proxy-bypass-list=<-loopback>",
                f"--window-size={width},{height}", f"--screenshot={screenshot}", "--dump-dom",
                page.resolve().as_uri(),
            ],
            capture_output=True, text=True, timeout=timeout, check=False,
        )  # fmt: skip
    finally:
        proxy.close()
        shutil.rmtree(profile, ignore_errors=True)
    console = [line for line in done.stderr.splitlines() if ":CONSOLE" in line]
    return Rendered(done.stdout, console, proxy.page_requests(), screenshot, done.stderr)


def render_url(url: str, screenshot: Path, width: int = 1200, height: int = 900,
               timeout: float = 90) -> Rendered:  # fmt: skip
    """Load ``url`` (a page served on loopback, reached directly) once. Every
    other request the page makes goes to the recording proxy and is returned."""
    proxy = RecordingProxy()
    profile = tempfile.mkdtemp(prefix="chromium-profile-")
    try:
        done = subprocess.run(
            [
                chromium_binary(), *CHROMIUM_FLAGS, f"--user-data-dir={profile}",
                f"--proxy-server=http://127.0.0.1:{proxy.port}",
                f"--window-size={width},{height}", f"--screenshot={screenshot}", "--dump-dom", url,
            ],
            capture_output=True, text=True, timeout=timeout, check=False,
        )  # fmt: skip
    finally:
        proxy.close()
        shutil.rmtree(profile, ignore_errors=True)
    console = [line for line in done.stderr.splitlines() if ":CONSOLE" in line]
    return Rendered(done.stdout, console, proxy.page_requests(), screenshot, done.stderr)
