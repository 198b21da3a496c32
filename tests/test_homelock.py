"""One program at a time on a data folder (royalnine.homelock), checked with real processes.

A second ``royalnine`` on the same home ran beside the first, and both offered and
resumed the same saved match. Now the game, the kiosk and the ``remote`` commands that
write hold ``HOME/royalnine.lock`` with ``flock``; a second one is refused in one line,
and a holder that was killed leaves nothing that blocks.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from royalnine.cli import main
from royalnine.core.files import is_temp_file
from royalnine.homelock import LOCK_FILE, HomeInUse, busy, hold
from royalnine.storage import Storage

ROOT = Path(__file__).resolve().parent.parent
PATIENCE = 120.0  # only stops a hang: every wait is for an event


def env() -> dict[str, str]:
    return {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "SDL_VIDEODRIVER": "dummy",
        "SDL_AUDIODRIVER": "dummy",
        "PYGAME_HIDE_SUPPORT_PROMPT": "1",
    }


def royalnine(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "royalnine.cli", *args],
        env=env(),
        capture_output=True,
        text=True,
        timeout=PATIENCE,
        stdin=subprocess.DEVNULL,
    )


def wait_for(predicate: object) -> bool:
    assert callable(predicate)
    end = time.monotonic() + PATIENCE
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.05)
    return False


@pytest.fixture
def game(tmp_path: Path) -> Iterator[subprocess.Popen[str]]:
    """`royalnine play` running on tmp_path/home (SDL's dummy driver: no window), once it
    holds the folder (its process id is in the lock file)."""
    home = tmp_path / "home"
    proc = subprocess.Popen(
        [sys.executable, "-m", "royalnine.cli", "play", "--home", str(home)],
        env=env(),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )

    def holding() -> bool:
        assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
        lock = home / LOCK_FILE
        return lock.exists() and lock.read_text().strip() == str(proc.pid)

    try:
        assert wait_for(holding)
        yield proc
    finally:
        proc.kill()
        proc.wait()


def test_a_second_game_on_the_same_folder_is_refused(
    tmp_path: Path, game: subprocess.Popen[str]
) -> None:
    home = tmp_path / "home"
    second = royalnine("play", "--home", str(home))
    assert second.returncode == 1 and second.stdout == ""
    assert second.stderr.count("\n") == 1
    assert f"in use by another Royal Nine (process {game.pid})" in second.stderr
    assert "--home DIR" in second.stderr
    assert game.poll() is None  # the first one plays on


def test_the_kiosk_and_the_remote_commands_that_write_are_refused_too(
    tmp_path: Path, game: subprocess.Popen[str]
) -> None:
    home = str(tmp_path / "home")
    kiosk = royalnine("kiosk", "--home", home)
    assert kiosk.returncode == 1 and "in use by another Royal Nine" in kiosk.stderr
    host = royalnine("remote", "host", "--home", home, "--json")
    assert host.returncode == 1
    doc = json.loads(host.stdout)  # one JSON line, as for any refusal of `remote`
    assert doc["ok"] is False and "in use by another Royal Nine" in doc["error"]
    assert not (tmp_path / "home" / "remote").exists()  # nothing was written
    status = royalnine("remote", "status", "--home", home, "--json")  # reading is fine
    assert "in use" not in status.stdout + status.stderr


def test_a_killed_holder_blocks_nothing(tmp_path: Path, game: subprocess.Popen[str]) -> None:
    """flock goes with its holder however it ends: a SIGKILL leaves the lock file behind,
    and the next program takes the folder at once."""
    home = tmp_path / "home"
    game.send_signal(signal.SIGKILL)
    game.wait()
    assert (home / LOCK_FILE).exists() and not busy(home)
    with hold(home) as lock:
        assert (home / LOCK_FILE).read_text().strip() == str(os.getpid())
        assert lock.home == home


def test_another_programs_writes_in_flight_are_not_cleaned_away(
    tmp_path: Path, game: subprocess.Popen[str]
) -> None:
    """Opening a Storage removes the temporary files of interrupted writes; while another
    program holds the folder they may be its writes in progress, so they stay."""
    home = tmp_path / "home"
    temp = home / ".save.json.1234.tmp"  # as write_atomic names its temporary files
    assert is_temp_file(temp)
    temp.write_text("{}")
    assert Storage(home).cleaned == [] and temp.exists()
    game.kill()
    game.wait()
    assert Storage(home).cleaned == [temp] and not temp.exists()


def test_a_process_holds_its_own_folder_once(tmp_path: Path) -> None:
    home = tmp_path / "home"
    script = (
        "import sys; from pathlib import Path; from royalnine.homelock import hold; "
        "hold(Path(sys.argv[1])); print('held')"
    )

    def another_process_holds() -> bool:
        done = subprocess.run(
            [sys.executable, "-c", script, str(home)],
            env=env(),
            capture_output=True,
            text=True,
            timeout=PATIENCE,
        )
        return done.stdout.strip() == "held"

    with hold(home) as lock:
        assert not busy(home)  # its own hold is not "busy"
        assert main(["remote", "host", "--home", str(home), "--json"]) == 0  # holds it too
        assert not another_process_holds()  # still held after the command let go
        assert hold(home) is lock and lock.holds == 2
        lock.release()
    assert another_process_holds()  # released: another process may have it now


def test_the_refusal_names_no_process_when_the_lock_file_says_none(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import fcntl, os, sys; fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT); "
            "fcntl.flock(fd, fcntl.LOCK_EX); print('held', flush=True); sys.stdin.read()",
            str(home / LOCK_FILE),
        ],
        env=env(),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        with pytest.raises(HomeInUse, match=r"in use by another Royal Nine; close it first"):
            hold(home)
    finally:
        holder.kill()
        holder.wait()
