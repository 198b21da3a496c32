"""Registers the ``royalnine demo`` command (its code lives in :mod:`royalnine.play_cli`)."""

from __future__ import annotations

from royalnine.play_cli import add_demo_parser as add_parser

__all__ = ["add_parser"]
