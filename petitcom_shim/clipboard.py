"""The desktop clipboard for text, behind a small interface with an in-memory stand-in.

Petit Computer had no clipboard; a program on a PC can exchange text with a
messenger through one, so the shim offers it as an extension (``Machine.clipboard``).
pygame-ce 2.5 reaches SDL's clipboard through ``pygame.scrap.put_text`` /
``get_text`` (the newer API; the older ``scrap.put``/``get`` are deprecated), which
needs only the display module initialised. Headless machines get a
:class:`MemoryClipboard`, so tests never touch the player's real clipboard.
"""

from __future__ import annotations

from typing import Protocol

from petitcom_shim.errors import PetitcomError

#: Clipboard text longer than this is not read (nothing a program wants is that long).
MAX_CLIPBOARD_TEXT = 100_000


class ClipboardError(PetitcomError):
    """The clipboard could not be read or written (no display, no clipboard owner...)."""


class Clipboard(Protocol):
    """Text in, text out."""

    def put_text(self, text: str) -> None:
        """Replace the clipboard's content with ``text``."""

    def get_text(self) -> str:
        """The clipboard's text ("" when it holds none)."""


class MemoryClipboard:
    """A clipboard that lives in this process only: for headless machines and tests."""

    def __init__(self, text: str = "") -> None:
        self.text = text

    def put_text(self, text: str) -> None:
        """Keep ``text``."""
        self.text = str(text)

    def get_text(self) -> str:
        """The text kept last."""
        return self.text


class SystemClipboard:
    """The desktop's clipboard through SDL (``pygame.scrap`` text API)."""

    def put_text(self, text: str) -> None:
        """Put ``text`` on the desktop clipboard.

        Raises:
            ClipboardError: SDL could not set it (one line, says why).
        """
        import pygame

        try:
            pygame.scrap.put_text(text)
        except pygame.error as err:
            raise ClipboardError(f"cannot copy to the clipboard: {err}") from err

    def get_text(self) -> str:
        """The desktop clipboard's text ("" when it holds none).

        Raises:
            ClipboardError: SDL could not read it, or it is unreasonably long.
        """
        import pygame

        try:
            text = pygame.scrap.get_text() if pygame.scrap.has_text() else ""
        except pygame.error as err:
            raise ClipboardError(f"cannot read the clipboard: {err}") from err
        if len(text) > MAX_CLIPBOARD_TEXT:
            raise ClipboardError(
                f"the clipboard holds {len(text)} characters; at most {MAX_CLIPBOARD_TEXT} are read"
            )
        return text
