"""Shared pytest setup: headless SDL, the golden-image flag, slow-test gating, and a
heartbeat line while no test finishes (so a long test never looks like a hung suite)."""

from __future__ import annotations

import importlib.util
import os
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

GOLDEN_DIR = Path(__file__).parent / "golden"
TOOLS_DIR = Path(__file__).resolve().parent.parent / "tools"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-golden",
        action="store_true",
        default=False,
        help="rewrite the golden PNGs under tests/golden instead of comparing against them",
    )


HEARTBEAT_S = 30.0
"""After this long without a finished test, say which tests are still running."""


class Heartbeat:
    """On xdist's controller (the default run): every :data:`HEARTBEAT_S` in which no test
    finished, one line with how many tests are done and the ones running longest. The dots
    say the rest. (With ``-n0`` the line is captured with the running test's output.)"""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.running: dict[str, float] = {}
        self.done = 0
        self.last = time.monotonic()
        self.lock = threading.Lock()
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self.beat, name="heartbeat", daemon=True)

    def beat(self) -> None:
        while not self.stopped.wait(HEARTBEAT_S / 6):
            # (looked up here: the reporter registers after this conftest's configure)
            reporter = self.config.pluginmanager.get_plugin("terminalreporter")
            with self.lock:
                now = time.monotonic()
                if now - self.last < HEARTBEAT_S or not self.running or reporter is None:
                    continue
                self.last = now
                longest = sorted(self.running.items(), key=lambda item: item[1])[:2]
                names = ", ".join(f"{nodeid} ({now - since:.0f} s)" for nodeid, since in longest)
                reporter.write_line(f"[{self.done} tests done; still running: {names}]")

    def started(self, nodeid: str) -> None:
        with self.lock:
            self.running.setdefault(nodeid, time.monotonic())

    def finished(self, nodeid: str) -> None:
        with self.lock:
            if self.running.pop(nodeid, None) is not None:
                self.done += 1
            self.last = time.monotonic()


_heartbeat: Heartbeat | None = None


def pytest_configure(config: pytest.Config) -> None:
    global _heartbeat
    if hasattr(config, "workerinput"):  # an xdist worker: its controller reports
        return
    _heartbeat = Heartbeat(config)
    _heartbeat.thread.start()


def pytest_unconfigure(config: pytest.Config) -> None:
    if _heartbeat is not None:
        _heartbeat.stopped.set()


def pytest_runtest_logstart(nodeid: str, location: object) -> None:
    if _heartbeat is not None:
        _heartbeat.started(nodeid)


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if _heartbeat is not None and report.when == "teardown":
        _heartbeat.finished(report.nodeid)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if os.environ.get("ROYALNINE_SLOW") == "1":
        return
    skip = pytest.mark.skip(reason="slow: set ROYALNINE_SLOW=1 to run")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


@pytest.fixture
def update_golden(request: pytest.FixtureRequest) -> bool:
    """True when the run was asked to regenerate golden images."""
    return bool(request.config.getoption("--update-golden"))


@pytest.fixture
def golden(update_golden: bool) -> Callable[[str, object], None]:
    """Compare a (H, W, 3) uint8 array with tests/golden/<name>.png pixel for pixel.

    With ``--update-golden`` the reference is written instead. A mismatch saves
    the actual image beside the reference as ``<name>.actual.png`` for review.
    """
    import numpy as np
    from PIL import Image

    def check(name: str, pixels: object) -> None:
        arr = np.asarray(pixels, dtype=np.uint8)
        ref_path = GOLDEN_DIR / f"{name}.png"
        if update_golden or not ref_path.exists():
            if not update_golden:
                pytest.fail(f"no golden image {ref_path.name}; run pytest --update-golden")
            GOLDEN_DIR.mkdir(parents=True, exist_ok=True)
            Image.fromarray(arr).save(ref_path)
            return
        ref = np.asarray(Image.open(ref_path).convert("RGB"), dtype=np.uint8)
        if ref.shape != arr.shape or not np.array_equal(ref, arr):
            Image.fromarray(arr).save(ref_path.with_suffix(".actual.png"))
            diff = (
                "shape"
                if ref.shape != arr.shape
                else f"{int((ref != arr).any(axis=2).sum())} pixels"
            )
            pytest.fail(f"{name}: differs from golden ({diff}); see {name}.actual.png")

    return check


def _load_tool(name: str) -> ModuleType:
    """``tools/<name>.py`` imported as a module (tools/ is scripts, not a package)."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, TOOLS_DIR / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def load_tool() -> Callable[[str], ModuleType]:
    """Import a script from tools/ by name, e.g. ``load_tool("build_font")``."""
    return _load_tool
