"""petitcom_shim.sound: the 70 BEEP presets, pitch/vol/pan, argument checks, playback."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import numpy.typing as npt
import pygame
import pytest

from petitcom_shim import sound
from petitcom_shim.errors import OutOfRange
from petitcom_shim.sound import Beep, Sound, render

RATE = sound.SAMPLE_RATE


def dominant_hz(samples: npt.NDArray[np.int16], rate: int = RATE) -> float:
    """Strongest frequency of the mono mix, refined by parabolic interpolation."""
    mono = samples.astype(np.float64).sum(axis=1)
    size = 1 << (len(mono) * 8 - 1).bit_length()  # zero-pad for fine bins
    spectrum = np.abs(np.fft.rfft(mono * np.hanning(len(mono)), size))
    peak = int(np.argmax(spectrum[1:])) + 1
    a, b, c = np.log(spectrum[peak - 1 : peak + 2] + 1e-12)
    offset = 0.5 * (a - c) / (a - 2 * b + c)
    return float((peak + offset) * rate / size)


def energy(channel: npt.NDArray[np.int16]) -> float:
    return float(np.sum(channel.astype(np.float64) ** 2))


def test_seventy_named_presets() -> None:
    assert len(Beep) == sound.PRESET_COUNT == 70
    assert [int(b) for b in Beep] == list(range(70))
    assert Beep(33).name == "SWISH" and Beep.COIN.name == "COIN"


@pytest.mark.parametrize("preset", list(Beep), ids=lambda b: b.name)
def test_every_preset_is_audible_and_of_sensible_length(preset: Beep) -> None:
    samples = render(preset)
    assert samples.dtype == np.int16 and samples.ndim == 2 and samples.shape[1] == 2
    assert 0.01 <= len(samples) / RATE <= 1.5
    peak = int(np.abs(samples.astype(np.int32)).max())
    assert peak > 5000  # clearly audible at vol 127
    rms = np.sqrt(np.mean(samples.astype(np.float64) ** 2))
    assert rms > 1000
    # No click at the end: the last millisecond is near silence.
    tail = np.abs(samples[-RATE // 1000 :].astype(np.int32)).max()
    assert tail < peak / 4


@pytest.mark.parametrize("pitch", [-8192, 0, 8192])
@pytest.mark.parametrize(
    "preset", [Beep.BEEP, Beep.SELECT, Beep.COIN, Beep.NOTE_MID, Beep.LASER, Beep.SHORT_FANFARE]
)
def test_pulse_waves_have_no_dc_offset(preset: Beep, pitch: int) -> None:
    # A DC offset (a 25% pulse swinging between +1 and -1 has one) makes every
    # effect start and stop with a click.
    samples = render(preset, pitch).astype(np.float64)
    assert abs(samples.mean()) < 0.01 * np.abs(samples).max()


def test_presets_differ_from_each_other() -> None:
    fingerprints = {render(b).tobytes() for b in Beep}
    assert len(fingerprints) == 70


def test_render_is_deterministic_and_cached() -> None:
    assert np.array_equal(render(Beep.EXPLOSION), render(Beep.EXPLOSION))
    assert render(5) is not render(5)  # callers get their own array


@pytest.mark.parametrize(
    ("preset", "pitch"),
    [
        (Beep.BEEP, 4096),
        (Beep.BEEP, -4096),
        (Beep.NOTE_LOW, 8192),
        (Beep.NOTE_MID, -8192),
        (Beep.NOTE_HIGH, 2048),
        (Beep.GO, 1000),
        (Beep.COUNTDOWN, -3000),
    ],
)
def test_pitch_scales_the_dominant_frequency(preset: Beep, pitch: int) -> None:
    base = dominant_hz(render(preset))
    shifted = dominant_hz(render(preset, pitch))
    expected = 2.0 ** (pitch / 4096)
    assert shifted / base == pytest.approx(expected, rel=0.01)


def test_pitch_keeps_the_length() -> None:
    assert len(render(Beep.FANFARE, 8192)) == len(render(Beep.FANFARE, -8192))


def test_extreme_pitch_stays_audible() -> None:
    for preset in Beep:
        assert np.abs(render(preset, 8192).astype(np.int32)).max() > 1000, preset.name


def test_pan_moves_energy_between_channels() -> None:
    left_only = render(Beep.CHIME, pan=0)
    right_only = render(Beep.CHIME, pan=127)
    centre = render(Beep.CHIME, pan=64)
    assert energy(left_only[:, 1]) == 0 < energy(left_only[:, 0])
    assert energy(right_only[:, 0]) == 0 < energy(right_only[:, 1])
    assert energy(centre[:, 0]) == pytest.approx(energy(centre[:, 1]), rel=1e-3)
    # Constant power: the total stays the same wherever the sound is.
    total = energy(centre)
    for pan in (0, 20, 64, 100, 127):
        assert energy(render(Beep.CHIME, pan=pan)) == pytest.approx(total, rel=0.01)
    # Moving right shifts energy steadily to the right channel.
    shares = [energy(render(Beep.CHIME, pan=p)[:, 1]) / total for p in (0, 32, 64, 96, 127)]
    assert shares == sorted(shares)


@pytest.mark.parametrize("vol", [0, 1, 32, 64, 100])
def test_volume_scales_amplitude_linearly(vol: int) -> None:
    full = render(Beep.BELL).astype(np.float64)
    quiet = render(Beep.BELL, vol=vol).astype(np.float64)
    assert np.abs(quiet - full * vol / 127).max() <= 1.0  # rounding only


@pytest.mark.parametrize(
    ("args", "word"),
    [
        ((-1,), "n"),
        ((0, 8193), "pitch"),
        ((0, -8193), "pitch"),
        ((0, 0, 128), "vol"),
        ((0, 0, -1), "vol"),
        ((0, 0, 127, 128), "pan"),
        ((0, 0, 127, -1), "pan"),
    ],
)
def test_out_of_range_arguments(args: tuple[int, ...], word: str) -> None:
    with pytest.raises(OutOfRange, match=f"BEEP {word} .* out of range"):
        render(*args)
    with pytest.raises(ValueError):
        Sound(enabled=False).beep(*args)


def test_sound_numbers_past_the_presets_are_silent() -> None:
    """BEEP 70 and above: accepted and silent (the handheld has more sequences than our
    70 presets); there is nothing to render, and the other arguments are still checked."""
    with pytest.raises(OutOfRange, match=r"BEEP n .* out of range"):
        render(70)
    player = Sound(enabled=False)
    player.beep(70)
    player.beep(255, -8192, 0, 127)
    with pytest.raises(OutOfRange, match="BEEP vol"):
        player.beep(70, 0, 128)


def test_limits_are_accepted() -> None:
    for args in ((0, -8192, 0, 0), (69, 8192, 127, 127)):
        render(*args)


def test_non_integer_arguments_are_refused() -> None:
    with pytest.raises(TypeError):
        render(1.5)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Sound(enabled=False).beep(0, 0, 64.0)  # type: ignore[arg-type]
    render(np.int64(3), np.int32(-5))  # numpy integers are integers


def test_other_sample_rates() -> None:
    samples = render(Beep.NOTE_MID, sample_rate=44100)
    assert len(samples) == pytest.approx(2 * len(render(Beep.NOTE_MID)), abs=2)
    assert dominant_hz(samples, 44100) == pytest.approx(523.25, rel=0.01)


# ---------------------------------------------------------------------- playback


@pytest.fixture
def no_mixer() -> Iterator[None]:
    """Start and end each playback test with the mixer closed."""
    pygame.mixer.quit()
    yield
    pygame.mixer.quit()


def busy_channels() -> int:
    return sum(pygame.mixer.Channel(i).get_busy() for i in range(pygame.mixer.get_num_channels()))


@pytest.mark.usefixtures("no_mixer")
def test_enabled_sound_on_the_dummy_driver_plays_and_overlaps() -> None:
    player = Sound(enabled=True)
    assert player.enabled
    assert pygame.mixer.get_num_channels() >= sound.MIXER_CHANNELS
    player.beep()
    player.beep(Beep.EXPLOSION, pitch=-2000, vol=90, pan=10)
    player.beep(Beep.BELL)
    assert busy_channels() == 3
    player.close()
    assert not player.enabled
    assert pygame.mixer.get_init() is None  # it opened the mixer, so it closed it
    player.beep(Beep.COIN)  # after close: silent, no error


@pytest.mark.usefixtures("no_mixer")
def test_played_samples_are_the_rendered_ones() -> None:
    player = Sound(enabled=True)
    player.beep(Beep.JUMP, 100, 80, 30)
    played = pygame.sndarray.array(player._sound((int(Beep.JUMP), 100, 80, 30)))
    assert np.array_equal(played, render(Beep.JUMP, 100, 80, 30))
    player.close()


@pytest.mark.usefixtures("no_mixer")
def test_more_beeps_than_channels_steal_the_oldest() -> None:
    player = Sound(enabled=True)
    for _ in range(pygame.mixer.get_num_channels() + 5):
        player.beep(Beep.BELL)
    assert busy_channels() == pygame.mixer.get_num_channels()
    player.close()


@pytest.mark.usefixtures("no_mixer")
def test_uses_an_already_open_mixer_and_leaves_it_open() -> None:
    pygame.mixer.init(frequency=44100, size=-16, channels=1)
    player = Sound(enabled=True)
    assert player.enabled
    player.beep(Beep.NOTE_MID)
    played = pygame.sndarray.array(player._sound((int(Beep.NOTE_MID), 0, 127, 64)))
    assert played.ndim == 1 or played.shape[1] == 1
    assert dominant_hz(np.column_stack([played.reshape(-1)] * 2), 44100) == pytest.approx(
        523.25, rel=0.01
    )
    player.close()
    assert pygame.mixer.get_init() is not None


@pytest.mark.usefixtures("no_mixer")
def test_disabled_sound_never_opens_the_mixer() -> None:
    player = Sound(enabled=False)
    player.beep(Beep.ALARM)
    assert not player.enabled
    assert pygame.mixer.get_init() is None
    player.close()


@pytest.mark.usefixtures("no_mixer")
def test_no_audio_device_is_silent(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SDL_AUDIODRIVER", "no-such-driver")
    player = Sound(enabled=True)
    assert not player.enabled
    player.beep(Beep.COIN)
    with pytest.raises(OutOfRange):
        player.beep(-1)
    player.close()


@pytest.mark.usefixtures("no_mixer")
def test_mixer_shut_by_someone_else() -> None:
    """pygame.quit() at window close may shut the mixer before Sound.close runs."""
    player = Sound(enabled=True)
    player.beep(Beep.BELL)
    pygame.mixer.quit()
    player.beep(Beep.COIN)  # goes silent instead of raising
    assert not player.enabled
    player.close()
    other = Sound(enabled=True)
    other.beep(Beep.BELL)
    pygame.quit()
    other.close()
