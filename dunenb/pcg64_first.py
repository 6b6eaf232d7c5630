"""The first draw of ``numpy.random.default_rng(words)``, computed in Python integers (issue 14 item 4).

NumPy seeds its default generator in two steps, both plain integer arithmetic:

1. :class:`numpy.random.SeedSequence` hashes the entropy words (32-bit) into a pool of four 32-bit words, then
   stretches the pool into four 64-bit words (``generate_state(4, uint64)``);
2. PCG64 takes the first two as its 128-bit start and the last two as its 128-bit stream (``pcg64_set_seed``).

A PCG64 step is ``state = state * MULTIPLIER + increment`` modulo 2**128, and its 64-bit output the high and low
halves of the new state xored and rotated right by the state's top six bits (XSL-RR). ``random()`` is the top 53
bits of one output over 2**53; ``integers(n)`` is Lemire's bounded draw on 32-bit halves of outputs (the low half
first), with NumPy's rejection threshold. The constants are NumPy's (``bit_generator.pyx``, ``pcg64.h``).

Only entropy words in ``0 .. 2**32 - 1`` are handled (each is then one word of NumPy's entropy array, as
:mod:`dunenb.seeding` checks); the tests compare every function with NumPy on thousands of seeds.

>>> import numpy as np
>>> first_uniform([5, 17]) == np.random.default_rng([5, 17]).random()
True
>>> first_below([1, 2, 3, 4, 5], 10) == int(np.random.default_rng([1, 2, 3, 4, 5]).integers(10))
True
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

_MASK32 = 0xFFFFFFFF
_MASK64 = (1 << 64) - 1
_MASK128 = (1 << 128) - 1
_POOL_SIZE = 4  # SeedSequence's DEFAULT_POOL_SIZE
_MIX_LEFT, _MIX_RIGHT = 0xCA01F9DD, 0x4973F715  # SeedSequence's MIX_MULT_L, MIX_MULT_R
_PCG_MULTIPLIER = (2549297995355413924 << 64) | 4865540595714422341  # PCG_DEFAULT_MULTIPLIER_128


def _hash_constants(start: int, multiplier: int, count: int) -> tuple[tuple[int, int], ...]:
    """The (xor, multiply) constant pairs of SeedSequence's successive ``hashmix`` calls: the hash constant
    before and after its update (``hash_const *= multiplier``), which do not depend on the words hashed."""
    pairs, constant = [], start
    for _ in range(count):
        following = (constant * multiplier) & _MASK32
        pairs.append((constant, following))
        constant = following
    return tuple(pairs)


#: SeedSequence's ``mix(pool[target], hashmix(pool[source]))`` steps, (source, target) in order: each source in
#: turn into every other target (:func:`seed_words` writes them out in this order)
_PAIRS = tuple((source, target) for source in range(_POOL_SIZE) for target in range(_POOL_SIZE) if source != target)
_MULTIPLY_A = 0x931E8875  # MULT_A
_MIXING = _hash_constants(0x43B0D7E5, _MULTIPLY_A, _POOL_SIZE + len(_PAIRS))  # INIT_A, MULT_A: the pool's hashes
_MIX_CONSTANTS = _MIXING[_POOL_SIZE:]  # the hash constants of the pool mixes, one per pair of _PAIRS
_OUTPUT = _hash_constants(0x8B51F9DD, 0x58F38DED, 2 * _POOL_SIZE)  # INIT_B, MULT_B: generate_state's hashes


def seed_words(words: Sequence[int]) -> list[int]:
    """``SeedSequence(words).generate_state(8, numpy.uint32)``: the eight 32-bit words PCG64 is seeded with
    (``generate_state(4, uint64)`` read as little-endian pairs).

    The pool's four words are four local integers and SeedSequence's fixed steps are written out one by one (its
    12 pool mixes in :data:`_PAIRS`'s order and its 8 output hashes, with the constants of :data:`_MIX_CONSTANTS`
    and :data:`_OUTPUT`): issue 14 item 4, a bot game seeds about 1,200 generators, and a loop over the steps
    took a third longer (16.1 against 12.2 us a call, timeit).

    >>> import numpy as np
    >>> seed_words([7, 8, 9]) == list(np.random.SeedSequence([7, 8, 9]).generate_state(8, np.uint32))
    True
    """
    mask, left, right = _MASK32, _MIX_LEFT, _MIX_RIGHT
    count = len(words)
    # mix_entropy: each of the first four words hashed in, zeros past the last
    (x0, m0), (x1, m1), (x2, m2), (x3, m3) = _MIXING[:_POOL_SIZE]
    h = ((words[0] if count > 0 else 0) ^ x0) * m0 & mask
    p0 = h ^ (h >> 16)
    h = ((words[1] if count > 1 else 0) ^ x1) * m1 & mask
    p1 = h ^ (h >> 16)
    h = ((words[2] if count > 2 else 0) ^ x2) * m2 & mask
    p2 = h ^ (h >> 16)
    h = ((words[3] if count > 3 else 0) ^ x3) * m3 & mask
    p3 = h ^ (h >> 16)
    # each pool word mixed into the others: sources 0, 1, 2, 3 in turn, each into the other targets in order
    (x0, m0), (x1, m1), (x2, m2), (x3, m3), (x4, m4), (x5, m5), (x6, m6), (x7, m7), (x8, m8), (x9, m9), \
        (x10, m10), (x11, m11) = _MIX_CONSTANTS
    h = (p0 ^ x0) * m0 & mask
    v = (left * p1 - right * (h ^ (h >> 16))) & mask
    p1 = v ^ (v >> 16)
    h = (p0 ^ x1) * m1 & mask
    v = (left * p2 - right * (h ^ (h >> 16))) & mask
    p2 = v ^ (v >> 16)
    h = (p0 ^ x2) * m2 & mask
    v = (left * p3 - right * (h ^ (h >> 16))) & mask
    p3 = v ^ (v >> 16)
    h = (p1 ^ x3) * m3 & mask
    v = (left * p0 - right * (h ^ (h >> 16))) & mask
    p0 = v ^ (v >> 16)
    h = (p1 ^ x4) * m4 & mask
    v = (left * p2 - right * (h ^ (h >> 16))) & mask
    p2 = v ^ (v >> 16)
    h = (p1 ^ x5) * m5 & mask
    v = (left * p3 - right * (h ^ (h >> 16))) & mask
    p3 = v ^ (v >> 16)
    h = (p2 ^ x6) * m6 & mask
    v = (left * p0 - right * (h ^ (h >> 16))) & mask
    p0 = v ^ (v >> 16)
    h = (p2 ^ x7) * m7 & mask
    v = (left * p1 - right * (h ^ (h >> 16))) & mask
    p1 = v ^ (v >> 16)
    h = (p2 ^ x8) * m8 & mask
    v = (left * p3 - right * (h ^ (h >> 16))) & mask
    p3 = v ^ (v >> 16)
    h = (p3 ^ x9) * m9 & mask
    v = (left * p0 - right * (h ^ (h >> 16))) & mask
    p0 = v ^ (v >> 16)
    h = (p3 ^ x10) * m10 & mask
    v = (left * p1 - right * (h ^ (h >> 16))) & mask
    p1 = v ^ (v >> 16)
    h = (p3 ^ x11) * m11 & mask
    v = (left * p2 - right * (h ^ (h >> 16))) & mask
    p2 = v ^ (v >> 16)
    if count > _POOL_SIZE:  # each word past the pool's size into every pool word, the hash constant going on
        pool = [p0, p1, p2, p3]
        extra = _hash_constants(_MIXING[-1][1], _MULTIPLY_A, _POOL_SIZE * (count - _POOL_SIZE))
        for step, (xor, multiply) in enumerate(extra):
            h = (words[_POOL_SIZE + step // _POOL_SIZE] ^ xor) * multiply & mask
            target = step % _POOL_SIZE
            v = (left * pool[target] - right * (h ^ (h >> 16))) & mask
            pool[target] = v ^ (v >> 16)
        p0, p1, p2, p3 = pool
    # generate_state: the pool cycled twice, each word hashed out
    (x0, m0), (x1, m1), (x2, m2), (x3, m3), (x4, m4), (x5, m5), (x6, m6), (x7, m7) = _OUTPUT
    h0 = (p0 ^ x0) * m0 & mask
    h1 = (p1 ^ x1) * m1 & mask
    h2 = (p2 ^ x2) * m2 & mask
    h3 = (p3 ^ x3) * m3 & mask
    h4 = (p0 ^ x4) * m4 & mask
    h5 = (p1 ^ x5) * m5 & mask
    h6 = (p2 ^ x6) * m6 & mask
    h7 = (p3 ^ x7) * m7 & mask
    return [h0 ^ (h0 >> 16), h1 ^ (h1 >> 16), h2 ^ (h2 >> 16), h3 ^ (h3 >> 16),
            h4 ^ (h4 >> 16), h5 ^ (h5 >> 16), h6 ^ (h6 >> 16), h7 ^ (h7 >> 16)]


def _seeded(words: Sequence[int]) -> tuple[int, int]:
    """PCG64's (state, increment) once seeded from ``words`` (``pcg_setseq_128_srandom_r``: the state starts
    at 0, takes a step, adds the start value and takes another step)."""
    return _seeded_from(tuple(words))


@lru_cache(maxsize=4096)
def _seeded_from(words: tuple[int, ...]) -> tuple[int, int]:
    """:func:`_seeded` of a tuple, cached: a pure function of the words, and the words repeat (issue 14 item 4: a
    bot seeds its pick from its seed and the position's counters, which stay the same over the decisions that
    draw no chance, such as a round of Karama windows: about half the seedings of a random-bot game repeat one
    made shortly before)."""
    w = seed_words(words)
    start = (w[1] << 96) | (w[0] << 64) | (w[3] << 32) | w[2]  # uint64 word 0 high, word 1 low
    increment = (((w[5] << 96) | (w[4] << 64) | (w[7] << 32) | w[6]) << 1 | 1) & _MASK128
    return ((increment + start) * _PCG_MULTIPLIER + increment) & _MASK128, increment


def _output(state: int) -> int:
    """PCG64's XSL-RR output of a state: its two halves xored, rotated right by its top six bits."""
    folded = ((state >> 64) ^ state) & _MASK64
    rotation = state >> 122
    return ((folded >> rotation) | (folded << (64 - rotation))) & _MASK64 if rotation else folded


def first_uniform(words: Sequence[int]) -> float:
    """``numpy.random.default_rng(words).random()``: the first output's top 53 bits over 2**53."""
    state, increment = _seeded(words)
    return (_output((state * _PCG_MULTIPLIER + increment) & _MASK128) >> 11) * (1.0 / 9007199254740992.0)


def first_below(words: Sequence[int], count: int) -> int:
    """``numpy.random.default_rng(words).integers(count)`` for ``1 <= count < 2**32``: Lemire's draw on 32-bit
    halves of the outputs (NumPy's ``buffered_bounded_lemire_uint32``), redrawn while the product's low word is
    under NumPy's threshold ``(2**32 - count) % count``."""
    if not 0 < count <= _MASK32:
        raise ValueError(f"count {count!r}: from 1 to 2**32 - 1")
    state, increment = _seeded(words)
    high: int | None = None  # the unused upper half of the last output (PCG64's next_uint32 buffer)
    while True:
        if high is None:
            state = (state * _PCG_MULTIPLIER + increment) & _MASK128
            output = _output(state)
            half, high = output & _MASK32, output >> 32
        else:
            half, high = high, None
        product = half * count
        low = product & _MASK32
        if low >= count or low >= (_MASK32 - (count - 1)) % count:  # NumPy tests the cheap bound first
            return product >> 32
