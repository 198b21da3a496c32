"""petitcom_shim.files.read_file: which refusal each strange path gets, and what it carries."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

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
