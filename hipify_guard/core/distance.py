"""How far apart two words are (for near misses of macro names, rule codes and suppressions)."""

from __future__ import annotations


def edit_distance(a: str, b: str, limit: int) -> int:
    """Optimal-string-alignment distance of `a` and `b`, or `limit + 1` when it exceeds `limit`.

    Only the band |i - j| <= limit of the table is computed: cells outside it exceed the limit.
    """
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    if a == b:
        return 0
    over = limit + 1
    previous2: list[int] = []
    previous = [j if j <= limit else over for j in range(len(b) + 1)]
    for i, char in enumerate(a, start=1):
        current = [over] * (len(b) + 1)
        current[0] = i if i <= limit else over
        for j in range(max(1, i - limit), min(len(b), i + limit) + 1):
            other = b[j - 1]
            value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (char != other))
            if i > 1 and j > 1 and char == b[j - 2] and a[i - 2] == other:
                value = min(value, previous2[j - 2] + 1)
            current[j] = min(value, over)
        if min(current) > limit:
            return over
        previous2, previous = previous, current
    return min(previous[-1], over)
