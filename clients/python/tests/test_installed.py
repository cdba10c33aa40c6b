"""The tests run against the installed wheel (``npm run test:python``), not the source folder."""

from __future__ import annotations

import os
from importlib import metadata, resources
from pathlib import Path

import pytest

import parley

SOURCE = Path(__file__).resolve().parents[1] / "src"


@pytest.mark.skipif(not os.environ.get("PARLEY_CLIENT_INSTALLED"), reason="run from the source folder")
def test_the_installed_wheel_is_under_test() -> None:
    assert SOURCE not in Path(parley.__file__).resolve().parents
    assert metadata.version("parley-client") == parley.__version__
    # The one runtime dependency (older setuptools write it "httpx (>=0.23)").
    requirements = [r.replace(" ", "").replace("(", "").replace(")", "") for r in metadata.requires("parley-client") or []]
    assert requirements == ["httpx>=0.23"]
    assert resources.files("parley").joinpath("py.typed").is_file()
