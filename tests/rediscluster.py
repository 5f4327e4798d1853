"""A throwaway Redis Cluster for tests and benchmarks: ``2 * masters`` real
``redis-server --cluster-enabled yes`` processes on free loopback ports, joined
with ``redis-cli --cluster create ... --cluster-replicas 1``; always stopped.

A short ``cluster-node-timeout`` lets a replica take over a killed master in
about a second; the cluster counts as started once every replica is in sync
(a replica that never synced does not take over), and
``cluster-replica-validity-factor 0`` lets a replica take over however long
a loaded machine kept it from its master.
"""

from __future__ import annotations

import random
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path
from typing import Self

import redis
from redis.cluster import RedisCluster


def cluster_port() -> int:
    """A free port whose cluster bus port (+10000) is free too: Redis needs both,
    so the port must be at most 55535."""
    for _ in range(200):
        port = random.randint(20000, 45000)
        try:
            for candidate in (port, port + 10000):
                with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
                    sock.bind(("127.0.0.1", candidate))
        except OSError:
            continue
        return port
    raise RuntimeError("no free port pair for a cluster node")


class RedisClusterNodes:
    def __init__(self, workdir: Path, masters: int = 3, *, node_timeout_ms: int = 1000) -> None:
        self.workdir = Path(workdir)
        self.masters = masters
        self.node_timeout_ms = node_timeout_ms
        self.ports: list[int] = []
        self.processes: dict[int, subprocess.Popen[bytes]] = {}

    @property
    def url(self) -> str:
        """Any node names the cluster: the first one."""
        return f"redis://127.0.0.1:{self.ports[0]}/0"

    def live_url(self) -> str:
        """A node that is still running."""
        port = next(p for p, process in self.processes.items() if process.poll() is None)
        return f"redis://127.0.0.1:{port}/0"

    def client(self) -> RedisCluster:
        return RedisCluster.from_url(self.live_url())

    def start(self, timeout: float = 30.0) -> Self:
        try:
            return self._start(timeout)
        except BaseException:
            self.stop()
            raise

    def _start(self, timeout: float) -> Self:
        binary, cli = shutil.which("redis-server"), shutil.which("redis-cli")
        if binary is None or cli is None:
            raise RuntimeError(
                "redis-server/redis-cli not found: apt-get install redis-server redis-tools"
            )
        self.workdir.mkdir(parents=True, exist_ok=True)
        for _ in range(2 * self.masters):
            port = cluster_port()
            node_dir = self.workdir / str(port)
            node_dir.mkdir()
            self.processes[port] = subprocess.Popen(
                [binary, "--bind", "127.0.0.1", "--port", str(port), "--dir", str(node_dir),
                 "--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
                 "--cluster-node-timeout", str(self.node_timeout_ms), "--save", "",
                 "--cluster-replica-validity-factor", "0",
                 "--appendonly", "no", "--logfile", str(node_dir / "redis.log"), "--daemonize", "no"],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            )  # fmt: skip
            self.ports.append(port)
        deadline = time.monotonic() + timeout
        for port in self.ports:
            self._wait(lambda p=port: self._ping(p), deadline, f"node {port} to start")
        nodes = [f"127.0.0.1:{port}" for port in self.ports]
        created = subprocess.run(
            [cli, "--cluster", "create", *nodes, "--cluster-replicas", "1", "--cluster-yes"],
            capture_output=True, text=True, timeout=timeout, check=False,
        )  # fmt: skip
        if created.returncode != 0:
            raise RuntimeError(
                f"redis-cli --cluster create failed: {created.stdout[-1000:]}{created.stderr[-1000:]}"
            )
        self._wait(self._ready, deadline, "the cluster to cover every slot")
        return self

    @staticmethod
    def _ping(port: int) -> bool:
        client = redis.Redis(host="127.0.0.1", port=port)
        try:
            return bool(client.ping())
        finally:
            client.close()

    def _ready(self) -> bool:
        for port in self.ports:
            client = redis.Redis(host="127.0.0.1", port=port)
            try:
                info = client.cluster("info")
            finally:
                client.close()
            if info.get("cluster_state") != "ok" or int(info.get("cluster_slots_ok", 0)) != 16384:
                return False
        # Every replica in sync with its master: one that is not cannot take over.
        replicas = 0
        for port in self.ports:
            client = redis.Redis(host="127.0.0.1", port=port)
            try:
                replication = client.info("replication")
            finally:
                client.close()
            if replication["role"] == "slave":
                if replication.get("master_link_status") != "up":
                    return False
                replicas += 1
        return replicas == self.masters

    @staticmethod
    def _wait(condition: object, deadline: float, what: str) -> None:
        while True:
            try:
                if condition():  # type: ignore[operator]
                    return
            except redis.RedisError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"timed out waiting for {what}")
            time.sleep(0.05)

    def master_ports(self) -> list[int]:
        """Ports of the nodes that are masters now (replicas may have taken over)."""
        masters = []
        for port, process in self.processes.items():
            if process.poll() is not None:
                continue
            client = redis.Redis(host="127.0.0.1", port=port)
            try:
                if client.info("replication")["role"] == "master":
                    masters.append(port)
            except redis.RedisError:
                continue
            finally:
                client.close()
        return masters

    def master_of(self, key: str) -> int:
        """Port of the master that serves ``key``'s slot now."""
        client = self.client()
        try:
            return int(client.get_node_from_key(key).port)
        finally:
            client.close()

    def kill(self, port: int) -> None:
        """SIGKILL one node (its replica takes over after the node timeout)."""
        process = self.processes[port]
        process.send_signal(signal.SIGKILL)
        process.wait()

    def log(self, port: int) -> str:
        return (self.workdir / str(port) / "redis.log").read_text(errors="replace")

    def stop(self) -> None:
        for process in self.processes.values():
            if process.poll() is None:
                process.terminate()
        for process in self.processes.values():
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
