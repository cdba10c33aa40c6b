"""The Python examples of the READMEs run as written, against the test server."""

from __future__ import annotations

import asyncio
import re
import textwrap
from pathlib import Path
from typing import Any, Dict, List

import pytest

import parley
from conftest import REPO_ROOT, Project, Server

CLIENT_README = Path(__file__).resolve().parents[1] / "README.md"


def _python_blocks(readme: Path) -> List[str]:
    return re.findall(r"```python\n(.*?)```", readme.read_text(), re.S)


def _run(code: str, server: Server, key: str, names: Dict[str, Any]) -> None:
    code = code.replace('"http://localhost:3000"', repr(server.base_url)).replace('"prly_..."', repr(key))
    if "await " in code:  # top-level await, as in a notebook: run it in a coroutine
        code = "async def example():\n" + textwrap.indent(code, "    ") + "\nasyncio.run(example())\n"
    exec(compile(code, "README example", "exec"), {"asyncio": asyncio, **names})


def test_the_client_readme_quick_starts(server: Server, project: Project, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PARLEY_BASE_URL", server.base_url)
    sync_example, async_example = _python_blocks(CLIENT_README)[:2]
    _run(sync_example, server, project.api_key, {})
    _run(async_example, server, project.api_key, {})


def test_the_main_readme_walk_through(
    server: Server, project: Project, admin: parley.Parley, monkeypatch: pytest.MonkeyPatch
) -> None:
    walk_through, keys = _python_blocks(REPO_ROOT / "README.md")[:2]
    monkeypatch.setenv("KEY", project.api_key)
    _run(walk_through, server, project.api_key, {})

    spare = admin.admin.create_key(project.id)
    leaked = admin.admin.create_key(project.id)
    monkeypatch.setenv("ADMIN_TOKEN", server.admin_token)
    names = {"os": __import__("os"), "Parley": parley.Parley, "PROJECT": project.id, "KEY_ID": spare["id"]}
    _run(keys.replace('"prly_..."', repr(leaked["apiKey"])), server, project.api_key, names)
    revoked = {k["id"] for k in admin.admin.list_keys(project.id) if k["revoked"]}
    assert revoked == {spare["id"], leaked["id"]}
