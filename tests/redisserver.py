"""A throwaway ``redis-server`` for tests and benchmarks: 127.0.0.1, a free
ephemeral port, its own temporary directory, no persistence; always stopped.

Debian's ``redis-server`` package provides the binary (``make test`` installs
it when missing: ``SYSTEM_DEPS`` in the Makefile).
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from pathlib import Path
from typing import Self

import redis


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        return int(sock.getsockname()[1])


class RedisServer:
    def __init__(self, workdir: Path, host: str = "127.0.0.1", *, persistent: bool = False,
                 options: tuple[str, ...] = ()) -> None:  # fmt: skip
        """``persistent``: an append-only file written at every command, so that
        a server stopped and started again (:meth:`start` with ``port``) has
        everything it had. ``options``: more ``redis-server`` arguments
        (``("--maxmemory", "2mb")``)."""
        self.persistent = persistent
        self.options = options
        self.workdir = Path(workdir)
        self.host = host
        self.port = 0
        self.process: subprocess.Popen[bytes] | None = None
        self._clients: list[redis.Redis] = []

    @property
    def url(self) -> str:
        return f"redis://{self.host}:{self.port}/0"

    def client(self) -> redis.Redis:
        """A client for the server, closed when the server stops."""
        client = redis.Redis(host=self.host, port=self.port, db=0)
        self._clients.append(client)
        return client

    def start(self, attempts: int = 3, timeout: float = 10.0, port: int = 0) -> Self:
        binary = shutil.which("redis-server")
        if binary is None:
            raise RuntimeError(
                "redis-server not found: `make test` installs Debian's redis-server package "
                "(or run: apt-get install redis-server)"
            )
        self.workdir.mkdir(parents=True, exist_ok=True)
        last_error = ""
        persistence = (
            ["--appendonly", "yes", "--appendfsync", "always"]
            if self.persistent
            else ["--appendonly", "no"]
        )
        for _ in range(attempts):  # another process may take the free port first
            self.port = port or free_port(self.host)
            log = self.workdir / f"redis-{self.port}.log"
            self.process = subprocess.Popen(
                [binary, "--bind", self.host, "--port", str(self.port),
                 "--dir", str(self.workdir), "--save", "", *persistence,
                 "--logfile", str(log), "--daemonize", "no", *self.options],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            )  # fmt: skip
            deadline = time.monotonic() + timeout
            while time.monotonic() < deadline and self.process.poll() is None:
                probe = redis.Redis(host=self.host, port=self.port, db=0)
                try:
                    if probe.ping():
                        return self
                except redis.ConnectionError:
                    time.sleep(0.02)
                finally:
                    probe.close()
            last_error = log.read_text(errors="replace")[-500:] if log.exists() else ""
            self.stop()
        raise RuntimeError(f"redis-server did not start: {last_error}")

    def stop(self) -> None:
        for client in self._clients:
            client.close()
        self._clients.clear()
        if self.process is None:
            return
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def command_calls(client: redis.Redis) -> dict[str, int]:
    """Commands Redis ran since its last ``CONFIG RESETSTAT``, by name (``INFO
    commandstats``; a script's own commands count, and so does its ``EVALSHA``)."""
    calls = {k.removeprefix("cmdstat_"): v["calls"] for k, v in client.info("commandstats").items()}
    calls.pop("config|resetstat", None)
    return calls
