"""The words of a language: the rulebook's fixed words (words.yaml, bundled, under the game's own words:), and the
English names of languages that messages use."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import yaml

DATA = Path(__file__).with_name("words.yaml")
SOURCE = "en"  # the words every other language falls back on, word by word
NAMES = {"ar": "Arabic", "cs": "Czech", "da": "Danish", "de": "German", "el": "Greek", "en": "English",
         "es": "Spanish", "fi": "Finnish", "fr": "French", "he": "Hebrew", "hi": "Hindi", "hu": "Hungarian",
         "it": "Italian", "ja": "Japanese", "ko": "Korean", "nl": "Dutch", "no": "Norwegian", "pl": "Polish",
         "pt": "Portuguese", "ru": "Russian", "sv": "Swedish", "tr": "Turkish", "uk": "Ukrainian", "zh": "Chinese"}


def language_name(tag: str) -> str:
    """A language as messages name it: German for de, Portuguese (BR) for pt-BR; an unknown tag as it is."""
    base, _, region = tag.partition("-")
    name = NAMES.get(base.lower(), tag)
    return f"{name} ({region})" if region and name != tag else name


@lru_cache(maxsize=None)
def bundled() -> dict[str, dict[str, str]]:
    """The bundled words, read once (words.yaml is part of Muster, not a user's file)."""
    return yaml.safe_load(DATA.read_text(encoding="utf-8"))


def fixed_words(language: str, own: dict[str, dict[str, str]]) -> dict[str, str]:
    """The fixed words of `language`: the game's own (`own`, by language), else Muster's in that language (or in
    its base language, de for de-CH), else in English."""
    words = dict(bundled()[SOURCE])
    for tag in (language.partition("-")[0], language):
        words.update(bundled().get(tag, {}))
        words.update(own.get(tag, {}))
    return words
