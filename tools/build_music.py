"""Ship the game's music: check assets/music/*.mml and copy it to royalnine/data/music.

The ``.mml`` files in ``assets/music`` are the songs as written (``'`` lines are
comments); the installed game reads the copies in ``royalnine/data/music``
(package data). Every song is parsed first, so a typo fails here with the
shim's MML error and its position instead of in the game.

``--listen DIR`` also renders each song with the shim's synth to ``DIR/NAME.wav``
(16-bit stereo; a looping song goes twice round its loop) and draws
``DIR/NAME.png``, a spectrogram (time left to right, 0-5.5 kHz bottom to top,
notes as bright lines) above the waveform's loudness, and prints figures (length,
peak, RMS, loudest pitch) for looking at the music without speakers.

Usage: ``python tools/build_music.py [--check] [--listen DIR]``.
"""

from __future__ import annotations

import argparse
import sys
import wave
from pathlib import Path

import numpy as np
import numpy.typing as npt
from PIL import Image

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "assets" / "music"
TARGET = ROOT / "royalnine" / "data" / "music"
LOW_KEY, HIGH_KEY = 36, 96  # C2 to C7, the spectrogram's range
sys.path.insert(0, str(ROOT))

from petitcom_shim.bgm import SAMPLE_RATE, SongAudio, render_song  # noqa: E402
from petitcom_shim.mml import parse  # noqa: E402
from royalnine.core.files import write_atomic  # noqa: E402
from royalnine.music import SONGS, mml_text  # noqa: E402


def build_all() -> dict[Path, str]:
    """Each packaged file and the text it must hold (after checking the MML parses)."""
    out = {}
    for name in SONGS:
        source = (SOURCE / f"{name}.mml").read_text(encoding="utf-8")
        parse(mml_text(source))  # raises MmlError with the position
        out[TARGET / f"{name}.mml"] = source
    return out


def song_samples(audio: SongAudio, rounds: int = 2) -> npt.NDArray[np.int16]:
    """16-bit stereo of a rendered song: the head, then the loop ``rounds`` times."""
    parts = [audio.head]
    if audio.first is not None and audio.loop is not None:
        parts += [audio.first] + [audio.loop] * (rounds - 1)
    return np.round(np.concatenate(parts).astype(np.float64) * 32767).astype(np.int16)


def write_wav(path: Path, samples: npt.NDArray[np.int16]) -> None:
    with wave.open(str(path), "wb") as out:
        out.setnchannels(2)
        out.setsampwidth(2)
        out.setframerate(SAMPLE_RATE)
        out.writeframes(samples.tobytes())


def spectrogram(samples: npt.NDArray[np.int16], px_per_second: int = 40) -> Image.Image:
    """A piano-roll spectrogram: one row band per semitone from C2 to C7 (dB, -60 to 0),
    with C rows marked, above a strip showing the loudness, as an RGB image."""
    mono = samples.astype(np.float64).mean(axis=1) / 32768
    hop = SAMPLE_RATE // px_per_second
    size = 4096
    frames = max(1, (len(mono) - size) // hop)
    window = np.hanning(size)
    keys = np.arange(LOW_KEY, HIGH_KEY + 1)
    bins = np.round(440.0 * 2 ** ((keys - 69) / 12) * size / SAMPLE_RATE).astype(int)
    columns = []
    for i in range(frames):
        spectrum = np.abs(np.fft.rfft(mono[i * hop : i * hop + size] * window)) / (size / 4)
        near = np.maximum(spectrum[bins - 1], spectrum[bins + 1])
        columns.append(np.maximum(spectrum[bins], near))
    db = 20 * np.log10(np.array(columns).T + 1e-9)
    level = np.clip((db + 60) / 60, 0, 1)[::-1]
    heat = np.stack([level**0.7, level**1.5, 0.25 + 0.75 * level**3], axis=2)
    heat[(keys[::-1] % 12) == 0] += 0.12  # C rows, to read pitches off
    top = (np.repeat(np.clip(heat, 0, 1), 4, axis=0) * 255).astype(np.uint8)
    rms = np.array([np.sqrt(np.mean(mono[i * hop : i * hop + hop] ** 2)) for i in range(frames)])
    strip = np.zeros((40, frames, 3), dtype=np.uint8)
    for x, h in enumerate(np.clip(rms / 0.3 * 40, 0, 40).astype(int)):
        strip[40 - h :, x] = (120, 220, 120)
    return Image.fromarray(np.concatenate([top, strip], axis=0))


def listen(directory: Path) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    for name in SONGS:
        song = parse(mml_text((SOURCE / f"{name}.mml").read_text(encoding="utf-8")))
        audio = render_song(song, SAMPLE_RATE)  # once, for both the WAV and the picture
        samples = song_samples(audio)
        write_wav(directory / f"{name}.wav", samples)
        spectrogram(song_samples(audio, rounds=1)).save(directory / f"{name}.png")
        mono = samples.astype(np.float64).mean(axis=1)
        spectrum = np.abs(np.fft.rfft(mono))
        loudest = float(np.argmax(spectrum[1:]) + 1) * SAMPLE_RATE / len(mono)
        peak = float(np.abs(samples).max()) / 32768
        rms = float(np.sqrt(np.mean((samples.astype(np.float64) / 32768) ** 2)))
        print(
            f"{name}: {song.duration:.1f} s{' (loops)' if song.loops else ''}, "
            f"peak {20 * np.log10(peak):.1f} dBFS, RMS {20 * np.log10(rms):.1f} dBFS, "
            f"loudest pitch {loudest:.0f} Hz -> {directory / name}.wav/.png"
        )


def main(argv: list[str] | None = None) -> int:
    """Copy (or with --check, verify) the songs; returns the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only compare with the copies")
    parser.add_argument("--listen", type=Path, help="render WAVs and spectrograms into DIR")
    args = parser.parse_args(argv)
    status = 0
    for path, text in build_all().items():
        current = path.read_text(encoding="utf-8") if path.exists() else None
        if current == text:
            continue
        if args.check:
            print(f"{path.relative_to(ROOT)} is out of date; run tools/build_music.py")
            status = 1
        else:
            write_atomic(path, text)  # the game may be reading the copies
            print(f"wrote {path.relative_to(ROOT)}")
    if args.listen is not None:
        listen(args.listen)
    return status


if __name__ == "__main__":
    sys.exit(main())
