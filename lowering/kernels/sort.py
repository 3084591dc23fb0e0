"""`xla_opt_sort_<variant>`: an LSD radix sort of the rows of an array of integer or float
keys, emitted as LLVM IR text, one small module per variant (key type, compare type,
direction, digit width, whether a permutation is returned), compiled once per process
on first use (`runtime.bind_kernel_symbols`).

    void xla_opt_sort_<variant>(i64 outer, i64 n, i64 inner, iW* src, iW* dst[, i32* perm])

sorts every row of `src` (shape outer x n x inner, row-major: the row (o, i) has its
element k at src[(o * n + k) * inner + i]) into the same place of `dst`, and (`perm`)
writes each result element's position in its source row into `perm` (an i32 array of
the same shape), which the lowering gathers the payload operands through.

It is the sort of an xla.sort whose comparator is one LT or GT compare of the first
operand's pair: stable (equal keys keep their input order), so it gives the
interpreter's order exactly. Keys (`SortVariant.encode`) are the order-preserving
unsigned integers of XLA's comparisons: the bits (UNSIGNED), the sign bit flipped
(SIGNED), TOTALORDER for floats (negatives with every bit flipped, positives with the
sign bit flipped: -NaN < -inf < ... < -0 < +0 < ... < +inf < +NaN), and under FLOAT
-0 as +0 (they tie) and every NaN as one positive NaN (unordered: they go last under
LT, first under GT, in input order, np.sort's choice); GT inverts every key bit.

Per row, with a team of T threads (each owns a contiguous chunk of the row):
* one read pass counts every digit of every key (a histogram per digit and thread);
  a digit in which all keys agree (one non-empty bucket: the sign and exponent bits
  of a small range, the high bytes of small integers) is not sorted by;
* each remaining digit, low first, is one stable scatter pass: a thread's elements go
  to its bucket's start plus the counts of that bucket in the chunks before it (so
  the result does not depend on T). The first pass reads `src` and encodes the keys,
  the last decodes them into `dst` (no separate transform passes); the passes between
  ping-pong through one scratch buffer and `dst` itself (a contiguous row), arranged
  so that the last pass writes `dst`; with several threads each pass after the first
  counts its chunk of the previous pass's output first;
* under FLOAT a decoded key is +0 for -0 and one NaN for every NaN: when the row has
  zeros or NaNs, one more pass over `src` writes those elements' own bits over their
  regions of `dst`, in input order (which is their stable order).

Rows are split over the threads when there are at least T of them; fewer, long rows
are each sorted by the whole team (libgomp's `GOMP_parallel`, `GOMP_barrier` between
the passes). Below PARALLEL_MIN_ELEMENTS elements, one thread.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace

from xla_opt.lowering.kernels.gemm import Emitter
from xla_opt.lowering.kernels.threads import NUM_THREADS

PREFIX = "xla_opt_sort_"
STREAMS = 4  # chunks per thread, scattered in step (see _scatter)
PARALLEL_MIN_ELEMENTS = 1 << 16  # ~0.3 ms of sorting: below that, waking a team costs more

# Digits of 11 bits (3 passes for 32-bit keys instead of 4) for rows of 2^14 elements
# and more: the 2048 counters per digit stay in L1 and the 2048 buckets being written
# at once in L2; shorter rows would spend more time on the counters than on the keys.
WIDE_DIGIT_LENGTH = 1 << 14

# (convert-xla-to-linalg's choices, here with the kernels they are measured on and
# for the runtime's guesses from a program's text, `binding.prefetch_by_text`.)
# The default of convert-xla-to-linalg's `radix-sort-min-length`: shorter rows are
# merge-sorted, since a radix sort clears and sums its counters (256 per digit) for
# every row, which costs more than sorting a few elements by comparisons (measured on
# f32 rows: the merge sort wins at 16, the radix sort at 32 and longer).
RADIX_MIN_LENGTH = 24

# A sort whose results are only sliced to their first k takes the top-k kernel (a heap
# of k per row) when k is at most 1/TOP_K_MAX_FRACTION of the row, or the row is too
# short for the radix sort; else the whole row is sorted and sliced. Measured on 1M
# f32 with positions: the heap takes 0.2 ms for k = 16, 2.2 ms for 4096, 13 ms for
# 32768 (n/32), where the sort takes 14 ms, and 40 ms for n/8.
TOP_K_MAX_FRACTION = 32


def radix_digit_bits(n: int, width: int) -> int:
    """The digits of a sort of rows of n `width`-bit keys: 11 bits for long rows
    (WIDE_DIGIT_LENGTH) of 32- and 64-bit keys, else 8."""
    return 11 if n >= WIDE_DIGIT_LENGTH and width >= 32 else 8


def takes_top_k_kernel(k: int, n: int, min_length: int = RADIX_MIN_LENGTH) -> bool:
    """Whether a sort of rows of n keys, sliced to their first k, is the top-k kernel
    (TOP_K_MAX_FRACTION), given the shortest row the sort kernels take (`min_length`)."""
    return k * TOP_K_MAX_FRACTION <= n or n < min_length


_KINDS = {"f": "float", "bf": "bfloat", "i": "int"}
_CTYPES = ("float", "totalorder", "signed", "unsigned")


@dataclass(frozen=True)
class SortVariant:
    """What one kernel is specialized for: the key's kind (f: IEEE float, bf: bfloat16,
    i: integer) and width in bits, XLA's compare type (lower case), the direction,
    the digit width and whether it writes the permutation."""

    kind: str
    width: int
    ctype: str
    descending: bool
    digit_bits: int
    perm: bool
    # The vector quicksort's vector width in bits (`vector_quicksort`), 0 for the radix
    # sort: chosen by the host CPU when the kernel is built, so not part of the symbol
    # (the lowering calls one entry point either way).
    vector_bits: int = 0

    def __post_init__(self) -> None:
        assert self.kind in _KINDS and self.ctype in _CTYPES and self.width in (8, 16, 32, 64)
        assert self.vector_bits in (0, 256, 512)

    @property
    def symbol(self) -> str:
        direction = "gt" if self.descending else "lt"
        return (
            f"{PREFIX}{self.kind}{self.width}_{self.ctype}_{direction}_d{self.digit_bits}{'_perm' if self.perm else ''}"
        )

    @staticmethod
    def from_symbol(symbol: str) -> SortVariant:
        """The variant a symbol names (the inverse of `symbol`)."""
        match = re.fullmatch(rf"{PREFIX}(bf|f|i)(\d+)_([a-z]+)_(lt|gt)_d(\d+)(_perm)?", symbol)
        if match is None:
            raise ValueError(f"not a sort kernel symbol: {symbol}")
        kind, width, ctype, direction, bits, perm = match.groups()
        return SortVariant(kind, int(width), ctype, direction == "gt", int(bits), perm is not None)

    @property
    def floating(self) -> bool:
        return self.kind != "i"

    @property
    def passes(self) -> int:
        return -(-self.width // self.digit_bits)

    @property
    def radix(self) -> int:
        return 1 << self.digit_bits

    @property
    def int_type(self) -> str:
        return f"i{self.width}"

    def const(self, value: int) -> int:
        """`value` as a signed iW literal (LLVM's parser wants it in range)."""
        value &= (1 << self.width) - 1
        return value - (1 << self.width) if value >> (self.width - 1) else value

    @property
    def sign(self) -> int:
        return self.const(1 << (self.width - 1))

    @property
    def infinity(self) -> int:
        """The bits of +inf (every exponent bit set)."""
        if self.kind == "bf":
            return 0x7F80
        return {16: 0x7C00, 32: 0x7F800000, 64: 0x7FF0000000000000}[self.width]

    @property
    def canonicalizes(self) -> bool:
        """FLOAT: -0 as +0 and every NaN as one NaN, so a key does not give its element back."""
        return self.floating and self.ctype == "float"

    def encode(self, e: Emitter, bits: str, lanes: int = 1) -> str:
        """The key of the element with these bits (an iW, or a vector of `lanes` of them)."""
        w = self.width
        t, b = (self.int_type, "i1") if lanes == 1 else (f"<{lanes} x {self.int_type}>", f"<{lanes} x i1>")

        def c(value: int) -> str:
            return str(value) if lanes == 1 else f"splat ({self.int_type} {value})"

        if self.canonicalizes:
            magnitude = e.value(f"and {t} {bits}, {c(self.const((1 << (w - 1)) - 1))}")
            zero = e.value(f"icmp eq {t} {magnitude}, {c(0)}")
            bits = e.value(f"select {b} {zero}, {t} {c(0)}, {t} {bits}")
            nan = e.value(f"icmp ugt {t} {magnitude}, {c(self.infinity)}")
            bits = e.value(f"select {b} {nan}, {t} {c(self.const((1 << (w - 1)) - 1))}, {t} {bits}")
        if self.floating:
            negative = e.value(f"ashr {t} {bits}, {c(w - 1)}")
            key = e.value(f"xor {t} {bits}, {e.value(f'or {t} {negative}, {c(self.sign)}')}")
        elif self.ctype == "signed":
            key = e.value(f"xor {t} {bits}, {c(self.sign)}")
        else:
            key = bits
        return e.value(f"xor {t} {key}, {c(-1)}") if self.descending else key

    def decode(self, e: Emitter, key: str, lanes: int = 1) -> str:
        """The bits of the element with this key (an iW, or a vector of `lanes`): under
        FLOAT +0 for a zero and one NaN for every NaN."""
        t, b = (self.int_type, "i1") if lanes == 1 else (f"<{lanes} x {self.int_type}>", f"<{lanes} x i1>")

        def c(value: int) -> str:
            return str(value) if lanes == 1 else f"splat ({self.int_type} {value})"

        if self.descending:
            key = e.value(f"xor {t} {key}, {c(-1)}")
        if not self.floating:
            return e.value(f"xor {t} {key}, {c(self.sign)}") if self.ctype == "signed" else key
        positive = e.value(f"icmp slt {t} {key}, {c(0)}")
        flip = e.value(f"select {b} {positive}, {t} {c(self.sign)}, {t} {c(-1)}")
        return e.value(f"xor {t} {key}, {flip}")

    def key_of(self, bits: int) -> int:
        """The (final, direction applied) key of the element with these bits, as iW literal."""
        w, value = self.width, bits
        negative = value >> (w - 1) & 1
        key = value ^ ((1 << w) - 1 if negative else 1 << (w - 1)) if self.floating else value
        if self.descending:
            key ^= (1 << w) - 1
        return self.const(key)


def _load(e: Emitter, ty: str, base: str, index: str, hint: str = "v") -> str:
    return e.value(f"load {ty}, ptr {e.gep(base, index, ty)}", hint)


def _store(e: Emitter, ty: str, value: str, base: str, index: str) -> None:
    e.emit(f"store {ty} {value}, ptr {e.gep(base, index, ty)}")


def _digit(e: Emitter, v: SortVariant, key: str, shift: int | str) -> str:
    """The digit of `key` at bit `shift` (an i64) as an i64 bucket index."""
    t = v.int_type
    if isinstance(shift, str) and v.width != 64:
        shift = e.value(f"trunc i64 {shift} to {t}")
    shifted = e.value(f"lshr {t} {key}, {shift}") if shift != 0 else key
    masked = e.value(f"and {t} {shifted}, {v.const(v.radix - 1)}")
    return masked if v.width == 64 else e.value(f"zext {t} {masked} to i64")


def _bump(e: Emitter, counters: str, bucket: str) -> str:
    """counters[bucket] += 1; the old count, as an i64."""
    at = e.gep(counters, bucket, "i32")
    old = e.value(f"load i32, ptr {at}, align 4")
    e.emit(f"store i32 {e.value(f'add i32 {old}, 1')}, ptr {at}, align 4")
    return e.value(f"zext i32 {old} to i64")


def _element(e: Emitter, v: SortVariant, first: bool, last: bool, k: str, offs: str) -> None:
    """Element k of a scatter pass to offs[digit]++ (see _scatter)."""
    t = v.int_type
    if first:
        raw = _load(e, t, "%in", e.mul(k, "%in_stride"), "raw")
        key = v.encode(e, raw)
    else:
        raw, key = "", _load(e, t, "%in", k, "key")
    to = _bump(e, offs, _digit(e, v, key, "%shift"))
    if last:
        out_at = e.mul(to, "%out_stride")
        _store(e, t, raw if first else v.decode(e, key), "%out", out_at)
    else:
        out_at = to
        _store(e, t, key, "%out", out_at)
    if v.perm:
        index = e.value(f"trunc i64 {k} to i32") if first else _load(e, "i32", "%in_idx", k, "idx")
        _store(e, "i32", index, "%out_idx", out_at)


def _scatter(v: SortVariant, first: bool, last: bool) -> str:
    """One stable scatter pass over a thread's STREAMS chunks of a row (chunk j: the
    elements [bounds[j], bounds[j + 1]), its bucket offsets in its counter slot of
    `slots`) by the digit at `shift`: each element goes to offs[digit]++. The chunks
    are walked in step, one element of each per trip: their offsets are independent,
    so a store's address (known only once its offset is loaded) does not hold up the
    next element's offset load (one chunk at a time ran 1.6x slower). The first pass
    reads the source (stride `in_stride`) and encodes, the last decodes into the
    result (stride `out_stride`); the positions lane (the element's index on the first
    pass) moves along."""
    e = Emitter()
    slot = v.passes * v.radix + v.radix
    bounds = [_load(e, "i64", "%bounds", str(j), "lo") for j in range(STREAMS + 1)]
    offs = [e.gep("%slots", j * slot + v.passes * v.radix, "i32") for j in range(STREAMS)]
    lengths = [e.value(f"sub i64 {bounds[j + 1]}, {bounds[j]}") for j in range(STREAMS)]
    shortest = lengths[0]
    for length in lengths[1:]:
        shortest = e.min(shortest, length)
    with e.loop(0, shortest, hint="k") as k:
        for j in range(STREAMS):
            _element(e, v, first, last, e.add(bounds[j], k), offs[j])
    for j in range(STREAMS):  # what is left of each chunk (at most one element: equal chunks)
        with e.loop(e.add(bounds[j], shortest), bounds[j + 1], hint="tail") as k:
            _element(e, v, first, last, k, offs[j])
    name = f"{'first' if first else 'mid'}{'_last' if last else ''}"
    return e.function(
        f"internal void @{v.symbol}_scatter_{name}(ptr noalias %in, i64 %in_stride, ptr noalias %in_idx, "
        "ptr noalias %out, i64 %out_stride, ptr noalias %out_idx, ptr noalias %slots, ptr noalias %bounds, "
        "i64 %shift) nounwind"
    )


def _count(e: Emitter, v: SortVariant, counters: str, keys: str, lo: str, hi: str, shift: int | str) -> None:
    """counters[digit at `shift` of keys[k]]++ for k in [lo, hi) (contiguous keys)."""
    with e.loop(lo, hi, hint="c") as k:
        _bump(e, counters, _digit(e, v, _load(e, v.int_type, keys, k, "key"), shift))


def _barrier(e: Emitter, parallel: bool) -> None:
    if parallel:
        with e.when(e.value("icmp sgt i64 %T, 1"), "team"):
            e.emit("call void @GOMP_barrier()")


def _sum_over_threads(e: Emitter, counters: str, offset: str | int, threads: str, slot: int) -> str:
    """sum over t < threads of counters[t * slot + offset] (i32)."""
    total = e.variable("i32", 0)
    with e.loop(0, threads, hint="th") as th:
        count = _load(e, "i32", counters, e.add(e.mul(th, slot), offset), "n")
        sum_ = e.value(f"add i32 {e.value(f'load i32, ptr {total}')}, {count}")
        e.emit(f"store i32 {sum_}, ptr {total}")
    return e.value(f"load i32, ptr {total}")


def _row(v: SortVariant, parallel: bool) -> str:
    """One row (src/dst/perm at its first element, `stride` apart) sorted by thread t of
    a team of T: see the module doc. The row is cut into T x STREAMS equal chunks,
    thread t owning chunks [t * STREAMS, (t + 1) * STREAMS); `hist` holds a slot per
    chunk (P x R digit counts, then R bucket offsets); `stats` each thread's (zeros,
    keys below zero, NaNs) under FLOAT; x/y (ix/iy) are the ping-pong key (position)
    buffers."""
    e, t = Emitter(), v.int_type
    P, R = v.passes, v.radix
    slot = P * R + R
    chunks = e.mul("%T", STREAMS)
    bounds = e.value(f"alloca [{STREAMS + 1} x i64], align 8")
    for j in range(STREAMS + 1):
        chunk = e.add(e.mul("%t", STREAMS), j)
        _store(e, "i64", e.value(f"udiv i64 {e.mul('%n', chunk)}, {chunks}"), bounds, str(j))
    lo, hi = _load(e, "i64", bounds, "0", "lo"), _load(e, "i64", bounds, str(STREAMS), "hi")
    mine = e.gep("%hist", e.mul(e.mul("%t", STREAMS), slot), "i32")

    def each_chunk(body) -> None:
        """body(chunk's counter slot, its first element, its end) for each of this thread's chunks."""
        with e.loop(0, STREAMS, hint="j") as j:
            start = _load(e, "i64", bounds, j, "lo")
            end = _load(e, "i64", bounds, e.add(j, 1), "hi")
            body(e.gep(mine, e.mul(j, slot), "i32"), start, end)

    counts = [e.variable("i64", 0) for _ in range(3)]  # zeros, below zero, NaNs (FLOAT)
    zero_key, nan_key = v.key_of(0), v.key_of((1 << (v.width - 1)) - 1)

    def histogram(counters: str, start: str, end: str) -> None:
        e.emit(f"call void @llvm.memset.p0.i64(ptr {counters}, i8 0, i64 {P * R * 4}, i1 false)")
        with e.loop(start, end, hint="h") as k:
            key = v.encode(e, _load(e, t, "%src", e.mul(k, "%stride"), "raw"))
            for p in range(P):
                _bump(e, e.gep(counters, p * R, "i32"), _digit(e, v, key, p * v.digit_bits))
            if v.canonicalizes:
                below = e.value(f"icmp ult {t} {key}, {zero_key}")
                zero, nan = e.value(f"icmp eq {t} {key}, {zero_key}"), e.value(f"icmp eq {t} {key}, {nan_key}")
                for slot_var, flag in zip(counts, [zero, below, nan], strict=True):
                    old = e.value(f"load i64, ptr {slot_var}")
                    e.emit(f"store i64 {e.add(old, e.value(f'zext i1 {flag} to i64'))}, ptr {slot_var}")

    each_chunk(histogram)
    if v.canonicalizes:
        for j, slot_var in enumerate(counts):
            _store(e, "i64", e.value(f"load i64, ptr {slot_var}"), "%stats", e.add(e.mul("%t", 3), j))
    _barrier(e, parallel)

    # the digits to sort by: those whose keys are not all in one bucket (one flag byte
    # per digit); the digits are walked by loops, not unrolled: the kernel's IR (and
    # LLVM's time on it) stays the same for 64-bit keys as for 8-bit ones
    active = e.value(f"alloca [{P} x i8], align 1")
    m = e.variable("i64", 0)
    with e.loop(0, P, hint="d") as p:
        trivial = e.variable("i1", "false")
        with e.loop(0, R, hint="b") as b:
            total = _sum_over_threads(e, "%hist", e.add(b, e.mul(p, R)), chunks, slot)
            full = e.value(f"icmp eq i64 {e.value(f'zext i32 {total} to i64')}, %n")
            old = e.value(f"load i1, ptr {trivial}")
            e.emit(f"store i1 {e.value(f'or i1 {old}, {full}')}, ptr {trivial}")
        flag = e.value(f"xor i1 {e.value(f'load i1, ptr {trivial}')}, true")
        _store(e, "i8", e.value(f"zext i1 {flag} to i8"), active, p)
        e.emit(f"store i64 {e.add(e.value(f'load i64, ptr {m}'), e.value(f'zext i1 {flag} to i64'))}, ptr {m}")
    passes = e.value(f"load i64, ptr {m}")

    with e.when(e.value(f"icmp eq i64 {passes}, 0"), "copy"), e.loop(lo, hi, hint="cp") as k:
        at = e.mul(k, "%stride")  # every key equal: the input order
        _store(e, t, _load(e, t, "%src", at), "%dst", at)
        if v.perm:
            _store(e, "i32", e.value(f"trunc i64 {k} to i32"), "%perm", at)

    done = e.variable("i64", 0)  # passes made
    with e.loop(0, P, hint="pass") as p:
        is_active = e.value(f"icmp ne i8 {_load(e, 'i8', active, p, 'active')}, 0")
        with e.when(is_active, "pass"):
            i = e.value(f"load i64, ptr {done}")
            first = e.value(f"icmp eq i64 {i}, 0")
            last = e.value(f"icmp eq i64 {i}, {e.add(passes, -1)}")
            # pass i writes (unless last) x when m - 2 - i is even, else y; it reads what pass i - 1 wrote
            parity = e.value(f"and i64 {e.add(e.value(f'sub i64 {passes}, {i}'), -2)}, 1")
            writes_x = e.value(f"icmp eq i64 {parity}, 0")
            out_keys = e.value(f"select i1 {writes_x}, ptr %x, ptr %y")
            in_keys = e.value(f"select i1 {writes_x}, ptr %y, ptr %x")
            out_idx = e.value(f"select i1 {writes_x}, ptr %ix, ptr %iy")
            in_idx = e.value(f"select i1 {writes_x}, ptr %iy, ptr %ix")
            shift = e.mul(p, v.digit_bits)
            digit_counts = e.mul(p, R)  # this digit's counters in a slot
            with e.when(e.value(f"xor i1 {first}, true"), "recount"):  # the chunks of the last pass's output

                def recount(counters: str, start: str, end: str, in_keys=in_keys) -> None:
                    here = e.gep(counters, digit_counts, "i32")
                    e.emit(f"call void @llvm.memset.p0.i64(ptr {here}, i8 0, i64 {R * 4}, i1 false)")
                    _count(e, v, here, in_keys, start, end, shift)

                each_chunk(recount)
                _barrier(e, parallel)
            # each chunk's offsets: the bucket's start plus its counts in the chunks before
            running = e.variable("i32", 0)
            with e.loop(0, R, hint="o") as b:
                at = e.add(b, digit_counts)
                total = _sum_over_threads(e, "%hist", at, chunks, slot)
                start = e.value(f"load i32, ptr {running}")
                with e.loop(0, STREAMS, hint="oj") as j:
                    chunk = e.add(e.mul("%t", STREAMS), j)
                    before = _sum_over_threads(e, "%hist", at, chunk, slot)
                    _store(
                        e, "i32", e.value(f"add i32 {start}, {before}"), mine, e.add(e.mul(j, slot), e.add(b, P * R))
                    )
                e.emit(f"store i32 {e.value(f'add i32 {start}, {total}')}, ptr {running}")
            for is_first, is_last in ((True, True), (True, False), (False, True), (False, False)):
                flags = [
                    f if want else e.value(f"xor i1 {f}, true") for f, want in ((first, is_first), (last, is_last))
                ]
                with e.when(e.value(f"and i1 {flags[0]}, {flags[1]}"), "scatter"):
                    src, src_idx = ("%src", "null") if is_first else (in_keys, in_idx)
                    dst, dst_idx = ("%dst", "%perm") if is_last else (out_keys, out_idx)
                    name = f"{'first' if is_first else 'mid'}{'_last' if is_last else ''}"
                    e.emit(
                        f"call void @{v.symbol}_scatter_{name}(ptr {src}, i64 %stride, ptr {src_idx}, "
                        f"ptr {dst}, i64 %stride, ptr {dst_idx}, ptr {mine}, ptr {bounds}, i64 {shift})"
                    )
            _barrier(e, parallel)
            e.emit(f"store i64 {e.add(i, 1)}, ptr {done}")

    if v.canonicalizes:  # zeros and NaNs get their own bits back, in input order
        zeros = _sum64(e, 0, parallel)
        below = _sum64(e, 1, parallel)
        nans = _sum64(e, 2, parallel)
        special = e.value(f"icmp ugt i64 {e.add(zeros, nans)}, 0")
        needed = e.value(f"and i1 {special}, {e.value(f'icmp uge i64 {passes}, 2')}")
        needed = e.value(f"and i1 {needed}, {e.value('icmp eq i64 %t, 0')}")
        with e.when(needed, "fixup"):
            _restore_specials(e, v, below, nans)
    _barrier(e, parallel)  # the next row reuses the counters and scratch
    return e.function(
        f"internal void @{v.symbol}_row(ptr noalias %src, ptr noalias %dst, ptr noalias %perm, i64 %n, "
        "i64 %stride, ptr noalias %x, ptr noalias %y, ptr noalias %ix, ptr noalias %iy, ptr noalias %hist, "
        "ptr noalias %stats, i64 %t, i64 %T) nounwind"
    )


def _restore_specials(e: Emitter, v: SortVariant, below: str, nans: str) -> None:
    """Under FLOAT, the sorted row (%dst, %stride apart) has +0 for every zero and one
    NaN for every NaN: the source's zeros and NaNs (%src, %n) written over their
    regions in input order (their stable order), the zeros from `below` (the count of
    keys before zero's), the NaNs last under LT, first under GT."""
    t = v.int_type
    nan_start = "0" if v.descending else e.value(f"sub i64 %n, {nans}")
    next_zero, next_nan = e.variable("i64", below), e.variable("i64", nan_start)
    magnitude_mask = v.const((1 << (v.width - 1)) - 1)
    with e.loop(0, "%n", hint="f") as k:
        raw = _load(e, t, "%src", e.mul(k, "%stride"), "raw")
        magnitude = e.value(f"and {t} {raw}, {magnitude_mask}")
        for flag, cursor in (
            (e.value(f"icmp eq {t} {magnitude}, 0"), next_zero),
            (e.value(f"icmp ugt {t} {magnitude}, {v.infinity}"), next_nan),
        ):
            with e.when(flag, "special"):
                at = e.value(f"load i64, ptr {cursor}")
                _store(e, t, raw, "%dst", e.mul(at, "%stride"))
                e.emit(f"store i64 {e.add(at, 1)}, ptr {cursor}")


def _sum64(e: Emitter, field: int, parallel: bool) -> str:
    """The team's total of stats[t * 3 + field]."""
    total = e.variable("i64", 0)
    with e.loop(0, "%T", hint="s") as th:
        count = _load(e, "i64", "%stats", e.add(e.mul(th, 3), field))
        e.emit(f"store i64 {e.add(e.value(f'load i64, ptr {total}'), count)}, ptr {total}")
    return e.value(f"load i64, ptr {total}")


# A kernel keeps its workspace for its next call up to this size: a fresh malloc of
# megabytes is fresh pages, and faulting them in cost ~4 ms of the 22 of a 1M-element
# argsort (16 MB, freed back to the system after every call).
WORKSPACE_CACHE_MAX = 1 << 28


def _workspace_globals(symbol: str) -> str:
    return (
        f"@{symbol}_ws = internal global ptr null\n@{symbol}_ws_size = internal global i64 0\n"
        f"@{symbol}_ws_busy = internal global i32 0"
    )


def _workspace(e: Emitter, symbol: str, size: str) -> tuple[str, str]:
    """`size` bytes (64-byte aligned) for this call: the kernel's kept workspace
    (grown if needed) when no other call holds it, else a malloc of its own; and
    whether it is the kept one."""
    pair = e.value(f"cmpxchg ptr @{symbol}_ws_busy, i32 0, i32 1 acquire monotonic")
    mine = e.value(f"extractvalue {{ i32, i1 }} {pair}, 1")
    fits = e.value(f"icmp ule i64 {size}, {WORKSPACE_CACHE_MAX}")
    cached = e.value(f"and i1 {mine}, {fits}")
    with e.when(e.value(f"and i1 {mine}, {e.value(f'xor i1 {fits}, true')}"), "too_big"):
        e.emit(f"store atomic i32 0, ptr @{symbol}_ws_busy release, align 4")  # not kept
    with e.when(cached, "kept"):
        held = e.value(f"load i64, ptr @{symbol}_ws_size")
        with e.when(e.value(f"icmp ult i64 {held}, {size}"), "grow"):
            e.emit(f"call void @free(ptr {e.value(f'load ptr, ptr @{symbol}_ws')})")
            e.emit(f"store ptr {e.value(f'call ptr @aligned_alloc(i64 64, i64 {size})')}, ptr @{symbol}_ws")
            e.emit(f"store i64 {size}, ptr @{symbol}_ws_size")
    own = e.variable("ptr", "null")
    with e.when(e.value(f"xor i1 {cached}, true"), "own"):
        e.emit(f"store ptr {e.value(f'call ptr @aligned_alloc(i64 64, i64 {e.add(size, 64)})')}, ptr {own}")
    kept = e.value(f"load ptr, ptr @{symbol}_ws")
    return e.value(f"select i1 {cached}, ptr {kept}, ptr {e.value(f'load ptr, ptr {own}')}"), cached


def _release_workspace(e: Emitter, symbol: str, base: str, cached: str) -> None:
    then, other, done = e.new_label("release"), e.new_label("free"), e.new_label("released")
    e.emit(f"br i1 {cached}, label %{then}, label %{other}")
    e.label(then)
    e.emit(f"store atomic i32 0, ptr @{symbol}_ws_busy release, align 4")
    e.emit(f"br label %{done}")
    e.label(other)
    e.emit(f"call void @free(ptr {base})")
    e.emit(f"br label %{done}")
    e.label(done)


# The dispatcher's state, shared with the workers: the fields of a struct.
_FIELDS = [
    ("i64", "%outer"), ("i64", "%n"), ("i64", "%inner"), ("ptr", "%src"), ("ptr", "%dst"), ("ptr", "%perm"),
    ("ptr", "%x"), ("ptr", "%y"), ("ptr", "%ix"), ("ptr", "%iy"), ("ptr", "%hist"), ("ptr", "%stats"),
    ("i64", "%split"),
]  # fmt: skip
_STRUCT = "{ " + ", ".join(ty for ty, _ in _FIELDS) + " }"


def _rows(v: SortVariant, e: Emitter, f: dict[str, str], r0: str, r1: str, copy: str, t: str, team: str) -> None:
    """Sort rows [r0, r1) as thread t of `team` with scratch copy `copy` (a row's worth
    of keys and positions each); `f` gives the values of the dispatcher's fields."""
    n, inner = f["%n"], f["%inner"]
    key_bytes = e.mul(n, v.width // 8)
    contiguous = e.value(f"icmp eq i64 {inner}, 1")
    with e.loop(r0, r1, hint="r") as r:
        base = e.add(e.mul(e.mul(e.value(f"udiv i64 {r}, {inner}"), n), inner), e.value(f"urem i64 {r}, {inner}"))
        src, dst = e.gep(f["%src"], base, v.int_type), e.gep(f["%dst"], base, v.int_type)
        x = e.gep(f["%x"], e.mul(copy, key_bytes), "i8")
        y = e.value(f"select i1 {contiguous}, ptr {dst}, ptr {e.gep(f['%y'], e.mul(copy, key_bytes), 'i8')}")
        perm = ix = iy = "null"
        if v.perm:
            perm = e.gep(f["%perm"], base, "i32")
            ix = e.gep(f["%ix"], e.mul(copy, e.mul(n, 4)), "i8")
            iy = e.value(f"select i1 {contiguous}, ptr {perm}, ptr {e.gep(f['%iy'], e.mul(copy, e.mul(n, 4)), 'i8')}")
        hist = e.gep(f["%hist"], e.mul(copy, STREAMS * (v.passes * v.radix + v.radix)), "i32")
        stats = e.gep(f["%stats"], e.mul(copy, 3), "i64")
        e.emit(
            f"call void @{v.symbol}_row(ptr {src}, ptr {dst}, ptr {perm}, i64 {n}, i64 {inner}, ptr {x}, "
            f"ptr {y}, ptr {ix}, ptr {iy}, ptr {hist}, ptr {stats}, i64 {t}, i64 {team})"
        )


def _worker(v: SortVariant) -> str:
    """One thread of the team: its share of the rows (`split`), or its chunk of every row."""
    e = Emitter()
    for field, (ty, name) in enumerate(_FIELDS):
        at = e.value(f"getelementptr inbounds {_STRUCT}, ptr %data, i32 0, i32 {field}", "p")
        e.emit(f"{name} = load {ty}, ptr {at}, align 8")
    fields = {name: name for _, name in _FIELDS}
    t = e.value(f"sext i32 {e.value('call i32 @omp_get_thread_num()')} to i64")
    team = e.value(f"sext i32 {e.value('call i32 @omp_get_num_threads()')} to i64")
    rows = e.mul("%outer", "%inner")
    then, other, end = e.new_label("split"), e.new_label("together"), e.new_label("end")
    e.emit(f"br i1 {e.value('icmp ne i64 %split, 0')}, label %{then}, label %{other}")
    e.label(then)
    r0 = e.value(f"udiv i64 {e.mul(rows, t)}, {team}")
    r1 = e.value(f"udiv i64 {e.mul(rows, e.add(t, 1))}, {team}")
    _rows(v, e, fields, r0, r1, t, "0", "1")
    e.emit(f"br label %{end}")
    e.label(other)
    _rows(v, e, fields, "0", rows, "0", t, team)
    e.emit(f"br label %{end}")
    e.label(end)
    return e.function(f"internal void @{v.symbol}_worker(ptr %data) nounwind")


def _dispatch(v: SortVariant, parallel: bool) -> str:
    """The public function: scratch buffers (the kernel's workspace, `_workspace`: a
    16 MiB+ sort's would not fit a stack), then the rows on one thread, or on
    `xla_opt_num_threads()` (rows split when there are that many, else every row by
    the whole team)."""
    e = Emitter()
    rows = e.mul("%outer", "%inner")
    threads = e.value(f"sext i32 {e.value(f'call i32 @{NUM_THREADS}()')} to i64") if parallel else "1"
    many = e.value(f"icmp sgt i64 {threads}, 1")
    big = e.value(f"icmp sge i64 {e.mul(rows, '%n')}, {PARALLEL_MIN_ELEMENTS}")
    team = e.value(f"select i1 {e.value(f'and i1 {many}, {big}')}, i64 {threads}, i64 1")
    split_rows = e.value(f"icmp sge i64 {rows}, {team}")
    copies = e.value(f"select i1 {split_rows}, i64 {team}, i64 1")
    contiguous = e.value("icmp eq i64 %inner, 1")

    def unless_contiguous(bytes_: str) -> str:  # else dst (perm) itself: a contiguous row
        return e.value(f"select i1 {contiguous}, i64 0, i64 {bytes_}")

    key_bytes = e.mul(copies, e.mul("%n", v.width // 8))
    sizes = {"%x": key_bytes, "%y": unless_contiguous(key_bytes)}
    if v.perm:
        idx_bytes = e.mul(copies, e.mul("%n", 4))
        sizes.update({"%ix": idx_bytes, "%iy": unless_contiguous(idx_bytes)})
    sizes["%hist"] = e.mul(team, STREAMS * (v.passes * v.radix + v.radix) * 4)
    sizes["%stats"] = e.mul(team, 24)
    offsets, total = {}, "0"
    for name, size in sizes.items():
        offsets[name] = total
        total = e.value(f"and i64 {e.add(e.add(total, size), 63)}, -64")  # each on its own cache lines
    base, cached = _workspace(e, v.symbol, total)
    fields = {name: name for _, name in _FIELDS}
    fields.update({"%perm": "%perm" if v.perm else "null", "%ix": "null", "%iy": "null"})
    fields["%split"] = e.value(f"zext i1 {split_rows} to i64")
    for name, offset in offsets.items():
        fields[name] = e.gep(base, offset, "i8")
    if parallel:
        then, serial, end = e.new_label("parallel"), e.new_label("serial"), e.new_label("end")
        e.emit(f"br i1 {e.value(f'icmp sgt i64 {team}, 1')}, label %{then}, label %{serial}")
        e.label(then)
        args = e.value(f"alloca {_STRUCT}, align 8")
        for field, (ty, name) in enumerate(_FIELDS):
            at = e.value(f"getelementptr inbounds {_STRUCT}, ptr {args}, i32 0, i32 {field}", "p")
            e.emit(f"store {ty} {fields[name]}, ptr {at}, align 8")
        team32 = e.value(f"trunc i64 {team} to i32")
        e.emit(f"call void @GOMP_parallel(ptr @{v.symbol}_worker, ptr {args}, i32 {team32}, i32 0)")
        e.emit(f"br label %{end}")
        e.label(serial)
    _rows(v, e, fields, "0", rows, "0", "0", "1")
    if parallel:
        e.emit(f"br label %{end}")
        e.label(end)
    _release_workspace(e, v.symbol, base, cached)
    perm = ", ptr noalias %perm" if v.perm else ""
    return e.function(
        f"void @{v.symbol}(i64 %outer, i64 %n, i64 %inner, ptr noalias %src, ptr noalias %dst{perm}) nounwind"
    )


def sort_ir(v: SortVariant | TopKVariant, parallel: bool = False, cpu_features: str = "") -> str:
    """The LLVM IR module defining the kernel of variant `v` (a sort's, or a top-k's:
    `topk_ir`): single-thread, or (`parallel`, libgomp loaded) with the multi-thread
    dispatch on the runtime's thread count (`xla_opt_num_threads`, threads.py). A sort
    is the vector quicksort on a CPU whose features allow it (`vector_quicksort`), else
    the radix sort: the same results, and the same entry point."""
    if isinstance(v, TopKVariant):
        return topk_ir(v, parallel)
    vector_bits = vector_quicksort(v, cpu_features)
    if vector_bits:
        return vq_sort_ir(replace(v, vector_bits=vector_bits), parallel)
    parts = [
        "declare ptr @aligned_alloc(i64, i64)\ndeclare void @free(ptr)",
        _workspace_globals(v.symbol),
        "declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)",
    ]
    if parallel:
        parts += [
            "declare void @GOMP_parallel(ptr, ptr, i32, i32)\ndeclare void @GOMP_barrier()",
            "declare i32 @omp_get_thread_num()\ndeclare i32 @omp_get_num_threads()",
            f"declare i32 @{NUM_THREADS}()",
        ]
    parts += [_scatter(v, first, last) for first in (True, False) for last in (True, False)]
    parts.append(_row(v, parallel))
    if parallel:
        parts.append(_worker(v))
    parts.append(_dispatch(v, parallel))
    return "\n\n".join([*parts, ""])


# --------------------------------------------------------------------------------------
# Vector quicksort (AVX-512, AVX2): the same sorts, where the CPU has wide vectors
# --------------------------------------------------------------------------------------

# A segment of at most this many vectors is sorted by a network: 16 vectors (256 f32
# keys), one partition fewer than 8, sorted 1M f32 keys 4-5% faster with the network
# of `_vq_place`'s layout (5.1 instructions a key against its 4.2 for 8 vectors: some
# registers spill), for 0.08 s more of the f32 library's compile (0.43 s).
VQ_SMALL_VECTORS = 16
VQ_STACK = 128  # pending segments per thread: at most log2(n) + 1 with the smaller first
VQ_DEPTH_SLACK = 8  # a segment partitioned 2 log2(n) + this many times is heapsorted instead


def vector_quicksort(v: SortVariant, cpu_features: str) -> int:
    """The vector width in bits of the vector quicksort (`_vq_row`) for the kernel of
    `v` on a CPU with these features (LLVM's `+avx512f,...`), 0 where it is the radix
    sort. AVX-512 (512): its compress makes a partition a few instructions per 16
    keys, and the quicksort ran 2.5x faster than the radix sort on 1M f32 keys (7
    against 17.5 ms). AVX2 (256): a permutation from a table does the compress (as
    NumPy's AVX2 sorts do, x86-simd-sort's); on a Zen 4 without AVX-512, 1M keys on
    one thread: f32 6.4 ms against the radix sort's 16 (np.sort 7.8), f64 13 against
    54 (np.sort 13), f32 with positions 17 (np.argsort 44). 32- and 64-bit keys
    alone, and keys of up to 32 bits with their positions (one 64-bit lane: key above
    position); narrower keys alone keep the radix sort (one or two counting passes)."""
    flags = cpu_features.split(",")
    vector_bits = 512 if "+avx512f" in flags else 256 if "+avx2" in flags else 0
    if not (v.width <= 32 if v.perm else v.width in (32, 64)):
        return 0
    return vector_bits


class _Lanes:
    """The quicksort's lanes: `bits`-bit unsigned keys, `vector_bits` to a vector.
    AVX-512 compresses a vector's lanes under a mask in one instruction; AVX2 permutes
    them (`vpermd`) by the entry of its mask in a table (`order_table`, the global
    `table`), which lists the mask's lanes first and the others after them, last
    first: one permutation puts a partition's low side first and its high side last."""

    def __init__(self, bits: int, vector_bits: int = 512, table: str = "@vq_order") -> None:
        self.bits = bits
        self.count = vector_bits // bits
        self.ty = f"i{bits}"
        self.vec = f"<{self.count} x i{bits}>"
        self.mask = f"<{self.count} x i1>"
        self.mask_int = f"i{self.count}"
        self.suffix = f"v{self.count}i{bits}"
        self.compresses = vector_bits == 512  # else by a table (AVX2)
        self.table = table

    def splat(self, e: Emitter, scalar: str) -> str:
        one = e.value(f"insertelement {self.vec} poison, {self.ty} {scalar}, i64 0")
        return e.value(f"shufflevector {self.vec} {one}, {self.vec} poison, <{self.count} x i32> zeroinitializer")

    def every_lane(self, e: Emitter) -> str:
        """A mask of all lanes that LLVM does not know to be one (read back from a
        volatile slot, once): `xor` with it stays a mask-register xor (`kxor`, port 0 on
        Intel) where `xor` with a constant all-ones would fold into a second, inverted
        compare (`vpcmp`, the shuffle port's, which the compresses keep busy). AVX2 has
        no mask registers: there, the constant."""
        if not self.compresses:
            return "splat (i1 true)"
        slot = e.value(f"alloca {self.mask_int}")
        e.emit(f"store volatile {self.mask_int} -1, ptr {slot}")
        return e.value(
            f"bitcast {self.mask_int} {e.value(f'load volatile {self.mask_int}, ptr {slot}')} to {self.mask}"
        )

    def sides(self, e: Emitter, values: str, pivot: str, every: str, lanes: str | None = None) -> tuple[str, str]:
        """The masks of `values`' lanes below `pivot` (a splat) and of the others (only
        `lanes`, if given), the second by xor with `every` (`every_lane`)."""
        lower = e.value(f"icmp ult {self.vec} {values}, {pivot}")
        upper = e.value(f"xor {self.mask} {lower}, {every}")
        if lanes is None:
            return lower, upper
        return e.value(f"and {self.mask} {lower}, {lanes}"), e.value(f"and {self.mask} {upper}, {lanes}")

    def first_lanes(self, e: Emitter, count: str) -> str:
        """The mask of the first `count` lanes: AVX-512's made in an integer register
        (vector ops all compete for one port), AVX2's by comparing the lanes' numbers."""
        if not self.compresses:
            return self.lane_mask(e, 0, count)
        shift = e.value(f"trunc i64 {count} to i32")
        bits = e.value(f"sub i32 {e.value(f'shl i32 1, {shift}')}, 1")
        return e.value(f"bitcast {self.mask_int} {e.value(f'trunc i32 {bits} to {self.mask_int}')} to {self.mask}")

    def reversed(self, e: Emitter, vector: str) -> str:
        """`vector` with its lanes in reverse order."""
        order = "<" + ", ".join(f"i32 {self.count - 1 - j}" for j in range(self.count)) + ">"
        return e.value(f"shufflevector {self.vec} {vector}, {self.vec} poison, <{self.count} x i32> {order}")

    def lane_mask(self, e: Emitter, start: str | int, n: str) -> str:
        """Lanes j with start + j < n."""
        first = e.value(f"trunc i64 {start} to {self.ty}") if self.bits < 64 and isinstance(start, str) else start
        lanes = "<" + ", ".join(f"{self.ty} {j}" for j in range(self.count)) + ">"
        at = e.value(f"add {self.vec} {self.splat(e, str(first))}, {lanes}")
        limit = e.value(f"trunc i64 {n} to {self.ty}") if self.bits < 64 else n
        return e.value(f"icmp ult {self.vec} {at}, {self.splat(e, limit)}")

    def compress(self, e: Emitter, values: str, mask: str) -> str:
        """`values`' lanes in `mask` first, in order (the lanes after them: AVX-512's
        undefined, AVX2's the others, last first)."""
        if self.compresses:
            compress = f"@llvm.experimental.vector.compress.{self.suffix}"
            return e.value(f"call {self.vec} {compress}({self.vec} {values}, {self.mask} {mask}, {self.vec} poison)")
        which = e.value(f"zext {self.mask_int} {e.value(f'bitcast {self.mask} {mask} to {self.mask_int}')} to i64")
        entry = _load(e, "i32", self.table, which, "order")
        # the entry's eight 4-bit dword indices, one to a lane (a table of whole index
        # vectors, 8 KB for 32-bit keys, ran no faster)
        nibbles = e.value(
            f"lshr <8 x i32> {_Lanes(32, 256).splat(e, entry)}, <i32 0, i32 4, i32 8, i32 12, i32 16, i32 20, i32 24, i32 28>"
        )
        indices = e.value(f"and <8 x i32> {nibbles}, splat (i32 7)")
        dwords = values if self.bits == 32 else e.value(f"bitcast {self.vec} {values} to <8 x i32>")
        moved = e.value(f"call <8 x i32> @llvm.x86.avx2.permd(<8 x i32> {dwords}, <8 x i32> {indices})")
        return moved if self.bits == 32 else e.value(f"bitcast <8 x i32> {moved} to {self.vec}")

    def high_last(self, e: Emitter, values: str, upper: str, low_first: str) -> str:
        """A vector whose last lanes are `values`' lanes in `upper` (the high side of a
        partition whose low side is `low_first`, `compress` of the other lanes): on
        AVX2 `low_first` itself."""
        if not self.compresses:
            return low_first
        return self.reversed(e, self.compress(e, values, upper))

    def order_table(self) -> str:
        """The global `table` (AVX2): per mask of the lanes, the dword indices of the
        mask's lanes in order, then of the others last first, 4 bits each."""
        entries = []
        for mask in range(1 << self.count):
            lanes = [j for j in range(self.count) if mask >> j & 1]
            lanes += [j for j in reversed(range(self.count)) if not mask >> j & 1]
            dwords = [d for j in lanes for d in range(j * self.bits // 32, (j + 1) * self.bits // 32)]
            entries.append(sum(d << 4 * i for i, d in enumerate(dwords)))
        values = ", ".join(f"i32 {x - (1 << 32) if x >> 31 else x}" for x in entries)
        return f"{self.table} = internal unnamed_addr constant [{len(entries)} x i32] [{values}], align 64"

    def declarations(self) -> list[str]:
        if self.compresses:
            return [
                f"declare {self.vec} @llvm.experimental.vector.compress.{self.suffix}({self.vec}, {self.mask}, {self.vec})"
            ]
        return ["declare <8 x i32> @llvm.x86.avx2.permd(<8 x i32>, <8 x i32>)", self.order_table()]


def _vq_lanes(v: SortVariant) -> _Lanes:
    return _Lanes(64 if v.perm or v.width == 64 else 32, v.vector_bits or 512, f"@{v.symbol}_vq_order")


def _vq_place(vectors: int, lanes: int, g: int) -> tuple[int, int]:
    """Where the network keeps its position g (`_vq_network`): the vector of g's low
    log2(vectors) bits, in the lane whose bit b is g's bit log2(lanes) + b for b <
    log2(vectors) and g's bit b above (more vectors than lanes: g's bit
    log2(vectors) + b). So compare-exchanges at distances below `vectors` are
    between whole vectors, and swapping vector bit b with lane bit b for each bit of
    both (`_vq_transpose`) leaves position g in lane g mod lanes of the vector that
    holds g / lanes: the sorted order, one vector after the other."""
    log_v, log_l = vectors.bit_length() - 1, lanes.bit_length() - 1
    lane = 0
    for b in range(log_l):
        source = log_v + b if log_v > log_l else (log_l + b if b < log_v else b)
        lane |= ((g >> source) & 1) << b
    return g & (vectors - 1), lane


def _vq_bitonic_steps(size: int) -> list[tuple[int, int]]:
    """A bitonic sorter of `size` positions as its steps (block, distance), all
    ascending: each block of the merge of two sorted halves first compares g with its
    mirror image (distance 0: the partner g ^ (block - 1)), then halves at distance
    block/4, ..., 1 (the partner g ^ distance); the lower position takes the minimum."""
    steps, block = [], 2
    while block <= size:
        steps.append((block, 0))
        steps += [(block, d) for d in (block // 4 >> i for i in range(max(0, (block // 4).bit_length())))]
        block *= 2
    return steps


def _vq_network(v: SortVariant, vectors: int) -> str:
    """Sort n <= vectors x lanes keys (in -> out, which may be the same) by a bitonic
    network on registers: the keys loaded with all-ones past n (they sort last), kept
    in the layout `_vq_place`, where most of the compare-exchanges are a min and a max
    of two whole vectors (a bitonic sort of 128 keys in 8 vectors of 16 takes 18 of
    its 28 steps that way); the others are a lane permutation, a min, a max and a
    constant blend. Transposed at the end (`_vq_transpose`) and stored."""
    e, k = Emitter(), _vq_lanes(v)
    L = k.count
    regs = []
    for i in range(vectors):
        mask = k.lane_mask(e, i * L, "%n")
        at = e.gep("%in", i * L, k.ty)
        load = f"call {k.vec} @llvm.masked.load.{k.suffix}.p0(ptr {at}, i32 {k.bits // 8}, {k.mask} {mask}, "
        regs.append(e.value(load + f"{k.vec} splat ({k.ty} -1))"))
    place = {g: _vq_place(vectors, L, g) for g in range(vectors * L)}
    held = {where: g for g, where in place.items()}

    def shuffle(x: str, y: str, indices: list[int]) -> str:
        if indices == list(range(L)) and y == "poison":
            return x
        mask = "<" + ", ".join(f"i32 {t}" for t in indices) + ">"
        return e.value(f"shufflevector {k.vec} {x}, {k.vec} {y}, <{L} x i32> {mask}")

    def blend(takes: list[bool], first: str, second: str) -> str:
        """Lanes of `first` where `takes`, of `second` elsewhere."""
        if all(takes) or not any(takes):
            return first if all(takes) else second
        bits = "<" + ", ".join(f"i1 {'true' if b else 'false'}" for b in takes) + ">"
        return e.value(f"select {k.mask} {bits}, {k.vec} {first}, {k.vec} {second}")

    def min_max(x: str, y: str) -> tuple[str, str]:
        return tuple(e.value(f"call {k.vec} @llvm.{f}.{k.suffix}({k.vec} {x}, {k.vec} {y})") for f in ("umin", "umax"))

    for block, distance in _vq_bitonic_steps(vectors * L):
        for i in range(vectors):
            partners = [place[held[(i, t)] ^ (distance or block - 1)] for t in range(L)]
            (j,) = {vec for vec, _ in partners}  # the step pairs whole vectors, or lanes of one
            lanes = [lane for _, lane in partners]
            takes_max = [held[(i, t)] > held[(j, lanes[t])] for t in range(L)]
            if j == i:
                low, high = min_max(regs[i], shuffle(regs[i], "poison", lanes))
                regs[i] = blend(takes_max, high, low)
            elif j > i:  # both vectors, once: j's lanes brought to i's partners, and back
                low, high = min_max(regs[i], shuffle(regs[j], "poison", lanes))
                regs[i] = blend(takes_max, high, low)
                back = [lanes.index(t) for t in range(L)]
                regs[j] = shuffle(blend(takes_max, low, high), "poison", back)
    for o, value in enumerate(_vq_transpose(e, k, regs, held, shuffle)):
        mask = k.lane_mask(e, o * L, "%n")
        at = e.gep("%out", o * L, k.ty)
        value = value if v.perm else v.decode(e, value, L)  # a sort's values go out decoded
        store = f"@llvm.masked.store.{k.suffix}.p0({k.vec} {value}, ptr {at}"
        e.emit(f"call void {store}, i32 {k.bits // 8}, {k.mask} {mask})")
    return e.function(f"internal void @{v.symbol}_vq_small{vectors}(ptr %in, ptr %out, i64 %n) nounwind noinline")


def _vq_transpose(
    e: Emitter, k: _Lanes, regs: list[str], held: dict[tuple[int, int], int], shuffle: Callable[..., str]
) -> list[str]:
    """The vectors `regs`, whose lane (i, t) holds position held[(i, t)] (the layout
    `_vq_place`), rearranged so that vector o holds positions o x lanes, ... in order:
    for each vector bit b, a two-vector shuffle per vector exchanges it with lane bit
    b (log2(vectors) rounds). The positions are followed as they move, and checked."""
    L, regs, held = k.count, list(regs), dict(held)
    b = 1
    while b < min(len(regs), L):
        for a in (i for i in range(len(regs)) if not i & b):
            # a's lanes with bit b set go to the partner's lanes without it, and back
            first = [t if not t & b else L + (t ^ b) for t in range(L)]
            second = [t ^ b if not t & b else L + t for t in range(L)]
            regs[a], regs[a | b] = shuffle(regs[a], regs[a | b], first), shuffle(regs[a], regs[a | b], second)
            pair = (a, a | b)
            moved = {}
            for vec, indices in zip(pair, (first, second), strict=True):
                for t, source in enumerate(indices):
                    moved[(vec, t)] = held[(pair[source // L], source % L)]
            held.update(moved)
        b *= 2
    order = sorted(range(len(regs)), key=lambda i: held[(i, 0)])  # more vectors than lanes: in a new order
    held = {(o, t): held[(i, t)] for o, i in enumerate(order) for t in range(L)}
    assert all(held[(o, t)] == o * L + t for o in range(len(regs)) for t in range(L)), "network layout"
    return [regs[i] for i in order]


def _vq_small(v: SortVariant) -> str:
    """n <= VQ_SMALL_VECTORS x lanes keys sorted by the smallest network that holds them."""
    e, k = Emitter(), _vq_lanes(v)
    done = e.new_label("done")
    vectors = 1
    while vectors <= VQ_SMALL_VECTORS:
        fits = e.value(f"icmp ule i64 %n, {vectors * k.count}")
        then, other = e.new_label(f"net{vectors}"), e.new_label("bigger")
        e.emit(f"br i1 {fits}, label %{then}, label %{other}")
        e.label(then)
        e.emit(f"call void @{v.symbol}_vq_small{vectors}(ptr %in, ptr %out, i64 %n)")
        e.emit(f"br label %{done}")
        e.label(other)
        vectors *= 2
    e.emit(f"br label %{done}")
    e.label(done)
    return e.function(f"internal void @{v.symbol}_vq_small(ptr %in, ptr %out, i64 %n) nounwind")


def _vq_encoded(e: Emitter, v: SortVariant, src: str, j: str) -> str:
    """The quicksort's key of source element j (contiguous): its key, or with `perm`
    its key above its position."""
    key = v.encode(e, _load(e, v.int_type, src, j, "raw"))
    if not v.perm:
        return key
    wide = e.value(f"zext {v.int_type} {key} to i64")
    return e.value(f"or i64 {e.value(f'shl i64 {wide}, 32')}, {j}")


def _vq_partition(v: SortVariant, encoding: bool = False) -> str:
    """The keys of a[0, n) below the pivot to b[0, l), the others to b[l, n) (in
    reverse chunks from the end), l in lr[0]: a vector at a time, each side compressed
    and stored whole, the high side reversed (the extra lanes of both land where keys
    not yet partitioned will go, and are overwritten); the last whole vector's high
    side and the tail's are stored under a mask of their count's first lanes (made in
    an integer register: vector ops all compete for one port), where a whole store
    would reach the other side's keys. Both sides stored whole took 10% less time than
    the high side masked (65,536 keys, in L2, on one run). `encoding`: a holds the
    source's elements, encoded as they are read (a sort's first partition reads the
    row itself: no pass of its own to encode it)."""
    e, k = Emitter(), _vq_lanes(v)
    L = k.count
    pivot = k.splat(e, "%p")
    every = k.every_lane(e)
    left, right = e.variable("i64", 0), e.variable("i64", "%n")
    full = e.mul(e.value(f"udiv i64 %n, {L}"), L)

    def side(packed: str, count: str, cursor: str, up: bool, whole: bool = False) -> None:
        """One side's `count` keys stored at its cursor: `packed` holds them first (or,
        the high side stored whole, last)."""
        at = e.value(f"load i64, ptr {cursor}")
        if whole and up:
            # the whole vector: its lanes past `count` land in [left, right), where
            # the keys not yet partitioned (this vector's included, so at least L of
            # them) will go: this store stays below `right`, the later ones overwrite it
            e.emit(f"store {k.vec} {packed}, ptr {e.gep('%b', at, k.ty)}, align {k.bits // 8}")
        elif whole:
            # its last `count` lanes end at `right`; the others land in [left, right)
            # too while at least 2L keys were left before this vector
            at_end = e.gep("%b", e.add(at, -L), k.ty)
            e.emit(f"store {k.vec} {packed}, ptr {at_end}, align {k.bits // 8}")
        else:
            if not up:
                at = e.value(f"sub i64 {at}, {count}")
            store = f"@llvm.masked.store.{k.suffix}.p0({k.vec} {packed}, ptr {e.gep('%b', at, k.ty)}"
            e.emit(f"call void {store}, i32 {k.bits // 8}, {k.mask} {k.first_lanes(e, count)})")
        if whole and not up:
            at = e.value(f"sub i64 {at}, {count}")
        e.emit(f"store i64 {e.add(at, count) if up else at}, ptr {cursor}")

    def load(ty: str, lanes: int, i: str, mask: str | None) -> str:
        """The vector of `lanes` x `ty` at %a + i; under `mask` only its lanes (the tail)."""
        t, at, align = f"<{lanes} x {ty}>", e.gep("%a", i, ty), int(ty[1:]) // 8
        if mask is None:
            return e.value(f"load {t}, ptr {at}, align {align}")
        masked = f"@llvm.masked.load.v{lanes}{ty}.p0(ptr {at}, i32 {align}, {k.mask} {mask}, {t} poison)"
        return e.value(f"call {t} {masked}")

    def partition(i: str, mask: str | None, high_whole: bool = True) -> None:
        """One vector's keys from i (the tail: its lanes in `mask`) to their sides."""
        if not encoding:
            values = load(k.ty, L, i, mask)
        elif not v.perm:
            values = v.encode(e, load(k.ty, L, i, mask), L)
        else:  # each key above its position
            wide = e.value(f"zext <{L} x {v.int_type}> {v.encode(e, load(v.int_type, L, i, mask), L)} to {k.vec}")
            lanes = "<" + ", ".join(f"i64 {j}" for j in range(L)) + ">"
            positions = e.value(f"add {k.vec} {k.splat(e, i)}, {lanes}")
            values = e.value(f"or {k.vec} {e.value(f'shl {k.vec} {wide}, splat (i64 32)')}, {positions}")
        lower, upper = k.sides(e, values, pivot, every, mask)
        ones = e.value(f"bitcast {k.mask} {lower} to {k.mask_int}")
        count = e.value(
            f"zext {k.mask_int} {e.value(f'call {k.mask_int} @llvm.ctpop.{k.mask_int}({k.mask_int} {ones})')} to i64"
        )
        low_keys = k.compress(e, values, lower)
        side(low_keys, count, left, True, whole=mask is None)
        high = e.value(f"sub i64 {'%rest' if mask is not None else L}, {count}")
        whole = mask is None and high_whole
        high_keys = k.high_last(e, values, upper, low_keys) if whole else k.compress(e, values, upper)
        side(high_keys, high, right, False, whole=whole)

    with e.loop(0, e.add(full, -L), L, hint="vec") as i:  # signed: none when n < 2L
        partition(i, None)
    with e.when(e.value(f"icmp uge i64 {full}, {L}"), "last"):
        partition(e.add(full, -L), None, high_whole=False)
    # the last n mod L keys: one vector under a mask (no branch per key: whether a key
    # goes low or high is as good as random, and a mispredicted branch costs more
    # than the vector; a short segment's tail is a large part of its partition)
    e.emit(f"%rest = sub i64 %n, {full}")
    with e.when(e.value("icmp ugt i64 %rest, 0"), "tail"):
        partition(full, k.first_lanes(e, "%rest"))
    _store(e, "i64", e.value(f"load i64, ptr {left}"), "%lr", "0")
    return e.function(
        f"internal void @{v.symbol}_vq_partition{'_encoding' if encoding else ''}(ptr noalias %a, ptr noalias %b, "
        f"i64 %n, {k.ty} %p, ptr %lr) nounwind noinline"
    )


# A segment of at least this many keys is partitioned in place (`_vq_partition_in_place`):
# from one buffer into another, a segment of 2^19 f32 keys moves 4 MiB, more than the
# L2 cache (2 MiB on the machines we measure), where in place it moves 2; 1M f32 keys
# sorted 4-7% faster. Shorter ones stay out of place: in L2 both ran as fast, and the
# in-place loop's branch (which end to read) is a misprediction now and then.
VQ_IN_PLACE_MIN = 1 << 16
VQ_IN_PLACE_UNROLL = 4  # vectors read at a time from one end
# A segment of at least this many keys takes its pivot from the median of
# VQ_ROW_SAMPLES keys (`_vq_row_pivot`), not of nine: the sides come out closer to
# halves, and 1M f32 keys sorted 3-4% faster (16K: the best of 4K, 16K and 64K).
VQ_SAMPLED_PIVOT_MIN = 1 << 14


def _vq_partition_in_place(v: SortVariant) -> str:
    """The keys of a[0, n) below the pivot moved to a[0, l), the others to a[l, n),
    l in lr[0], in place: U = VQ_IN_PLACE_UNROLL vectors from each end held in
    registers, then U vectors at a time read from the end with less room freed (read,
    not yet written: so the end read from has room for their keys, and the other end
    at least U vectors' of room too, for whole stores whose extra lanes land in the
    room) and each vector's two sides compressed and stored whole (the high side
    reversed) at the two write cursors. Fewer than U vectors left: those and the held
    ones stored exactly (under a mask of their count's first lanes) into what is left
    between the cursors. n >= 2 U lanes."""
    e, k = Emitter(), _vq_lanes(v)
    L, U = k.count, VQ_IN_PLACE_UNROLL
    pivot = k.splat(e, "%p")
    every = k.every_lane(e)
    left, right = e.variable("i64", 0), e.variable("i64", "%n")  # write cursors
    read_left, read_right = e.variable("i64", U * L), e.variable("i64", e.add("%n", -U * L))

    def load(at: str, mask: str | None = None) -> str:
        pointer = e.gep("%a", at, k.ty)
        if mask is None:
            return e.value(f"load {k.vec}, ptr {pointer}, align {k.bits // 8}")
        masked = f"@llvm.masked.load.{k.suffix}.p0(ptr {pointer}, i32 {k.bits // 8}, {k.mask} {mask}, {k.vec} poison)"
        return e.value(f"call {k.vec} {masked}")

    def partition(values: str, lanes: str | None = None, exact: bool = False) -> None:
        """One vector's keys (only `lanes`, if given) to the write cursors."""
        lower, upper = k.sides(e, values, pivot, every, lanes)
        counts = []
        for side in (lower, upper) if lanes is not None else (lower,):
            ones = e.value(f"bitcast {k.mask} {side} to {k.mask_int}")
            popcount = e.value(f"call {k.mask_int} @llvm.ctpop.{k.mask_int}({k.mask_int} {ones})")
            counts.append(e.value(f"zext {k.mask_int} {popcount} to i64"))
        if lanes is None:  # a whole vector: the others
            counts.append(e.value(f"sub i64 {L}, {counts[0]}"))
        low_keys = k.compress(e, values, lower)
        high_keys = k.compress(e, values, upper) if exact else k.high_last(e, values, upper, low_keys)
        at_low, at_high = e.value(f"load i64, ptr {left}"), e.value(f"load i64, ptr {right}")
        high_start = e.value(f"sub i64 {at_high}, {counts[1]}")
        if exact:
            for keys, at, count in ((low_keys, at_low, counts[0]), (high_keys, high_start, counts[1])):
                store = f"@llvm.masked.store.{k.suffix}.p0({k.vec} {keys}, ptr {e.gep('%a', at, k.ty)}"
                e.emit(f"call void {store}, i32 {k.bits // 8}, {k.mask} {k.first_lanes(e, count)})")
        else:
            e.emit(f"store {k.vec} {low_keys}, ptr {e.gep('%a', at_low, k.ty)}, align {k.bits // 8}")
            at = e.gep("%a", e.add(at_high, -L), k.ty)
            e.emit(f"store {k.vec} {high_keys}, ptr {at}, align {k.bits // 8}")
        e.emit(f"store i64 {e.add(at_low, counts[0])}, ptr {left}")
        e.emit(f"store i64 {high_start}, ptr {right}")

    held = [load(str(j * L)) for j in range(U)] + [load(e.add("%n", -(U - j) * L)) for j in range(U)]
    head, body, from_left, from_right, chosen, rest = (
        e.new_label(h) for h in ("head", "body", "from_left", "from_right", "chosen", "rest")
    )
    e.emit(f"br label %{head}")
    e.label(head)
    next_left, next_right = e.value(f"load i64, ptr {read_left}"), e.value(f"load i64, ptr {read_right}")
    unread = e.value(f"sub i64 {next_right}, {next_left}")
    e.emit(f"br i1 {e.value(f'icmp sge i64 {unread}, {U * L}')}, label %{body}, label %{rest}")
    e.label(body)
    room_left = e.value(f"sub i64 {next_left}, {e.value(f'load i64, ptr {left}')}")
    room_right = e.value(f"sub i64 {e.value(f'load i64, ptr {right}')}, {next_right}")
    e.emit(f"br i1 {e.value(f'icmp ule i64 {room_left}, {room_right}')}, label %{from_left}, label %{from_right}")
    e.label(from_left)
    e.emit(f"store i64 {e.add(next_left, U * L)}, ptr {read_left}")
    e.emit(f"br label %{chosen}")
    e.label(from_right)
    start_right = e.add(next_right, -U * L)
    e.emit(f"store i64 {start_right}, ptr {read_right}")
    e.emit(f"br label %{chosen}")
    e.label(chosen)
    start = e.value(f"phi i64 [{next_left}, %{from_left}], [{start_right}, %{from_right}]")
    for values in [load(e.add(start, j * L)) for j in range(U)]:
        partition(values)
    e.emit(f"br label %{head}")
    e.label(rest)
    # fewer than U vectors unread: loaded (the last under a mask), then every vector
    # held stored exactly: the room between the cursors is exactly their keys
    remaining = []
    for j in range(U):
        at = e.add(next_left, j * L)
        lanes = k.lane_mask(e, at, next_right)
        remaining.append((load(at, lanes), lanes))
    for values, lanes in remaining:
        partition(values, lanes, exact=True)
    for values in held:
        partition(values, exact=True)
    _store(e, "i64", e.value(f"load i64, ptr {left}"), "%lr", "0")
    return e.function(
        f"internal void @{v.symbol}_vq_partition_in_place(ptr noalias %a, i64 %n, {k.ty} %p, ptr %lr) nounwind noinline"
    )


def _vq_split(
    e: Emitter,
    v: SortVariant,
    a: str,
    b: str,
    out: str,
    n: str,
    lr: str,
    encoding: bool = False,
    pivot: str | None = None,
    in_place: bool = False,
) -> tuple[str, str]:
    """A segment of n keys at `a` partitioned into `b` around `pivot` (by default the
    median of nine, `_vq_pivot`): the keys below the pivot to b[0, low), the others to
    b[low, n), (low, low); when none
    is below (the pivot is the least key), the keys equal to it, which are done
    (equal keys are equal bits), written to out[0, high) (decoded, unless `perm`) and
    the greater ones to b[high, n), (0, high). The two sides are then sorted from b.
    `encoding`: `a` holds the source's elements (`_vq_partition`). `in_place`: the
    keys partitioned within `a` (`_vq_partition_in_place`), b unused. The keys at most
    the pivot are those below pivot + 1 (the keys are unsigned integers), or all of
    them when the pivot is the greatest key: one partition function for both."""
    k = _vq_lanes(v)
    pivot = pivot or _vq_pivot(e, v, a, n, encoding)

    def partition(below: str) -> None:
        if in_place:
            e.emit(f"call void @{v.symbol}_vq_partition_in_place(ptr {a}, i64 {n}, {k.ty} {below}, ptr {lr})")
        else:
            function = f"@{v.symbol}_vq_partition{'_encoding' if encoding else ''}"
            e.emit(f"call void {function}(ptr {a}, ptr {b}, i64 {n}, {k.ty} {below}, ptr {lr})")

    partition(pivot)
    low = _load(e, "i64", lr, "0", "low")
    with e.when(e.value(f"icmp eq i64 {low}, 0"), "least"):
        greatest = e.value(f"icmp eq {k.ty} {pivot}, -1")
        with e.when(greatest, "all_equal"):  # every key is the pivot (none is below it)
            _store(e, "i64", n, lr, "0")
        with e.when(e.value(f"xor i1 {greatest}, true"), "at_most"):
            partition(e.value(f"add {k.ty} {pivot}, 1"))
        done = pivot if v.perm else v.decode(e, pivot)
        with e.loop(0, _load(e, "i64", lr, "0", "equal"), hint="eq") as j:
            _store(e, k.ty, done, out, j)
        _store(e, "i64", "0", lr, "1")
    with e.when(e.value(f"icmp ne i64 {low}, 0"), "below"):
        _store(e, "i64", low, lr, "1")
    # lr is now (equal, 0) or (low, low): the second is where the low side ends, the first
    # where the high side starts
    high = _load(e, "i64", lr, "0", "high")
    return _load(e, "i64", lr, "1", "low"), high


def _vq_pivot(e: Emitter, v: SortVariant, a: str, n: str, encoding: bool = False) -> str:
    """The median of three medians of three of nine keys spread over a[0, n)
    (`encoding`: of nine source elements' keys)."""
    k = _vq_lanes(v)

    def med3(x: str, y: str, z: str) -> str:
        low = e.value(f"call {k.ty} @llvm.umin.{k.ty}({k.ty} {x}, {k.ty} {y})")
        high = e.value(f"call {k.ty} @llvm.umax.{k.ty}({k.ty} {x}, {k.ty} {y})")
        mid = e.value(f"call {k.ty} @llvm.umin.{k.ty}({k.ty} {high}, {k.ty} {z})")
        return e.value(f"call {k.ty} @llvm.umax.{k.ty}({k.ty} {low}, {k.ty} {mid})")

    last = e.add(n, -1)
    at = [e.value(f"udiv i64 {e.mul(last, i)}, 8") for i in range(9)]
    samples = [_vq_encoded(e, v, a, j) if encoding else _load(e, k.ty, a, j, "s") for j in at]
    return med3(*(med3(*samples[i : i + 3]) for i in (0, 3, 6)))


# A row's first split, which gives each of a team's two threads its side, takes its
# pivot from this many keys (sorted by the network of that size), not nine: with the
# median of nine the two sides of 1M normal keys were a third and two thirds, and the
# second thread sorted twice what the first did. So does a segment of at least
# VQ_SAMPLED_PIVOT_MIN keys.
VQ_ROW_SAMPLES = VQ_SMALL_VECTORS * 16


def _vq_row_pivot(e: Emitter, v: SortVariant, a: str, n: str, encoding: bool, at_least: int = 0) -> str:
    """The median of VQ_ROW_SAMPLES keys spread over a[0, n) (`encoding`: of source
    elements) for a row of at least that many keys (and `at_least`), else the median
    of nine."""
    k = _vq_lanes(v)
    count = min(VQ_ROW_SAMPLES, VQ_SMALL_VECTORS * k.count)
    samples = e.fresh("samples")
    e.allocas.append(f"  {samples} = alloca [{count} x {k.ty}], align 64")  # in the entry block, once
    chosen = e.variable(k.ty, 0)
    many = e.value(f"icmp uge i64 {n}, {max(count, at_least)}")
    with e.when(many, "sampled"):
        last = e.add(n, -1)
        with e.loop(0, count, hint="sample") as i:
            at = e.value(f"udiv i64 {e.mul(last, i)}, {count - 1}")
            key = _vq_encoded(e, v, a, at) if encoding else _load(e, k.ty, a, at, "s")
            _store(e, k.ty, key, samples, i)
        e.emit(f"call void @{v.symbol}_vq_small(ptr {samples}, ptr {samples}, i64 {count})")
        median = _load(e, k.ty, samples, str(count // 2), "median")
        # the network writes a sort's values decoded: the median's key again (a key's
        # decoded value encodes to that key, -0 and NaNs included)
        e.emit(f"store {k.ty} {median if v.perm else v.encode(e, median)}, ptr {chosen}")
    with e.when(e.value(f"xor i1 {many}, true"), "nine"):
        e.emit(f"store {k.ty} {_vq_pivot(e, v, a, n, encoding)}, ptr {chosen}")
    return e.value(f"load {k.ty}, ptr {chosen}")


def _vq_heapsort(v: SortVariant) -> str:
    """a[0, n) sorted in place by a heapsort: the fallback of a segment whose pivots
    kept failing (quicksort depth past 2 log2 n + 8), so that no input is quadratic."""
    e, k = Emitter(), _vq_lanes(v)

    def sift(start: str, size: str, c: str) -> None:
        at = e.variable("i64", start)
        head, body, step, done = (e.new_label(h) for h in ("sift.head", "sift.body", "sift.step", "sift.done"))
        e.emit(f"br label %{head}")
        e.label(head)
        i = e.value(f"load i64, ptr {at}")
        left = e.add(e.mul(i, 2), 1)
        e.emit(f"br i1 {e.value(f'icmp slt i64 {left}, {size}')}, label %{body}, label %{done}")
        e.label(body)
        right = e.add(left, 1)
        right = e.value(f"select i1 {e.value(f'icmp slt i64 {right}, {size}')}, i64 {right}, i64 {left}")
        lv, rv = _load(e, k.ty, "%a", left), _load(e, k.ty, "%a", right)
        take_right = e.value(f"icmp ugt {k.ty} {rv}, {lv}")
        child = e.value(f"select i1 {take_right}, i64 {right}, i64 {left}")
        largest = e.value(f"select i1 {take_right}, {k.ty} {rv}, {k.ty} {lv}")
        e.emit(f"br i1 {e.value(f'icmp ult {k.ty} {c}, {largest}')}, label %{step}, label %{done}")
        e.label(step)
        _store(e, k.ty, largest, "%a", i)
        e.emit(f"store i64 {child}, ptr {at}")
        e.emit(f"br label %{head}")
        e.label(done)
        _store(e, k.ty, c, "%a", e.value(f"load i64, ptr {at}"))

    half = e.value("udiv i64 %n, 2")
    with e.loop(0, half, hint="heapify") as j:
        start = e.value(f"sub i64 {e.add(half, -1)}, {j}")
        sift(start, "%n", _load(e, k.ty, "%a", start, "c"))
    with e.loop(1, "%n", hint="down") as j:
        last = e.value(f"sub i64 %n, {j}")
        top, tail = _load(e, k.ty, "%a", "0", "top"), _load(e, k.ty, "%a", last, "tail")
        _store(e, k.ty, top, "%a", last)
        sift("0", last, tail)
    return e.function(f"internal void @{v.symbol}_vq_heapsort(ptr noalias %a, i64 %n) nounwind noinline")


_VQ_ENTRY = 5  # a pending segment: data, scratch, out (pointers), length, depth


def _vq_sort(v: SortVariant) -> str:
    """Sort the n keys at %a (scratch %b of n keys) into %out (%a or %b; the keys, or
    without `perm` the elements they decode to): segments on a stack; each is sorted
    by a network when small, else partitioned from its data into its scratch
    (`_vq_split`; data and scratch swapped for its sides) or, when long, within its
    data (`_vq_partition_in_place`), around the median of nine keys or, when long,
    of many (VQ_SAMPLED_PIVOT_MIN); its two sides are pushed (out kept), the larger
    first so that the smaller is sorted next (the stack stays under log2 n + 1
    entries)."""
    e, k = Emitter(), _vq_lanes(v)
    small = VQ_SMALL_VECTORS * k.count
    sp = e.variable("i64", 0)
    lr = e.value("alloca [2 x i64], align 8")

    def push(fields: list[str]) -> None:
        top = e.value(f"load i64, ptr {sp}")
        base = e.mul(top, _VQ_ENTRY)
        for f, value in enumerate(fields):
            as_int = e.value(f"ptrtoint ptr {value} to i64") if f < 3 else value
            _store(e, "i64", as_int, "%stack", e.add(base, f))
        e.emit(f"store i64 {e.add(top, 1)}, ptr {sp}")

    log2 = e.value("sub i64 64, " + e.value("call i64 @llvm.ctlz.i64(i64 %n, i1 false)"))
    limit = e.add(e.mul(log2, 2), VQ_DEPTH_SLACK)
    push(["%a", "%b", "%out", "%n", "0"])
    head, body, done = e.new_label("pop"), e.new_label("segment"), e.new_label("sorted")
    e.emit(f"br label %{head}")
    e.label(head)
    pending = e.value(f"load i64, ptr {sp}")
    e.emit(f"br i1 {e.value(f'icmp ugt i64 {pending}, 0')}, label %{body}, label %{done}")
    e.label(body)
    top = e.add(e.value(f"load i64, ptr {sp}"), -1)
    e.emit(f"store i64 {top}, ptr {sp}")
    base = e.mul(top, _VQ_ENTRY)
    fields = [_load(e, "i64", "%stack", e.add(base, f), "f") for f in range(_VQ_ENTRY)]
    a, b, out = (e.value(f"inttoptr i64 {f} to ptr") for f in fields[:3])
    n, depth = fields[3], fields[4]
    small_label, big_label, deep_label, part_label = (e.new_label(h) for h in ("small", "big", "deep", "part"))
    e.emit(f"br i1 {e.value(f'icmp ule i64 {n}, {small}')}, label %{small_label}, label %{big_label}")
    e.label(small_label)
    e.emit(f"call void @{v.symbol}_vq_small(ptr {a}, ptr {out}, i64 {n})")
    e.emit(f"br label %{head}")
    e.label(big_label)
    e.emit(f"br i1 {e.value(f'icmp ugt i64 {depth}, {limit}')}, label %{deep_label}, label %{part_label}")
    e.label(deep_label)
    e.emit(f"call void @{v.symbol}_vq_heapsort(ptr {a}, i64 {n})")
    if v.perm:
        with e.when(e.value(f"icmp ne ptr {out}, {a}"), "copy"):
            e.emit(f"call void @llvm.memcpy.p0.p0.i64(ptr {out}, ptr {a}, i64 {e.mul(n, k.bits // 8)}, i1 false)")
    else:  # a sort's values go out decoded
        with e.loop(0, n, hint="out") as j:
            _store(e, k.ty, v.decode(e, _load(e, k.ty, a, j, "key")), out, j)
    e.emit(f"br label %{head}")
    e.label(part_label)
    # a long segment partitioned in place keeps its keys in a, a shorter one moves them to b
    in_place = e.value(f"icmp uge i64 {n}, {VQ_IN_PLACE_MIN}")
    # a long segment's pivot from many samples: a better split saves more than it costs
    pivot = _vq_row_pivot(e, v, a, n, False, at_least=VQ_SAMPLED_PIVOT_MIN)
    left, right = e.variable("i64", 0), e.variable("i64", 0)
    for where, flag in (("in_place", in_place), ("across", e.value(f"xor i1 {in_place}, true"))):
        with e.when(flag, where):
            sides = _vq_split(e, v, a, b, out, n, lr, pivot=pivot, in_place=where == "in_place")
            for variable, value in zip((left, right), sides, strict=True):
                e.emit(f"store i64 {value}, ptr {variable}")
    left, right = e.value(f"load i64, ptr {left}"), e.value(f"load i64, ptr {right}")
    data = e.value(f"select i1 {in_place}, ptr {a}, ptr {b}")
    scratch = e.value(f"select i1 {in_place}, ptr {b}, ptr {a}")
    deeper = e.add(depth, 1)
    low = [data, scratch, out, left, deeper]
    high = [
        e.gep(data, right, k.ty),
        e.gep(scratch, right, k.ty),
        e.gep(out, right, k.ty),
        e.value(f"sub i64 {n}, {right}"),
        deeper,
    ]
    low_first = e.value(f"icmp ult i64 {left}, {high[3]}")  # the smaller is pushed last
    then, other = e.new_label("low_first"), e.new_label("high_first")
    e.emit(f"br i1 {low_first}, label %{then}, label %{other}")
    e.label(then)
    push(high)
    push(low)
    e.emit(f"br label %{head}")
    e.label(other)
    push(low)
    push(high)
    e.emit(f"br label %{head}")
    e.label(done)
    return e.function(
        f"internal void @{v.symbol}_vq_sort(ptr %a, ptr %b, ptr %out, i64 %n, ptr noalias %stack) nounwind"
    )


def _vq_count(e: Emitter, v: SortVariant, key: int, predicate: str) -> str:
    """How many elements of the sorted row (%dst, %stride apart) have keys `predicate`
    (ult, ule) `key`: a binary search."""
    low, high = e.variable("i64", 0), e.variable("i64", "%n")
    head, body, done = e.new_label("search"), e.new_label("halve"), e.new_label("found")
    e.emit(f"br label %{head}")
    e.label(head)
    lo, hi = e.value(f"load i64, ptr {low}"), e.value(f"load i64, ptr {high}")
    e.emit(f"br i1 {e.value(f'icmp ult i64 {lo}, {hi}')}, label %{body}, label %{done}")
    e.label(body)
    mid = e.value(f"lshr i64 {e.value(f'add i64 {lo}, {hi}')}, 1")
    element = v.encode(e, _load(e, v.int_type, "%dst", e.mul(mid, "%stride"), "x"))
    before = e.value(f"icmp {predicate} {v.int_type} {element}, {key}")
    e.emit(f"store i64 {e.value(f'select i1 {before}, i64 {e.add(mid, 1)}, i64 {lo}')}, ptr {low}")
    e.emit(f"store i64 {e.value(f'select i1 {before}, i64 {hi}, i64 {mid}')}, ptr {high}")
    e.emit(f"br label %{head}")
    e.label(done)
    return e.value(f"load i64, ptr {low}")


def _vq_row(v: SortVariant, parallel: bool) -> str:
    """One row by thread t of a team of T (T = 1: the whole row). Thread 0 partitions
    the row once (`_vq_split`), then threads 0 and 1 sort a side each (T = 1: thread 0
    both). That first partition reads a contiguous row itself, encoding it as it reads
    (with `perm`, each key above its position), into the scratch; a strided row's
    chunks are encoded into `keys` first. The sides are sorted from the scratch into
    the result itself, decoded as they are written (a strided row: into `keys`, then
    copied out), or with `perm` into `keys`, then decoded by chunks to the source
    element at each key's position and the position. Under FLOAT the zeros and NaNs
    get their own bits back (`_restore_specials`; their counts found by a binary
    search of the sorted row)."""
    e, k, t = Emitter(), _vq_lanes(v), v.int_type
    lo = e.value("udiv i64 " + e.mul("%n", "%t") + ", %T")
    hi = e.value("udiv i64 " + e.mul("%n", e.add("%t", 1)) + ", %T")
    contiguous = e.value("icmp eq i64 %stride, 1")  # else the first partition reads the row itself
    with e.when(e.value(f"xor i1 {contiguous}, true"), "encode"), e.loop(lo, hi, hint="enc") as j:
        key = v.encode(e, _load(e, t, "%src", e.mul(j, "%stride"), "raw"))
        lane = key
        if v.perm:
            wide = e.value(f"zext {t} {key} to i64")
            lane = e.value(f"or i64 {e.value(f'shl i64 {wide}, 32')}, {j}")
        _store(e, k.ty, lane, "%keys", j)
    _barrier(e, parallel)
    # the sides are sorted from the scratch into `out`: the keys (with positions, or a
    # strided row's), else the row itself; the scratch's partner buffer is `out`
    out = "%keys" if v.perm else e.value(f"select i1 {contiguous}, ptr %dst, ptr %keys")
    with e.when(e.value("icmp eq i64 %t, 0"), "split"):
        for encoding in (True, False):
            flag = contiguous if encoding else e.value(f"xor i1 {contiguous}, true")
            with e.when(flag, "from_source" if encoding else "from_keys"):
                data = "%src" if encoding else "%keys"
                pivot = _vq_row_pivot(e, v, data, "%n", encoding)
                left, right = _vq_split(e, v, data, "%scratch", out, "%n", "%lr", encoding, pivot)
                _store(e, "i64", left, "%lr", "0")
                _store(e, "i64", right, "%lr", "1")
    _barrier(e, parallel)
    left, right = _load(e, "i64", "%lr", "0", "l"), _load(e, "i64", "%lr", "1", "r")
    with e.when(e.value("icmp eq i64 %t, 0"), "low"):
        e.emit(f"call void @{v.symbol}_vq_sort(ptr %scratch, ptr {out}, ptr {out}, i64 {left}, ptr %stacks)")
    second = e.value("select i1 " + e.value("icmp eq i64 %T, 1") + ", i64 0, i64 1")  # who sorts the high side
    with e.when(e.value(f"icmp eq i64 %t, {second}"), "high"):
        segment = [e.gep(p, right, k.ty) for p in ("%scratch", out, out)]
        mine = e.gep("%stacks", e.mul(second, VQ_STACK * _VQ_ENTRY), "i64")
        e.emit(
            f"call void @{v.symbol}_vq_sort(ptr {segment[0]}, ptr {segment[1]}, ptr {segment[2]}, "
            f"i64 {e.value(f'sub i64 %n, {right}')}, ptr {mine})"
        )
    _barrier(e, parallel)
    if v.perm:
        with e.loop(lo, hi, hint="dec") as j:
            lane = _load(e, k.ty, "%keys", j, "lane")
            at = e.mul(j, "%stride")
            position = e.value(f"and i64 {lane}, 4294967295")
            _store(e, t, _load(e, t, "%src", e.mul(position, "%stride"), "raw"), "%dst", at)
            _store(e, "i32", e.value(f"trunc i64 {position} to i32"), "%perm", at)
    else:
        with e.when(e.value(f"xor i1 {contiguous}, true"), "strided"), e.loop(lo, hi, hint="out") as j:
            _store(e, t, _load(e, t, "%keys", j, "x"), "%dst", e.mul(j, "%stride"))
    if v.canonicalizes and not v.perm:
        _barrier(e, parallel)
        with e.when(e.value("icmp eq i64 %t, 0"), "fixup"):
            zero_key, nan_key = v.key_of(0), v.key_of((1 << (v.width - 1)) - 1)
            below = _vq_count(e, v, zero_key, "ult")
            zeros = e.value(f"sub i64 {_vq_count(e, v, zero_key, 'ule')}, {below}")
            nans = e.value(f"sub i64 {_vq_count(e, v, nan_key, 'ule')}, {_vq_count(e, v, nan_key, 'ult')}")
            with e.when(e.value(f"icmp ugt i64 {e.add(zeros, nans)}, 0"), "specials"):
                _restore_specials(e, v, below, nans)
    _barrier(e, parallel)  # the next row reuses the buffers
    return e.function(
        f"internal void @{v.symbol}_vq_row(ptr noalias %src, ptr noalias %dst, ptr noalias %perm, i64 %n, "
        "i64 %stride, ptr noalias %keys, ptr noalias %scratch, ptr noalias %stacks, ptr noalias %stats, "
        "ptr noalias %lr, i64 %t, i64 %T) nounwind"
    )


_VQ_FIELDS = [
    ("i64", "%outer"), ("i64", "%n"), ("i64", "%inner"), ("ptr", "%src"), ("ptr", "%dst"), ("ptr", "%perm"),
    ("ptr", "%keys"), ("ptr", "%scratch"), ("ptr", "%stacks"), ("ptr", "%stats"), ("ptr", "%lr"), ("i64", "%split"),
]  # fmt: skip
_VQ_STRUCT = "{ " + ", ".join(ty for ty, _ in _VQ_FIELDS) + " }"


def _vq_rows(v: SortVariant, e: Emitter, f: dict[str, str], r0: str, r1: str, copy: str, t: str, team: str) -> None:
    """Rows [r0, r1) as thread t of `team` with the buffers of copy `copy`; `f` gives
    the values of the dispatcher's fields."""
    k = _vq_lanes(v)
    key_bytes = e.mul("%n", k.bits // 8)
    with e.loop(r0, r1, hint="r") as r:
        base = e.add(e.mul(e.mul(e.value(f"udiv i64 {r}, %inner"), "%n"), "%inner"), e.value(f"urem i64 {r}, %inner"))
        src, dst = e.gep("%src", base, v.int_type), e.gep("%dst", base, v.int_type)
        perm = e.gep("%perm", base, "i32") if v.perm else "null"
        keys = e.gep(f["%keys"], e.mul(copy, key_bytes), "i8")
        scratch = e.gep(f["%scratch"], e.mul(copy, key_bytes), "i8")
        stacks = e.gep(f["%stacks"], e.mul(copy, 2 * VQ_STACK * _VQ_ENTRY), "i64")
        stats, lr = e.gep(f["%stats"], e.mul(copy, 3), "i64"), e.gep(f["%lr"], e.mul(copy, 2), "i64")
        e.emit(
            f"call void @{v.symbol}_vq_row(ptr {src}, ptr {dst}, ptr {perm}, i64 %n, i64 %inner, ptr {keys}, "
            f"ptr {scratch}, ptr {stacks}, ptr {stats}, ptr {lr}, i64 {t}, i64 {team})"
        )


def _vq_worker(v: SortVariant) -> str:
    e = Emitter()
    for field, (ty, name) in enumerate(_VQ_FIELDS):
        at = e.value(f"getelementptr inbounds {_VQ_STRUCT}, ptr %data, i32 0, i32 {field}", "p")
        e.emit(f"{name} = load {ty}, ptr {at}, align 8")
    t = e.value(f"sext i32 {e.value('call i32 @omp_get_thread_num()')} to i64")
    team = e.value(f"sext i32 {e.value('call i32 @omp_get_num_threads()')} to i64")
    rows = e.mul("%outer", "%inner")
    then, other, end = e.new_label("split"), e.new_label("together"), e.new_label("end")
    e.emit(f"br i1 {e.value('icmp ne i64 %split, 0')}, label %{then}, label %{other}")
    e.label(then)
    r0 = e.value(f"udiv i64 {e.mul(rows, t)}, {team}")
    r1 = e.value(f"udiv i64 {e.mul(rows, e.add(t, 1))}, {team}")
    fields = {name: name for _, name in _VQ_FIELDS}
    _vq_rows(v, e, fields, r0, r1, t, "0", "1")
    e.emit(f"br label %{end}")
    e.label(other)
    _vq_rows(v, e, fields, "0", rows, "0", t, team)
    e.emit(f"br label %{end}")
    e.label(end)
    return e.function(f"internal void @{v.symbol}_worker(ptr %data) nounwind")


def _vq_dispatch(v: SortVariant, parallel: bool) -> str:
    """The public function (the radix sort's signature): the keys, scratch, stacks and
    counts of each row in flight (malloc'ed), the rows on one thread or on the team
    (rows split when there are as many as threads, else each sorted by the team)."""
    e, k = Emitter(), _vq_lanes(v)
    rows = e.mul("%outer", "%inner")
    threads = e.value(f"sext i32 {e.value(f'call i32 @{NUM_THREADS}()')} to i64") if parallel else "1"
    many = e.value(f"icmp sgt i64 {threads}, 1")
    big = e.value(f"icmp sge i64 {e.mul(rows, '%n')}, {PARALLEL_MIN_ELEMENTS}")
    team = e.value(f"select i1 {e.value(f'and i1 {many}, {big}')}, i64 {threads}, i64 1")
    split_rows = e.value(f"icmp sge i64 {rows}, {team}")
    copies = e.value(f"select i1 {split_rows}, i64 {team}, i64 1")
    key_bytes = e.mul(copies, e.mul("%n", k.bits // 8))
    # the keys buffer: with positions, or for strided rows (a contiguous row's keys go
    # from the source to the scratch and the result)
    keys_needed = "true" if v.perm else e.value("icmp ne i64 %inner, 1")
    sizes = {
        "%keys": e.value(f"select i1 {keys_needed}, i64 {key_bytes}, i64 0"),
        "%scratch": key_bytes,
        "%stacks": e.mul(team, VQ_STACK * _VQ_ENTRY * 8 * 2),  # two per thread: a team's thread 1 too
        "%stats": e.mul(team, 24),
        "%lr": e.mul(team, 16),
    }
    offsets, total = {}, "0"
    for name, size in sizes.items():
        offsets[name] = total
        total = e.value(f"and i64 {e.add(e.add(total, size), 63)}, -64")  # each on its own cache lines
    base, cached = _workspace(e, v.symbol, total)
    fields = {name: name for _, name in _VQ_FIELDS}
    for name, offset in offsets.items():
        fields[name] = e.gep(base, offset, "i8")
    fields["%split"] = e.value(f"zext i1 {split_rows} to i64")
    if not v.perm:
        fields["%perm"] = "null"
    if parallel:
        then, serial, end = e.new_label("parallel"), e.new_label("serial"), e.new_label("end")
        e.emit(f"br i1 {e.value(f'icmp sgt i64 {team}, 1')}, label %{then}, label %{serial}")
        e.label(then)
        args = e.value(f"alloca {_VQ_STRUCT}, align 8")
        for field, (ty, name) in enumerate(_VQ_FIELDS):
            at = e.value(f"getelementptr inbounds {_VQ_STRUCT}, ptr {args}, i32 0, i32 {field}", "p")
            e.emit(f"store {ty} {fields[name]}, ptr {at}, align 8")
        team32 = e.value(f"trunc i64 {team} to i32")
        e.emit(f"call void @GOMP_parallel(ptr @{v.symbol}_worker, ptr {args}, i32 {team32}, i32 0)")
        e.emit(f"br label %{end}")
        e.label(serial)
    _vq_rows(v, e, fields, "0", rows, "0", "0", "1")
    if parallel:
        e.emit(f"br label %{end}")
        e.label(end)
    _release_workspace(e, v.symbol, base, cached)
    perm = ", ptr noalias %perm" if v.perm else ""
    return e.function(
        f"void @{v.symbol}(i64 %outer, i64 %n, i64 %inner, ptr noalias %src, ptr noalias %dst{perm}) nounwind"
    )


def _raw_masked_load(v: SortVariant, k: _Lanes) -> list[str]:
    """The declaration of the masked load of the keys' own type under the lanes' mask,
    where they differ (keys with their positions: 32-bit keys in 64-bit lanes)."""
    if v.int_type == k.ty:
        return []
    raw = f"<{k.count} x {v.int_type}>"
    return [f"declare {raw} @llvm.masked.load.v{k.count}{v.int_type}.p0(ptr, i32, {k.mask}, {raw})"]


def vq_sort_ir(v: SortVariant, parallel: bool) -> str:
    """The vector quicksort's module for variant `v` (`vector_quicksort`)."""
    k = _vq_lanes(v)
    parts = [
        "declare ptr @aligned_alloc(i64, i64)\ndeclare void @free(ptr)",
        _workspace_globals(v.symbol),
        "declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)\ndeclare i64 @llvm.ctlz.i64(i64, i1)",
        f"declare {k.vec} @llvm.masked.load.{k.suffix}.p0(ptr, i32, {k.mask}, {k.vec})",
        *_raw_masked_load(v, k),
        f"declare void @llvm.masked.store.{k.suffix}.p0({k.vec}, ptr, i32, {k.mask})",
        f"declare {k.vec} @llvm.umin.{k.suffix}({k.vec}, {k.vec})\ndeclare {k.vec} @llvm.umax.{k.suffix}({k.vec}, {k.vec})",
        f"declare {k.ty} @llvm.umin.{k.ty}({k.ty}, {k.ty})\ndeclare {k.ty} @llvm.umax.{k.ty}({k.ty}, {k.ty})",
        *k.declarations(),
        f"declare {k.mask_int} @llvm.ctpop.{k.mask_int}({k.mask_int})",
    ]
    if parallel:
        parts += [
            "declare void @GOMP_parallel(ptr, ptr, i32, i32)\ndeclare void @GOMP_barrier()",
            "declare i32 @omp_get_thread_num()\ndeclare i32 @omp_get_num_threads()",
            f"declare i32 @{NUM_THREADS}()",
        ]
    vectors = 1
    while vectors <= VQ_SMALL_VECTORS:
        parts.append(_vq_network(v, vectors))
        vectors *= 2
    parts += [_vq_small(v), _vq_partition(v), _vq_partition(v, encoding=True), _vq_partition_in_place(v)]
    parts += [_vq_heapsort(v), _vq_sort(v)]
    parts.append(_vq_row(v, parallel))
    if parallel:
        parts.append(_vq_worker(v))
    parts.append(_vq_dispatch(v, parallel))
    return "\n\n".join([*parts, ""])


# --------------------------------------------------------------------------------------
# Top-k: the first k of every row's stable sorted order, by a selection
# --------------------------------------------------------------------------------------

TOPK_PREFIX = "xla_opt_topk_"


@dataclass(frozen=True)
class TopKVariant:
    """A top-k kernel: the key's kind, width, order (`SortVariant.ctype`) and direction.

        void xla_opt_topk_<variant>(i64 outer, i64 n, i64 inner, i64 k, iW* src, iW* dst, i32* perm)

    writes the first k elements of every row's stable sorted order (rows as in the
    sort kernel: outer x n x inner, element j of row (o, i) at (o * n + j) * inner + i)
    into dst (outer x k x inner), with their positions in the row into perm. The values
    are the source elements' own bits (a -0.0, a NaN's payload), so FLOAT needs no fixup.

    Each element is ranked by a composite integer, its key (`SortVariant.encode`, the
    direction applied) above its position: the composites are distinct, and the k
    smallest, in increasing order, are the stable sort's first k (ties by position).
    A thread keeps the k smallest composites it has seen in a max-heap: an element
    enters when its composite is below the root (the k-th smallest so far), replacing
    it. On contiguous rows the elements are first tested a vector at a time: the
    smallest key of 512 bits' worth is compared with the root's key, and the vector is
    skipped when none can enter (after the first few thousand elements of random data
    almost all are). Long rows are cut into one chunk per thread; thread 0 then merges
    the other heaps into its own. The heap is sorted in place (heapsort) and written
    out. Rows are split over the threads when there are at least T of them."""

    kind: str
    width: int
    ctype: str
    descending: bool

    @property
    def keys(self) -> SortVariant:
        """The sort variant whose keys these are (its `encode`)."""
        return SortVariant(self.kind, self.width, self.ctype, self.descending, 8, True)

    @property
    def symbol(self) -> str:
        return f"{TOPK_PREFIX}{self.kind}{self.width}_{self.ctype}_{'gt' if self.descending else 'lt'}"

    @property
    def composite(self) -> str:
        """The composite's type: the key above 32 bits of position."""
        return "i64" if self.width <= 32 else "i128"

    @property
    def composite_bytes(self) -> int:
        return 8 if self.width <= 32 else 16

    @property
    def lanes(self) -> int:
        return 512 // self.width


def _topk_sift(v: TopKVariant) -> str:
    """heap[0] replaced by c, sifted down a max-heap of `size` composites."""
    e, ct = Emitter(), v.composite
    at = e.variable("i64", 0)
    head, body, step, done = (e.new_label(h) for h in ("sift.head", "sift.body", "sift.step", "sift.done"))
    e.emit(f"br label %{head}")
    e.label(head)
    i = e.value(f"load i64, ptr {at}")
    left = e.add(e.mul(i, 2), 1)
    e.emit(f"br i1 {e.value(f'icmp slt i64 {left}, %size')}, label %{body}, label %{done}")
    e.label(body)
    right = e.add(left, 1)
    right = e.value(f"select i1 {e.value(f'icmp slt i64 {right}, %size')}, i64 {right}, i64 {left}")
    lv, rv = _load(e, ct, "%heap", left), _load(e, ct, "%heap", right)
    take_right = e.value(f"icmp ugt {ct} {rv}, {lv}")
    child = e.value(f"select i1 {take_right}, i64 {right}, i64 {left}")
    largest = e.value(f"select i1 {take_right}, {ct} {rv}, {ct} {lv}")
    e.emit(f"br i1 {e.value(f'icmp ult {ct} %c, {largest}')}, label %{step}, label %{done}")
    e.label(step)
    _store(e, ct, largest, "%heap", i)
    e.emit(f"store i64 {child}, ptr {at}")
    e.emit(f"br label %{head}")
    e.label(done)
    _store(e, ct, "%c", "%heap", e.value(f"load i64, ptr {at}"))
    return e.function(f"internal void @{v.symbol}_sift(ptr noalias %heap, i64 %size, {ct} %c) nounwind")


def _topk_consider(v: TopKVariant) -> str:
    """Element `index` of the row (stride apart) enters the heap of k if its composite
    is below the root."""
    e, ct, t = Emitter(), v.composite, v.keys.int_type
    raw = _load(e, t, "%src", e.mul("%index", "%stride"), "raw")
    key = e.value(f"zext {t} {v.keys.encode(e, raw)} to {ct}")
    position = "%index" if ct == "i64" else e.value(f"zext i64 %index to {ct}")
    composite = e.value(f"or {ct} {e.value(f'shl {ct} {key}, 32')}, {position}")
    root = _load(e, ct, "%heap", "0", "root")
    with e.when(e.value(f"icmp ult {ct} {composite}, {root}"), "enter"):
        e.emit(f"call void @{v.symbol}_sift(ptr %heap, i64 %k, {ct} {composite})")
    return e.function(
        f"internal void @{v.symbol}_consider(ptr noalias %src, i64 %stride, i64 %index, ptr noalias %heap, i64 %k) "
        "nounwind alwaysinline"
    )


def _topk_scan(v: TopKVariant) -> str:
    """Elements [lo, hi) of a row offered to the heap; contiguous rows a vector of keys
    at a time, skipped when the smallest key is above the root's."""
    e, ct, t = Emitter(), v.composite, v.keys.int_type
    lanes = v.lanes
    vec = f"<{lanes} x {t}>"

    def consider(index: str) -> None:
        e.emit(f"call void @{v.symbol}_consider(ptr %src, i64 %stride, i64 {index}, ptr %heap, i64 %k)")

    then, other, end = e.new_label("vector"), e.new_label("strided"), e.new_label("end")
    e.emit(f"br i1 {e.value('icmp eq i64 %stride, 1')}, label %{then}, label %{other}")
    e.label(then)
    blocks_end = e.add("%lo", e.mul(e.value(f"sdiv i64 {e.value('sub i64 %hi, %lo')}, {lanes}"), lanes))
    with e.loop("%lo", blocks_end, lanes, hint="blk") as b:
        keys = v.keys.encode(e, e.value(f"load {vec}, ptr {e.gep('%src', b, t)}, align {v.width // 8}"), lanes)
        smallest = e.value(f"call {t} @llvm.vector.reduce.umin.v{lanes}{t}({vec} {keys})")
        root = _load(e, ct, "%heap", "0", "root")
        root_key = e.value(f"trunc {ct} {e.value(f'lshr {ct} {root}, 32')} to {t}")
        with (
            e.when(e.value(f"icmp ule {t} {smallest}, {root_key}"), "maybe"),
            e.loop(b, e.add(b, lanes), hint="el") as j,
        ):
            consider(j)
    with e.loop(blocks_end, "%hi", hint="tail") as j:
        consider(j)
    e.emit(f"br label %{end}")
    e.label(other)
    with e.loop("%lo", "%hi", hint="s") as j:
        consider(j)
    e.emit(f"br label %{end}")
    e.label(end)
    return e.function(
        f"internal void @{v.symbol}_scan(ptr noalias %src, i64 %stride, i64 %lo, i64 %hi, ptr noalias %heap, "
        "i64 %k) nounwind"
    )


def _topk_row(v: TopKVariant, parallel: bool) -> str:
    """One row by thread t of a team of T (T = 1: the whole row): its chunk scanned into
    its heap (heaps + t * k), then thread 0 merges the others' heaps, sorts its heap
    and writes the row's k results (src[position] and the position)."""
    e, ct, t = Emitter(), v.composite, v.keys.int_type
    heap = e.gep("%heaps", e.mul("%t", "%k"), ct)
    with e.loop(0, "%k", hint="fill") as j:
        _store(e, ct, "-1", heap, j)  # above every composite: a position is below 2^32 - 1
    lo = e.value(f"udiv i64 {e.mul('%n', '%t')}, %T")
    hi = e.value(f"udiv i64 {e.mul('%n', e.add('%t', 1))}, %T")
    e.emit(f"call void @{v.symbol}_scan(ptr %src, i64 %stride, i64 {lo}, i64 {hi}, ptr {heap}, i64 %k)")
    _barrier(e, parallel)
    with e.when(e.value("icmp eq i64 %t, 0"), "merge"):
        with e.loop(1, "%T", hint="th") as th, e.loop(0, "%k", hint="m") as j:
            c = _load(e, ct, "%heaps", e.add(e.mul(th, "%k"), j), "c")
            with e.when(e.value(f"icmp ult {ct} {c}, {_load(e, ct, '%heaps', '0', 'root')}"), "enter"):
                e.emit(f"call void @{v.symbol}_sift(ptr %heaps, i64 %k, {ct} {c})")
        with e.loop(1, "%k", hint="hs") as j:  # heapsort: the largest to the end, k - 1 times
            last = e.value(f"sub i64 %k, {j}")
            top, tail = _load(e, ct, "%heaps", "0", "top"), _load(e, ct, "%heaps", last, "tail")
            _store(e, ct, top, "%heaps", last)
            e.emit(f"call void @{v.symbol}_sift(ptr %heaps, i64 {last}, {ct} {tail})")
        with e.loop(0, "%k", hint="out") as j:
            c = _load(e, ct, "%heaps", j, "c")
            low = c if ct == "i64" else e.value(f"trunc {ct} {c} to i64")
            position = e.value(f"and i64 {low}, 4294967295")
            at = e.mul(j, "%stride")
            _store(e, t, _load(e, t, "%src", e.mul(position, "%stride"), "raw"), "%dst", at)
            _store(e, "i32", e.value(f"trunc i64 {position} to i32"), "%perm", at)
    _barrier(e, parallel)  # the next row reuses the heaps
    return e.function(
        f"internal void @{v.symbol}_row(ptr noalias %src, ptr noalias %dst, ptr noalias %perm, i64 %n, "
        "i64 %stride, i64 %k, ptr noalias %heaps, i64 %t, i64 %T) nounwind"
    )


_TOPK_FIELDS = [
    ("i64", "%outer"), ("i64", "%n"), ("i64", "%inner"), ("i64", "%k"), ("ptr", "%src"), ("ptr", "%dst"),
    ("ptr", "%perm"), ("ptr", "%heaps"), ("i64", "%split"),
]  # fmt: skip
_TOPK_STRUCT = "{ " + ", ".join(ty for ty, _ in _TOPK_FIELDS) + " }"


def _topk_rows(v: TopKVariant, e: Emitter, r0: str, r1: str, heaps: str, t: str, team: str) -> None:
    """Rows [r0, r1) as thread t of `team`, with the heaps at `heaps`."""
    with e.loop(r0, r1, hint="r") as r:
        outer, inner = e.value(f"udiv i64 {r}, %inner"), e.value(f"urem i64 {r}, %inner")
        src = e.gep("%src", e.add(e.mul(e.mul(outer, "%n"), "%inner"), inner), v.keys.int_type)
        at = e.add(e.mul(e.mul(outer, "%k"), "%inner"), inner)
        dst, perm = e.gep("%dst", at, v.keys.int_type), e.gep("%perm", at, "i32")
        e.emit(
            f"call void @{v.symbol}_row(ptr {src}, ptr {dst}, ptr {perm}, i64 %n, i64 %inner, i64 %k, "
            f"ptr {heaps}, i64 {t}, i64 {team})"
        )


def _topk_worker(v: TopKVariant) -> str:
    e = Emitter()
    for field, (ty, name) in enumerate(_TOPK_FIELDS):
        at = e.value(f"getelementptr inbounds {_TOPK_STRUCT}, ptr %data, i32 0, i32 {field}", "p")
        e.emit(f"{name} = load {ty}, ptr {at}, align 8")
    t = e.value(f"sext i32 {e.value('call i32 @omp_get_thread_num()')} to i64")
    team = e.value(f"sext i32 {e.value('call i32 @omp_get_num_threads()')} to i64")
    rows = e.mul("%outer", "%inner")
    then, other, end = e.new_label("split"), e.new_label("together"), e.new_label("end")
    e.emit(f"br i1 {e.value('icmp ne i64 %split, 0')}, label %{then}, label %{other}")
    e.label(then)
    r0 = e.value(f"udiv i64 {e.mul(rows, t)}, {team}")
    r1 = e.value(f"udiv i64 {e.mul(rows, e.add(t, 1))}, {team}")
    _topk_rows(v, e, r0, r1, e.gep("%heaps", e.mul(t, "%k"), v.composite), "0", "1")
    e.emit(f"br label %{end}")
    e.label(other)
    _topk_rows(v, e, "0", rows, "%heaps", t, team)
    e.emit(f"br label %{end}")
    e.label(end)
    return e.function(f"internal void @{v.symbol}_worker(ptr %data) nounwind")


def _topk_dispatch(v: TopKVariant, parallel: bool) -> str:
    """The public function: a heap of k per thread, the rows on one thread or on the
    team (as the sort's `_dispatch`)."""
    e = Emitter()
    rows = e.mul("%outer", "%inner")
    threads = e.value(f"sext i32 {e.value(f'call i32 @{NUM_THREADS}()')} to i64") if parallel else "1"
    many = e.value(f"icmp sgt i64 {threads}, 1")
    big = e.value(f"icmp sge i64 {e.mul(rows, '%n')}, {PARALLEL_MIN_ELEMENTS}")
    team = e.value(f"select i1 {e.value(f'and i1 {many}, {big}')}, i64 {threads}, i64 1")
    split = e.value(f"icmp sge i64 {rows}, {team}")
    heaps = e.value(f"call ptr @malloc(i64 {e.add(e.mul(e.mul(team, '%k'), v.composite_bytes), 64)})", "buf")
    if parallel:
        then, serial, end = e.new_label("parallel"), e.new_label("serial"), e.new_label("end")
        e.emit(f"br i1 {e.value(f'icmp sgt i64 {team}, 1')}, label %{then}, label %{serial}")
        e.label(then)
        args = e.value(f"alloca {_TOPK_STRUCT}, align 8")
        values = {name: name for _, name in _TOPK_FIELDS}
        values.update({"%heaps": heaps, "%split": e.value(f"zext i1 {split} to i64")})
        for field, (ty, name) in enumerate(_TOPK_FIELDS):
            at = e.value(f"getelementptr inbounds {_TOPK_STRUCT}, ptr {args}, i32 0, i32 {field}", "p")
            e.emit(f"store {ty} {values[name]}, ptr {at}, align 8")
        team32 = e.value(f"trunc i64 {team} to i32")
        e.emit(f"call void @GOMP_parallel(ptr @{v.symbol}_worker, ptr {args}, i32 {team32}, i32 0)")
        e.emit(f"br label %{end}")
        e.label(serial)
    _topk_rows(v, e, "0", rows, heaps, "0", "1")
    if parallel:
        e.emit(f"br label %{end}")
        e.label(end)
    e.emit(f"call void @free(ptr {heaps})")
    return e.function(
        f"void @{v.symbol}(i64 %outer, i64 %n, i64 %inner, i64 %k, ptr noalias %src, ptr noalias %dst, "
        "ptr noalias %perm) nounwind"
    )


def topk_ir(v: TopKVariant, parallel: bool = False) -> str:
    """The LLVM IR module defining the top-k kernel of variant `v` (see `sort_ir`)."""
    t = v.keys.int_type
    parts = [
        "declare ptr @malloc(i64)\ndeclare void @free(ptr)",
        f"declare {t} @llvm.vector.reduce.umin.v{v.lanes}{t}(<{v.lanes} x {t}>)",
    ]
    if parallel:
        parts += [
            "declare void @GOMP_parallel(ptr, ptr, i32, i32)\ndeclare void @GOMP_barrier()",
            "declare i32 @omp_get_thread_num()\ndeclare i32 @omp_get_num_threads()",
            f"declare i32 @{NUM_THREADS}()",
        ]
    parts += [_topk_sift(v), _topk_consider(v), _topk_scan(v), _topk_row(v, parallel)]
    if parallel:
        parts.append(_topk_worker(v))
    parts.append(_topk_dispatch(v, parallel))
    return "\n\n".join([*parts, ""])
