"""Errors and small helpers shared by every shape function.

Shape functions are pure: they take shapes (tuples of ints) and integer parameters,
return result shapes, and raise `ShapeError` with a message naming the offending
values. Op verifiers call them and turn `ShapeError` into a verifier diagnostic; the
same functions give type inference, so the two can never disagree.
"""

from __future__ import annotations

from collections.abc import Sequence

Shape = tuple[int, ...]


class ShapeError(ValueError):
    """A rule of the spec is broken; the message names the rule and the values."""


def fmt(values: Sequence[int]) -> str:
    """Print integer tuples the way the diagnostics quote them: `[0, 1]`."""
    return "[" + ", ".join(str(int(v)) for v in values) + "]"


def check_in_range(values: Sequence[int], upper: int, what: str) -> None:
    """Every value is a valid dimension index in [0, upper)."""
    bad = [v for v in values if not 0 <= v < upper]
    if bad:
        raise ShapeError(f"{what} {fmt(values)} out of range [0, {upper}): {fmt(bad)}")


def check_unique(values: Sequence[int], what: str) -> None:
    seen: set[int] = set()
    dup = [v for v in values if v in seen or seen.add(v)]  # type: ignore[func-returns-value]
    if dup:
        raise ShapeError(f"{what} {fmt(values)} has repeated values {fmt(sorted(set(dup)))}")


def check_sorted(values: Sequence[int], what: str, strict: bool = True) -> None:
    ok = all(a < b if strict else a <= b for a, b in zip(values, values[1:]))
    if not ok:
        kind = "strictly increasing" if strict else "sorted"
        raise ShapeError(f"{what} {fmt(values)} must be {kind}")


def check_permutation(values: Sequence[int], rank: int, what: str) -> None:
    if sorted(values) != list(range(rank)):
        raise ShapeError(
            f"{what} {fmt(values)} is not a permutation of {fmt(range(rank))}"
        )


def num_elements(shape: Sequence[int]) -> int:
    n = 1
    for d in shape:
        n *= int(d)
    return n
