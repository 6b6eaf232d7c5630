"""Issue 14 item 4: the first draw of a seeded generator, computed without NumPy, is NumPy's draw.

:mod:`dunenb.pcg64_first` redoes NumPy's SeedSequence hashing, PCG64 seeding and first output in Python integers;
:class:`dunenb.seeding.SeededRng` uses it for a bot's one pick and a chance node's one uniform, then hands any
further draw to NumPy's own generator, advanced past the first. Every test compares with NumPy itself.
"""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dunenb.pcg64_first import first_below, first_uniform, seed_words
from dunenb.seeding import seeded_rng

WORD = st.integers(min_value=0, max_value=2**32 - 1)
WORDS = st.lists(WORD, min_size=1, max_size=9)  # fewer, as many and more words than SeedSequence's pool of four
COUNT = st.one_of(st.integers(min_value=1, max_value=200), st.integers(min_value=1, max_value=2**32 - 1),
                  st.sampled_from([2**31 + 1, 3 * 2**30, 2**32 - 1]))  # counts that reject draws often


@settings(max_examples=400, deadline=None)
@given(WORDS)
def test_issue14_seed_words_are_seedsequence_state(words: list[int]) -> None:
    assert seed_words(words) == [int(w) for w in np.random.SeedSequence(words).generate_state(8, np.uint32)]


@settings(max_examples=600, deadline=None)
@given(WORDS, COUNT)
def test_issue14_first_below_is_numpy_integers(words: list[int], count: int) -> None:
    assert first_below(words, count) == int(np.random.default_rng(words).integers(count))


@settings(max_examples=400, deadline=None)
@given(WORDS)
def test_issue14_first_uniform_is_numpy_random(words: list[int]) -> None:
    assert first_uniform(words) == np.random.default_rng(words).random()


def test_issue14_first_below_takes_counts_numpy_takes_on_its_32_bit_path_only() -> None:
    for count in (0, -1, 2**32):
        with pytest.raises(ValueError, match="from 1 to 2"):
            first_below([1], count)


@settings(max_examples=150, deadline=None)
@given(WORDS, COUNT, st.sampled_from(["integers", "random"]))
def test_issue14_draws_after_the_first_are_numpys(words: list[int], count: int, first: str) -> None:
    """A first draw made without NumPy, then more draws of several kinds: all as NumPy's generator draws them."""
    ours, numpy_rng = seeded_rng(words), np.random.default_rng(words)
    if first == "integers":
        assert ours.integers(count) == int(numpy_rng.integers(count))
    else:
        assert ours.random() == numpy_rng.random()
    assert ours.integers(count) == numpy_rng.integers(count)
    assert ours.random() == numpy_rng.random()
    assert list(ours.integers(0, 50, size=4)) == list(numpy_rng.integers(0, 50, size=4))
    assert list(ours.permutation(6)) == list(numpy_rng.permutation(6))


def test_issue14_other_first_calls_and_other_words_take_numpys_path() -> None:
    words = [4, 5, 6]
    assert list(seeded_rng(words).integers(3, size=5)) == list(np.random.default_rng(words).integers(3, size=5))
    assert seeded_rng(words).integers(2, 9) == np.random.default_rng(words).integers(2, 9)
    assert seeded_rng(words).integers(2**40) == np.random.default_rng(words).integers(2**40)
    assert list(seeded_rng(words).random(3)) == list(np.random.default_rng(words).random(3))
    assert seeded_rng([2**40, 3]).integers(10) == np.random.default_rng([2**40, 3]).integers(10)
    assert seeded_rng([2**40, 3]).random() == np.random.default_rng([2**40, 3]).random()
    with pytest.raises(ValueError):
        seeded_rng([-1, 2])  # NumPy's own error, at once


def test_issue14_a_bot_game_plays_without_importing_numpy() -> None:
    """Playing games draws every pick and chance outcome without NumPy, so a process that only plays (``dunenb
    new --play-turns``) never imports it."""
    code = ("import sys\nfrom dunenb.bots import make_bot\nfrom dunenb.engine import make_config\n"
            "from dunenb.simulate import play_game\n"
            "houses = ['atreides', 'harkonnen', 'fremen', 'emperor']\n"
            "config = make_config(houses, seed=2, turn_limit=2)\n"
            "for bot in ('random', 'heuristic'):\n"
            "    play_game(config, {h: make_bot(bot, seed=k) for k, h in enumerate(houses)})\n"
            "print('numpy' in sys.modules)\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "False"
