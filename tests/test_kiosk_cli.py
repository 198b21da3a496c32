"""The ``royalnine kiosk`` command, its settings, the statistics under kills, the systemd unit."""

from __future__ import annotations

import contextlib
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest
import special_outputs

from petitcom_shim.config import ConfigError, load_config
from royalnine.cli import main
from royalnine.kiosk.config import KioskConfig, KioskConfigError, load, load_lenient
from royalnine.kiosk.stats import STATS_FILE, StatsBook, read_stats

ROOT = Path(__file__).resolve().parent.parent
UNIT = ROOT / "tools" / "kiosk" / "royalnine-kiosk.service"


def env() -> dict[str, str]:
    e = dict(os.environ)
    e["PYTHONPATH"] = str(ROOT)
    e["SDL_VIDEODRIVER"] = "dummy"
    e["SDL_AUDIODRIVER"] = "dummy"
    return e


# --- settings ---


@pytest.mark.parametrize(
    ("table", "words"),
    [
        ("attract_after = -5", "attract_after"),
        ('attract_after = "soon"', "attract_after"),
        ("reset_after = 0", "reset_after"),
        ("top_display = 99", "top_display"),
        ("pin = 1234", "pin"),
        ('pin = "12ab"', "pin"),
        ('attract_level = "godlike"', "attract_level"),
        ('hours = "9-18"', "hours"),
        ("colour = 3", "unknown setting"),
    ],
)
def test_bad_kiosk_settings_give_one_clear_line(tmp_path: Path, table: str, words: str) -> None:
    (tmp_path / "shim.toml").write_text(f"[kiosk]\n{table}\ncountdown = 7\n")
    with pytest.raises(KioskConfigError) as err:
        load(tmp_path / "shim.toml", {})
    assert words in str(err.value) and "\n" not in str(err.value)
    # the kiosk itself runs on: the bad value falls back to its default, with one line
    config, warnings = load_lenient(tmp_path / "shim.toml", {})
    assert len(warnings) == 1 and words in warnings[0] and "\n" not in warnings[0]
    name = words if words != "unknown setting" else "colour"
    if hasattr(KioskConfig, name):
        assert getattr(config, name) == getattr(KioskConfig(), name)
    assert config.countdown == 7  # the good values are kept


def test_a_bad_settings_file_does_not_stop_the_kiosk(tmp_path: Path) -> None:
    (tmp_path / "shim.toml").write_text("[kiosk]\ntop_display = 99\n[keys]\na = 5\n")
    code, err = run_until(tmp_path, RUNNING)
    assert code == 0
    assert "top_display must be a display number 0-15, not 99: using the default 1" in err
    assert '[keys] key names must be strings, not 5: using the default [keys] a = ["x"]' in err
    log = (tmp_path / "logs" / "kiosk.log").read_text()
    assert "using the default 1" in log  # in the log file too, not only on stderr


def test_a_bad_shim_value_costs_only_that_value(tmp_path: Path) -> None:
    (tmp_path / "shim.toml").write_text(
        '[display]\ntop_display = 99\nrenderer = "surface"\n[keys]\na = ["space"]\n'
        "[kiosk]\ntop_display = 2\n"
    )
    proc = run_patched(  # the kiosk up to the window, with the settings it would open it with
        tmp_path,
        "from royalnine.cli import kiosk\n"
        "def serve(args, storage, config, shim, stop, warnings):\n"
        "    print(shim.keys['space'].name, shim.keys.get('x'), shim.renderer, shim.top_display)\n"
        "    return 0\n"
        "kiosk._serve = serve\n",
    )
    assert proc.returncode == 0, proc.stderr
    # the remap and the renderer are kept; the [kiosk] table still chooses the monitors
    assert proc.stdout.split() == ["A", "None", "surface", "2"]
    line = (
        f"{tmp_path / 'shim.toml'}: [display] top_display must be 0-15, not 99: using the default 0"
    )
    assert line in (tmp_path / "logs" / "kiosk.log").read_text()


def test_a_settings_file_that_cannot_be_read_gives_one_clear_line(tmp_path: Path) -> None:
    path = tmp_path / "shim.toml"
    path.mkdir()
    with pytest.raises(KioskConfigError, match="not a regular file"):
        load(path, {})
    path.rmdir()
    path.write_bytes(b"[kiosk]\n" + b"#" * 300_000 + b"\n")
    with pytest.raises(KioskConfigError, match="too large") as err:
        load(path, {})
    assert "\n" not in str(err.value)
    path.write_bytes(b'[kiosk]\npin = "\xff"\n')
    with pytest.raises(KioskConfigError, match="not UTF-8"):
        load(path, {})


def test_bad_flags_give_one_clear_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["kiosk", "--home", str(tmp_path), "--reset-after", "0"]) == 2
    err = capsys.readouterr().err.strip()
    assert "reset_after" in err and err.count("\n") == 0


def test_kiosk_table_is_read_by_the_kiosk_and_skipped_by_the_shim(tmp_path: Path) -> None:
    path = tmp_path / "shim.toml"
    path.write_text('[kiosk]\nattract_after = 30\npin = "0042"\n[display]\nhide_pointer = true\n')
    config = load(path, {"reset_after": 45, "attract_after": None})
    assert (config.attract_after, config.reset_after, config.pin) == (30.0, 45.0, "0042")
    assert load_config(path, program_tables=("kiosk",)).hide_pointer
    with pytest.raises(ConfigError, match="unknown table"):
        load_config(path)


# --- the command ---


def test_one_monitor_fallback_signal_stop_and_no_settings_written(tmp_path: Path) -> None:
    home = tmp_path / "kiosk"
    home.mkdir()
    settings = json.dumps({"lang": "en", "difficulty": "easy"})
    (home / "settings.json").write_text(settings)
    (home / "kiosk-operator.json").write_text("{damaged")
    (home / "shim.toml").write_text('[kiosk]\npin = "2468"\n')
    (home / "shim.toml").chmod(0o644)
    proc = subprocess.Popen(
        [sys.executable, "-m", "royalnine.cli", "kiosk", "--home", str(home), "--reset-after", "5"],
        env=env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    log = home / "logs" / "kiosk.log"
    for _ in range(200):
        if (log.exists() and "fallback" in log.read_text()) or proc.poll() is not None:
            break
        time.sleep(0.05)
    time.sleep(0.5)
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=20) == 0
    text = log.read_text()
    assert "one monitor found: falling back to the vertical layout" in text
    assert "stopped by SIGTERM" in text
    # each start-up warning once (the damaged operator file was logged twice)
    for words in ("kiosk-operator.json was damaged", "every user can read it", "plain text"):
        assert text.count(words) == 1, (words, text)
    assert "no operator PIN is set" not in text
    assert json.loads((home / "kiosk-status.json").read_text())["operator_pin_set"] is True
    assert (home / "settings.json").read_text() == settings
    stats = read_stats(home / STATS_FILE)
    assert stats is not None and stats.run["clean"] and stats.run["reason"] == "stopped by SIGTERM"


def test_stats_csv_export(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    t = [1_763_800_000.0]
    book = StatsBook(tmp_path, lambda: t[0], lambda p: p)
    book.begin_run()
    book.session_started()
    book.match_started("cpu:hard")
    t[0] += 300
    book.match_ended(
        "cpu:hard", completed=True, seconds=300, royal_nines=1, busts=0, winner_vs_cpu="visitor"
    )
    out = tmp_path / "stats.csv"
    assert main(["kiosk", "--home", str(tmp_path), "--stats-csv", str(out)]) == 0
    rows = out.read_text().splitlines()
    assert rows[0] == "section,key,field,value"
    assert "total,,sessions,1" in rows and "total,,visitor_wins,1" in rows
    assert "kind,cpu:hard,completed,1" in rows and "total,,mean_match_seconds,300.0" in rows
    (tmp_path / STATS_FILE).write_text("{oops")
    assert main(["kiosk", "--home", str(tmp_path), "--stats-csv", "-"]) == 1
    assert "damaged statistics" in capsys.readouterr().err


def run_patched(home: Path, patch: str) -> subprocess.CompletedProcess[str]:
    """Run the kiosk in ``home`` in a new Python that runs ``patch`` first."""
    code = (
        f"{patch}import sys\nfrom royalnine.cli import main\n"
        f"sys.exit(main(['kiosk', '--home', {str(home)!r}]))\n"
    )
    return subprocess.run(
        [sys.executable, "-c", code], env=env(), capture_output=True, text=True, timeout=60
    )


def test_an_unexpected_error_is_logged_and_exits_non_zero(tmp_path: Path) -> None:
    proc = run_patched(
        tmp_path,
        "from royalnine.kiosk import controller\n"
        "def boom(self): raise RuntimeError('kaboom')\n"
        "controller.KioskApp.tick = boom\n",
    )
    assert proc.returncode == 1
    text = (tmp_path / "logs" / "kiosk.log").read_text()
    assert "Traceback" in text and "RuntimeError: kaboom" in text
    stats = read_stats(tmp_path / STATS_FILE)
    assert stats is not None and "kaboom" in stats.run["reason"]
    book = StatsBook(tmp_path, time.time, lambda p: p)
    book.begin_run()
    assert "kaboom" in book.stats.last_restart["reason"]


# --- statistics under kills ---

WRITER = """
import os, sys, time, random
from pathlib import Path
from royalnine.core import record
from royalnine.kiosk import stats as st
real_fsync = os.fsync
def slow_fsync(fd):  # make writes last, so that kills land inside them
    time.sleep(0.002)
    real_fsync(fd)
os.fsync = slow_fsync
home = Path(sys.argv[1])
book = st.StatsBook(home, time.time, lambda p: p.rename(p.with_name(p.name + '.bad')) or p)
book.begin_run()
if book.notice:
    print(book.notice, flush=True)
    sys.exit(3)
print('ready', flush=True)
rng = random.Random()
while True:
    book.session_started()
    kind = rng.choice(['cpu:easy', 'local'])
    book.match_started(kind)
    book.touches(3)
    book.match_ended(kind, completed=rng.random() < 0.5, seconds=60, royal_nines=0, busts=1)
"""


def kill_writer_many_times(home: Path, kills: int, seed: int) -> int:
    """Start the writer, kill it at a random moment, check the file; returns kills mid-write."""
    rng = random.Random(seed)
    mid_write = 0
    for _ in range(kills):
        proc = subprocess.Popen(
            [sys.executable, "-c", WRITER, str(home)],
            env=env(),
            stdout=subprocess.PIPE,
            text=True,
        )
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == "ready"
        time.sleep(rng.uniform(0.0, 0.15))
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        proc.stdout.close()
        if list(home.glob(f".{STATS_FILE}.*.tmp")):
            mid_write += 1
        s = read_stats(home / STATS_FILE)
        assert s is not None
        m = s.matches
        open_now = 1 if s.run.get("open_match") else 0
        assert m["started"] == m["completed"] + m["abandoned"] + open_now
        # a match open at a kill is abandoned at the next start, with no bust of its own
        assert s.counters["busts"] <= m["completed"] + m["abandoned"]
        assert s.counters["touches"] == 3 * s.counters["busts"]  # saved together
        assert sum(d["sessions"] for d in s.per_day.values()) == s.counters["sessions"]
    return mid_write


def test_statistics_survive_kills(tmp_path: Path) -> None:
    kill_writer_many_times(tmp_path, 6, seed=1)
    assert not list(tmp_path.glob("*.bad"))


@pytest.mark.slow
def test_statistics_survive_many_kills_including_mid_write(tmp_path: Path) -> None:
    mid = kill_writer_many_times(tmp_path, 15, seed=2)
    assert mid > 0, "no kill landed inside a write; the test proved less than it claims"
    assert not list(tmp_path.glob("*.bad"))


# --- the systemd unit ---


def test_unit_file_has_what_a_kiosk_needs() -> None:
    text = UNIT.read_text()
    for line in (
        "Restart=always",
        "RestartPreventExitStatus=2 64",
        "Environment=SDL_VIDEO_MINIMIZE_ON_FOCUS_LOSS=0",
        "ExecStart=",
        "Type=notify",
        "WatchdogSec=",
    ):
        assert line in text


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze not present")
def test_unit_file_verifies(tmp_path: Path) -> None:
    def problems(text: str, name: str) -> list[str]:
        unit = tmp_path / name
        unit.write_text(
            text.replace("%h/.local/bin/royalnine", shutil.which("true") or "/bin/true")
        )
        proc = subprocess.run(
            ["systemd-analyze", "verify", str(unit)], capture_output=True, text=True, timeout=60
        )
        return [line for line in (proc.stdout + proc.stderr).splitlines() if name in line]

    text = UNIT.read_text()
    hook = UNIT.parent / "royalnine-kiosk-failed.service"
    (tmp_path / hook.name).write_text(hook.read_text())  # the OnFailure= unit, beside it
    assert not problems(text, "royalnine-kiosk.service")
    assert not problems(hook.read_text(), hook.name)
    # the checker does see mistakes (so the test above can fail)
    assert problems(text.replace("Restart=always", "Restart=allways"), "broken-kiosk.service")


# --- the kiosk soak ---


def test_short_kiosk_soak(tmp_path: Path, load_tool: Callable[[str], ModuleType]) -> None:
    figures = load_tool("soak").kiosk_soak(1 / 60, 7, tmp_path / "kiosk", warm=False)
    assert figures["exceptions"] == 0 and figures["frames"] >= 60 * 60


@pytest.mark.slow
def test_ten_minute_kiosk_soak(tmp_path: Path, load_tool: Callable[[str], ModuleType]) -> None:
    figures = load_tool("soak").kiosk_soak(10 / 60, 11, tmp_path / "kiosk", warm=False)
    assert figures["exceptions"] == 0 and figures["simulated_hours"] >= 10 / 60 - 0.01


# --- no hang, no invisible run, no stop on a file ---


RUNNING = "monitor"
"""A word of the log line the kiosk writes once its windows are open ("one monitor found",
"two screens: top on monitor 0 ..."): a test waits for it, then stops the kiosk."""


def run_until(
    home: Path, text: str, extra_env: dict[str, str] | None = None, *, stop: bool = True
) -> tuple[int, str]:
    """Start the kiosk, wait (at most 30 s) for ``text`` on its stderr or its end, then
    SIGTERM it (with ``stop``); its exit status and stderr."""
    e = env()
    e.update(extra_env or {})
    for name in [k for k, v in e.items() if v == ""]:
        del e[name]
    proc = subprocess.Popen(
        [sys.executable, "-m", "royalnine.cli", "kiosk", "--home", str(home)],
        env=e,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:  # whatever happens here, the kiosk does not outlive the test
        assert proc.stderr is not None
        fd = proc.stderr.fileno()
        os.set_blocking(fd, False)
        seen = b""
        end = time.monotonic() + 30
        while text.encode() not in seen and proc.poll() is None and time.monotonic() < end:
            with contextlib.suppress(BlockingIOError):
                seen += os.read(fd, 65536)
            time.sleep(0.05)
        if stop and proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
        code = proc.wait(timeout=30)
        os.set_blocking(fd, True)
        return code, (seen + proc.stderr.read()).decode("utf-8", "backslashreplace")
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_as_the_log_does_not_block_the_kiosk(tmp_path: Path) -> None:
    (tmp_path / "logs").mkdir()
    os.mkfifo(tmp_path / "logs" / "kiosk.log")
    code, err = run_until(tmp_path, RUNNING)
    assert code == 0
    assert "cannot write the log file" in err and "FIFO" in err and "stderr only" in err
    assert "stopped by SIGTERM" in err


def test_a_file_named_logs_does_not_stop_the_kiosk(tmp_path: Path) -> None:
    (tmp_path / "logs").write_text("not a folder")
    code, err = run_until(tmp_path, RUNNING)
    assert code == 0 and "logging to stderr only" in err
    assert (tmp_path / "logs").read_text() == "not a folder"


@pytest.mark.skipif(sys.platform != "linux", reason="file names are bytes on Linux")
def test_a_home_path_that_is_not_utf8_logs_cleanly(tmp_path: Path) -> None:
    home = tmp_path / os.fsdecode(b"caf\xe9")
    code, err = run_until(home, RUNNING)
    assert code == 0 and "Logging error" not in err and "Traceback" not in err
    text = (home / "logs" / "kiosk.log").read_text(encoding="utf-8")
    assert "caf\\udce9" in text and "stopped by SIGTERM" in text


@pytest.mark.parametrize(
    "driver",
    [
        {"SDL_VIDEODRIVER": "", "DISPLAY": ""},
        # a driver named (as for Wayland) before its server is up: pygame.error, once a
        # traceback recorded as a crash
        {"SDL_VIDEODRIVER": "x11", "DISPLAY": ":987"},
    ],
)
def test_no_display_exits_non_zero_with_one_line(tmp_path: Path, driver: dict[str, str]) -> None:
    """With no X or Wayland display SDL falls back to drawing nowhere; the kiosk must not
    run invisibly (the service manager would never restart it)."""
    code, err = run_until(
        tmp_path,
        "no display",
        {**driver, "WAYLAND_DISPLAY": "", "XDG_RUNTIME_DIR": ""},
        stop=False,
    )
    assert code == 1
    lines = [line for line in err.splitlines() if "ERROR" in line]
    assert len(lines) == 1 and "no display to open a window on" in lines[0]
    assert "Traceback" not in err


# --- the operator PIN from the command line ---


def test_set_pin_stores_a_hash(tmp_path: Path) -> None:
    from royalnine.kiosk.pin import PIN_FILE, pin_matches

    def set_pin(text: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "royalnine.cli", "kiosk", "--home", str(tmp_path), "--set-pin"],
            input=text,
            env=env(),
            capture_output=True,
            text=True,
            timeout=60,
        )

    bad = set_pin("12\n")
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "4-8 digits" in bad.stderr
    assert not (tmp_path / PIN_FILE).exists()
    good = set_pin("97531\n")
    assert good.returncode == 0, good.stderr
    doc = json.loads((tmp_path / PIN_FILE).read_text())
    assert "97531" not in json.dumps(doc) and pin_matches("97531", doc["hash"])


def test_a_world_readable_shim_toml_with_a_pin_is_reported(tmp_path: Path) -> None:
    from royalnine.cli.kiosk import world_readable_secret

    path = tmp_path / "shim.toml"
    path.write_text('[kiosk]\npin = "2468"\n')
    path.chmod(0o644)
    assert "every user can read it" in world_readable_secret(path)
    path.chmod(0o600)
    assert world_readable_secret(path) == ""


@pytest.mark.parametrize("kind", special_outputs.KINDS)
def test_stats_csv_into_what_is_not_a_regular_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str
) -> None:
    """Issue 18 item 6: --stats-csv given a device, FIFO or link replaced it with a file."""
    with special_outputs.made(kind, tmp_path) as target:
        status = main(["kiosk", "--home", str(tmp_path / "h"), "--stats-csv", str(target.path)])
        target.ended(status, capsys.readouterr().err)
        target.check()
        if target.received:
            assert target.received.decode().startswith("section,key,field,value")
