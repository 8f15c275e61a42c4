"""The table's sounds, made from numbers at start (no files, no network), and the spoken ruling.

Four short cues: the dice coming to rest (three soft wooden knocks), a ruling (two mellow notes
a fourth apart), a win (a rising four-note arpeggio) and "throw again" (two falling notes). All
are sine partials under a fast attack and an exponential decay, quiet and under a second long,
so eight hours of them stay pleasant. Volume and mute come from `[sound]`; with no audio device
the kiosk stays silent and says so once in the log.

The spoken ruling (`[sound] speech = true`) runs espeak-ng, the Pi's own speech package, as a
separate process in the visitor's language; without it installed the kiosk skips it quietly.
The text on the screen stays the caption.

`python -m kiosk.sound DIR` writes the cues as WAV files to look at (sox stat, spectrogram).
"""

from __future__ import annotations

import logging
import shutil
import subprocess
import sys
import wave
from pathlib import Path
from typing import Any

import numpy as np

log = logging.getLogger(__name__)

RATE = 22_050  # samples a second: plenty for cues under 4 kHz
ARPEGGIO = (523.3, 659.3, 784.0, 1046.5)  # C5 E5 G5 C6, the win
# espeak-ng voices are named by language code; only English needs a choice of accent.
VOICES = {"en": "en-gb"}


def _note(freq: float, seconds: float, decay: float, partials=((1, 1.0), (2, 0.25), (3, 0.08))):
    """A soft bell-like note: a few sine partials, 5 ms attack, exponential decay."""
    t = np.arange(int(RATE * seconds)) / RATE
    tone = sum(weight * np.sin(2 * np.pi * freq * k * t) for k, weight in partials)
    envelope = np.minimum(1.0, t / 0.005) * np.exp(-t / decay)
    return _fade_out(tone * envelope)


def _fade_out(samples: np.ndarray, seconds: float = 0.03) -> np.ndarray:
    """The last few milliseconds faded to silence: a note cut short clicks."""
    n = min(samples.size, int(RATE * seconds))
    samples = samples.copy()
    samples[samples.size - n :] *= np.linspace(1.0, 0.0, n)
    return samples


def _knock(seconds: float = 0.09, seed: int = 0) -> np.ndarray:
    """A wooden knock: a low damped tone under a short burst of smoothed noise."""
    t = np.arange(int(RATE * seconds)) / RATE
    noise = np.random.default_rng(seed).standard_normal(t.size)
    noise = np.convolve(noise, np.ones(6) / 6, mode="same")  # take the hiss off
    body = np.sin(2 * np.pi * 180 * t) + 0.5 * np.sin(2 * np.pi * 410 * t)
    return _fade_out((0.6 * body + 0.35 * noise) * np.exp(-t / 0.018))


def _place(parts: list[tuple[float, np.ndarray]], seconds: float) -> np.ndarray:
    out = np.zeros(int(RATE * seconds))
    for start, samples in parts:
        i = int(start * RATE)
        n = min(samples.size, out.size - i)
        out[i : i + n] += samples[:n]
    return out


def cues() -> dict[str, np.ndarray]:
    """Every cue as float samples in -1..1 (mono, RATE per second)."""
    made = {
        "landing": _place(
            [(0.0, _knock(seed=1)), (0.11, 0.7 * _knock(seed=2)), (0.19, 0.45 * _knock(seed=3))],
            0.32,
        ),  # fmt: skip
        "ruling": _place([(0.0, _note(587.3, 0.45, 0.12)), (0.12, _note(784.0, 0.5, 0.16))], 0.62),
        "win": _place(
            [(0.13 * i, _note(f, 1.1 - 0.13 * i, 0.22)) for i, f in enumerate(ARPEGGIO)], 1.1
        ),
        "again": _place([(0.0, _note(440.0, 0.4, 0.12)), (0.14, _note(329.6, 0.45, 0.15))], 0.6),
    }
    return {
        name: samples / max(1e-9, float(np.abs(samples).max())) * 0.8
        for name, samples in made.items()
    }


def pcm(samples: np.ndarray, volume: float) -> np.ndarray:
    """Float samples at `volume` as 16-bit stereo frames, the mixer's format."""
    mono = np.clip(samples * volume, -1.0, 1.0)
    frames = (mono * 32767).astype(np.int16)
    return np.ascontiguousarray(np.column_stack([frames, frames]))


def write_wavs(folder: Path, volume: float = 1.0) -> list[Path]:
    """The cues as WAV files (16-bit stereo at RATE), to listen to or measure."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, samples in cues().items():
        path = folder / f"{name}.wav"
        with wave.open(str(path), "wb") as out:
            out.setnchannels(2)
            out.setsampwidth(2)
            out.setframerate(RATE)
            out.writeframes(pcm(samples, volume).tobytes())
        paths.append(path)
    return paths


class Sounds:
    """Plays the cues through pygame's mixer; silent when muted or when there is no device."""

    def __init__(self, config: Any) -> None:
        self.enabled = bool(config.enabled) and config.volume > 0
        self.volume = float(config.volume)
        self.speech = bool(config.speech)
        self._sounds: dict[str, Any] | None = None  # made on first use
        self._channel: Any = None
        self._speaker: subprocess.Popen | None = None
        self._espeak: str | None | bool = False  # False: not looked for yet
        self.played: list[str] = []  # the cues asked for, newest last (the maintenance log)

    def _load(self) -> bool:
        if self._sounds is not None:
            return bool(self._sounds)
        self._sounds = {}
        try:
            import pygame

            if not pygame.mixer.get_init():
                pygame.mixer.init(frequency=RATE, size=-16, channels=2, buffer=512)
            rate, _, channels = pygame.mixer.get_init()
            for name, samples in cues().items():
                if rate != RATE:  # the device kept its own rate: resample by index
                    index = np.arange(int(samples.size * rate / RATE)) * RATE / rate
                    samples = np.interp(index, np.arange(samples.size), samples)
                frames = pcm(samples, self.volume)
                if channels == 1:
                    frames = np.ascontiguousarray(frames[:, 0])
                self._sounds[name] = pygame.sndarray.make_sound(frames)
            self._channel = pygame.mixer.Channel(0)
        except Exception as error:  # no sound card, no driver: the table stays silent
            log.warning("no sound: %s", error)
            self._sounds = {}
        return bool(self._sounds)

    def play(self, name: str) -> None:
        """Play cue `name` after the one playing (a ruling waits for the dice to land)."""
        if not self.enabled:
            return
        self.played = [*self.played[-9:], name]
        if not self._load() or name not in self._sounds:
            return
        try:
            sound = self._sounds[name]
            if self._channel.get_busy():
                self._channel.queue(sound)
            else:
                self._channel.play(sound)
        except Exception as error:
            log.warning("cannot play %s: %s", name, error)

    def speak(self, sentence: str, language: str) -> None:
        """Say `sentence` with espeak-ng, when speech is on and espeak-ng is installed."""
        if not (self.enabled and self.speech and sentence):
            return
        if self._espeak is False:
            self._espeak = shutil.which("espeak-ng")
            if self._espeak is None:
                log.warning("speech is on but espeak-ng is not installed: rulings stay silent")
        if not self._espeak:
            return
        if self._speaker is not None and self._speaker.poll() is None:
            self._speaker.terminate()  # a new ruling replaces one still being spoken
        amplitude = str(round(200 * self.volume))
        command = [self._espeak, "-v", VOICES.get(language, language), "-a", amplitude, sentence]
        try:
            self._speaker = subprocess.Popen(
                command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
            )
        except OSError as error:
            log.warning("cannot speak: %s", error)
            self._espeak = None


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    folder = Path(args[0] if args else "sounds")
    for path in write_wavs(folder):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
