"""petitcom_shim.files: which refusal each strange path gets when read, and what an output
path that is not a regular file gets when written."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
import special_outputs

from petitcom_shim import files


def test_reads_a_file_up_to_the_limit(tmp_path: Path) -> None:
    path = tmp_path / "f"
    path.write_bytes(b"x" * 10)
    assert files.read_file(path, 10) == b"x" * 10


def test_folders_and_fifos_are_not_regular(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)  # must be refused without blocking for a writer
    for path, is_dir in ((tmp_path, True), (fifo, False), (Path("/dev/null"), False)):
        with pytest.raises(files.NotRegularFile, match=r"^not a regular file$") as err:
            files.read_file(path, 10)
        assert err.value.is_dir is is_dir
        assert isinstance(err.value, files.FileRefused)


def test_a_file_over_the_limit_carries_its_size(tmp_path: Path) -> None:
    path = tmp_path / "big"
    with open(path, "wb") as fh:
        fh.truncate(1 << 30)  # sparse: refused from its size, never read
    with pytest.raises(files.FileTooLarge, match=r"^larger than 1,000 bytes$") as err:
        files.read_file(path, 1000)
    assert err.value.size == 1 << 30
    assert isinstance(err.value, files.FileRefused)


def test_a_missing_file_is_not_found(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        files.read_file(tmp_path / "nothing", 10)


# --- write_output: an output path never replaces what is not a regular file -----


def spy_on_fsync(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """From now on, each os.fsync adds whether it synced a folder (True) or a file."""
    synced: list[bool] = []
    real = os.fsync

    def spy(fd: int) -> None:
        synced.append(stat.S_ISDIR(os.fstat(fd).st_mode))
        real(fd)

    monkeypatch.setattr(os, "fsync", spy)
    return synced


@pytest.mark.parametrize("kind", special_outputs.KINDS)
def test_write_output_writes_into_or_refuses_what_is_not_a_regular_file(
    tmp_path: Path, kind: str
) -> None:
    with special_outputs.made(kind, tmp_path) as target:
        if target.refused:
            with pytest.raises(files.OutputRefused) as err:
                files.write_output(target.path, b"data")
            assert "\n" not in str(err.value) and str(target.path) not in str(err.value)
        else:
            files.write_output(target.path, b"data")
        target.check(None if target.refused else b"data")


def test_write_output_replaces_a_regular_file_atomically_keeping_its_mode(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "out.bin"
    path.write_bytes(b"old")
    path.chmod(0o640)
    synced = spy_on_fsync(monkeypatch)
    files.write_output(path, b"new")
    assert path.read_bytes() == b"new" and (path.stat().st_mode & 0o777) == 0o640
    assert synced == [False, True]  # the data, then the folder after the rename
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.bin"]
    files.write_output(tmp_path / "fresh", b"x")
    umask = os.umask(0)
    os.umask(umask)
    assert ((tmp_path / "fresh").stat().st_mode & 0o777) == 0o666 & ~umask


def test_write_output_dash_is_stdout_and_an_empty_name_is_refused(
    tmp_path: Path, capfd: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    files.write_output("-", b"to stdout\n")
    assert capfd.readouterr().out == "to stdout\n"
    monkeypatch.chdir(tmp_path)
    with pytest.raises(files.OutputRefused, match="empty file name"):
        files.write_output("", b"x")
    assert list(tmp_path.iterdir()) == []


def test_the_ptc_writer_syncs_the_folder_after_its_rename(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SAVE and the QR set writer go through files.write_atomic (issue 18 item 7)."""
    from petitcom_shim import ptcfile, ptcres

    assert not hasattr(ptcfile, "write_atomic")  # one writer for the shim, in files
    assert ptcres.files.write_atomic is files.write_atomic
    synced = spy_on_fsync(monkeypatch)
    files.write_atomic(tmp_path / "A.PTC", b"PX01")
    assert synced == [False, True]


def test_a_screenshot_never_replaces_a_fifo_or_device(tmp_path: Path) -> None:
    from petitcom_shim import Machine

    m = Machine(headless=True)
    try:
        for kind in ("fifo", "link_to_device", "fifo_no_reader"):
            with special_outputs.made(kind, tmp_path) as target:
                if target.refused:
                    with pytest.raises(files.OutputRefused):
                        m.screenshot(target.path)
                else:
                    m.screenshot(target.path)
                target.check()
    finally:
        m.close()
