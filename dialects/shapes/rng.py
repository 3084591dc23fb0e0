"""Shape rules of the random number generators."""

from __future__ import annotations

from .common import Shape, ShapeError, fmt

# Valid sizes of the u64 state of each RngBitGenerator algorithm; DEFAULT is XLA's
# backend default, Philox, so it takes Philox's states.
RNG_STATE_SIZES: dict[str, tuple[int, ...]] = {
    "DEFAULT": (2, 3),
    "THREE_FRY": (2,),
    "PHILOX": (2, 3),
}


def check_rng_state(algorithm: str, state: Shape) -> None:
    """RngBitGenerator: the state is a vector whose size the algorithm fixes (THREE_FRY: 2;
    PHILOX and DEFAULT: 2 or 3)."""
    sizes = RNG_STATE_SIZES[algorithm]
    if len(state) != 1 or state[0] not in sizes:
        allowed = " or ".join(f"[{n}]" for n in sizes)
        raise ShapeError(
            f"initial_state shape {fmt(state)} does not suit {algorithm}; expected {allowed}"
        )


