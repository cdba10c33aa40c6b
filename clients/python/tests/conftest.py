"""A real Parley for the whole session: started from the repository, stopped at the end.

Each test makes its own project (and key) through the admin API, so tests share nothing but the
server. ``mode`` runs a test once with :class:`parley.Parley` and once with
:class:`parley.AsyncParley`.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Coroutine, Iterator, Union

import httpx
import pytest

import parley

REPO_ROOT = Path(__file__).resolve().parents[3]
ADMIN_TOKEN = "python-client-admin-token"
START_TIMEOUT_SECONDS = 120


@dataclass(frozen=True)
class Server:
    base_url: str
    admin_token: str


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@pytest.fixture(scope="session")
def server() -> Iterator[Server]:
    """Set PARLEY_TEST_BASE_URL (and PARLEY_TEST_ADMIN_TOKEN) to use a server already running,
    started with WEBHOOK_ALLOW_PRIVATE=true."""
    if os.environ.get("PARLEY_TEST_BASE_URL"):
        yield Server(os.environ["PARLEY_TEST_BASE_URL"], os.environ["PARLEY_TEST_ADMIN_TOKEN"])
        return
    data_dir = tempfile.mkdtemp(prefix="parley-python-client-")
    port = int(os.environ.get("PARLEY_TEST_PORT") or _free_port())
    env = {
        **os.environ,
        "HOST": "127.0.0.1",
        "PORT": str(port),
        "DATA_DIR": data_dir,
        "ADMIN_TOKEN": ADMIN_TOKEN,
        "BOOTSTRAP_API_KEY": "python-client-bootstrap-key",
        "EMBEDDINGS": "none",
        # Deliveries go to a receiver on this machine.
        "WEBHOOK_ALLOW_PRIVATE": "true",
        "LOG_LEVEL": "warn",
    }
    for name in ("DATABASE_URL", "READ_DATABASE_URL", "REDIS_URL"):
        env.pop(name, None)
    log = open(Path(data_dir) / "server.log", "wb")
    process = subprocess.Popen(
        ["npx", "--no-install", "tsx", "src/server.ts"],
        cwd=REPO_ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,  # its own process group: npx, tsx and node stop together
    )
    base_url = f"http://127.0.0.1:{port}"
    try:
        _wait_until_ready(base_url, process, Path(data_dir) / "server.log")
        yield Server(base_url, ADMIN_TOKEN)
    finally:
        _stop_group(process)
        log.close()
        shutil.rmtree(data_dir, ignore_errors=True)


def _stop_group(process: "subprocess.Popen[bytes]") -> None:
    """SIGTERM to npx, tsx and node; waits up to 30 s for all of them to exit, then SIGKILL."""
    os.killpg(process.pid, signal.SIGTERM)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            process.wait(timeout=0.1)
            os.killpg(process.pid, 0)  # exited processes of the group that are not yet reaped count too
        except subprocess.TimeoutExpired:
            continue
        except ProcessLookupError:
            return
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    process.wait()


def _wait_until_ready(base_url: str, process: "subprocess.Popen[bytes]", log: Path) -> None:
    """Polls /readyz: a starting server gives no other signal."""
    deadline = time.monotonic() + START_TIMEOUT_SECONDS
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"Parley exited with {process.returncode}:\n{log.read_text()}")
        try:
            if httpx.get(f"{base_url}/readyz", timeout=2).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.2)
    raise RuntimeError(f"Parley did not answer /readyz within {START_TIMEOUT_SECONDS} s:\n{log.read_text()}")


@dataclass(frozen=True)
class Project:
    id: str
    api_key: str


@pytest.fixture()
def admin(server: Server) -> Iterator[parley.Parley]:
    with parley.Parley(server.base_url, admin_token=server.admin_token) as client:
        yield client


@pytest.fixture()
def project(admin: parley.Parley) -> Project:
    """A project of the test's own."""
    created = admin.admin.create_project(name=f"python-{uuid.uuid4().hex[:8]}")
    return Project(created["project"]["id"], created["apiKey"])


Client = Union[parley.Parley, parley.AsyncParley]
MakeClient = Callable[..., Client]


@pytest.fixture(params=["sync", "async"])
def mode(request: pytest.FixtureRequest) -> str:
    mode: str = request.param
    return mode


@pytest.fixture()
def make_client(mode: str, server: Server, project: Project) -> MakeClient:
    """A client of the test's mode; keyword arguments override the server, key and settings."""

    def make(**options: Any) -> Client:
        settings = {"base_url": server.base_url, "api_key": project.api_key, **options}
        return parley.Parley(**settings) if mode == "sync" else parley.AsyncParley(**settings)

    return make


def run(scenario: Callable[[], Coroutine[Any, Any, None]]) -> None:
    """Runs a scenario written once for both clients (see ``both.py``)."""
    asyncio.run(scenario())


