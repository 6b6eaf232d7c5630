"""Axis ticks for charts (issue 12): integer axes never repeat a tick, whatever their range.

>>> integer_ticks(1, 4)
[1, 2, 3, 4]
>>> integer_ticks(0, 47)
[0, 10, 20, 30, 40, 50]
>>> integer_ticks(3, 3)
[3]
"""

from __future__ import annotations

import math


def integer_ticks(low: float, high: float, *, most: int = 8) -> list[int]:
    """Whole-number ticks covering ``[low, high]`` with a step of 1, 2 or 5 times a power of ten, at most ``most``."""
    low, high = math.floor(low), math.ceil(high)
    if high <= low:
        return [int(low)]
    step = 1
    while (high - low) / step + 1 > most:
        for factor in (2, 2.5, 2):  # 1 → 2 → 5 → 10 → 20 → 50 ...
            step = int(step * factor)
            if (high - low) / step + 1 <= most:
                break
    start = low - low % step
    return list(range(int(start), int(high + (-high) % step) + 1, step))
