"""Registers the ``royalnine demo`` command (its code lives in :mod:`royalnine.cli.play`)."""

from __future__ import annotations

from royalnine.cli.play import add_demo_parser as add_parser

__all__ = ["add_parser"]
