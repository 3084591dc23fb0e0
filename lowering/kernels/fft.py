"""`xla_opt_fft_<variant>`: FFTs of the rows of an array, emitted as LLVM IR text, one
library of every variant compiled once per process on first use.

    void xla_opt_fft_<variant>(i64 outer, i64 n, i64 inner, ptr src, ptr dst)

transforms every row of `src` (shape outer x length x inner, row-major: the row (o, i)
has its element k at src[(o * length + k) * inner + i]) into the same place of `dst`,
n being the transform's length. A variant (`FftVariant`) is one of

* c2c: complex rows of n to complex rows of n, forward (exp(-2 pi i jk/n)) or inverse
  (exp(+...), times 1/n);
* r2c: real rows of n to the first n/2 + 1 bins, the imaginary parts of bin 0 and
  (n even) bin n/2 exactly 0, as a real FFT has them;
* c2r: the first n/2 + 1 bins to real rows of n (the inverse, times 1/n): the bins
  extended by Hermitian symmetry (X[k] = conj(X[n - k])), the imaginary parts of bins
  0 and n/2 ignored (taken as 0, as numpy's irfft and XLA's do);

with the source and result element types (f32, f64, complex<f32>, complex<f64>). Every
variant computes in f64 (complex<f64>), as the generic lowering (FftToGeneric) does,
rounding once to the result type; n is any length whose prime factors are among
`SUPPORTED_PRIMES`.

Per row: the row is read (widened to f64, a real one with imaginary parts +0, an
Hermitian one extended) into a split (real parts, imaginary parts) buffer, transformed
by Stockham autosort steps (each reads one buffer and writes the other, the result in
natural order), one per factor in the generic lowering's order (4 for two 2s, then a
2, then the odd primes ascending), and written out (scaled by 1/n for an inverse).

A step of radix p on sub-transforms of length L = p m with stride s (s L = n): for j <
m and q < s, the p inputs x[q + s (j + m j1)] give the outputs y[q + s (p j + k1)] =
w_L^(j k1) DFT_p(inputs)[k1]. Two ways:

* a row whose values are all finite and below 2^960 (no sum can overflow: f32 rows
  always) takes the fast steps: a butterfly (radix 2 and 4 by sign changes and
  swapped parts; radix 8 as two of 4 and products by (1 -+ i) / sqrt 2; odd radices
  by the symmetric pairs a_j +- a_(p-j), real coefficients), then one product by a
  twiddle from a per-step table; the innermost loop (over q where s is a vector's
  length or more, else over j) vectorizes. The last step (m = 1, no twiddles) works
  in place (`_last_step`);
* a row with a NaN, an infinity or a huge value takes the exact steps
  (`_exact_step`), the generic lowering's arithmetic term by term: each output is the
  sum over j1, in increasing order, of x_j1 * w_L^(k1 (j + m j1) mod L), the trivial
  twiddles (1, -1, -i, +i) applied exactly by sign changes and swapped parts (inf *
  (0 - 1i) is 0 - inf i, not NaN - inf i), so that NaNs and infinities land where
  FftToGeneric (and XLA's FFT, where it documents agreeing) puts them. The radices 11
  and 13 take the exact steps always (rare lengths: fast code for them would cost the
  library's compile time more than they gain).

A finite real row of even n >= 4 (r2c, c2r) is transformed as a complex row of n / 2:
even and odd elements as real and imaginary parts, half the steps' work. One pass reads
the source into the split buffer (`_pack`; `_mix` for c2r, which tangles the bins as it
reads them), one writes the result from it (`_untangle` for r2c; `_unpack`): each is a
contiguous loop that vectorizes, with no copy of the row in between.

Twiddles: w_n^k = (cos(2 pi k / n), -+sin(...)) for k < n, computed per call (a
quarter of them, the rest by exact symmetries when 4 divides n; 1, -1, -+i exactly),
and each fast step's table gathered from them, shared by the rows. Rows are split over
`xla_opt_num_threads()` threads (libgomp's `GOMP_parallel`) when there are several
and at least PARALLEL_MIN_ELEMENTS elements; each thread has its own two buffers.
"""

from __future__ import annotations

import math
import struct
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from xla_opt.lowering.kernels.gemm import Emitter
from xla_opt.lowering.kernels.threads import NUM_THREADS

PREFIX = "xla_opt_fft_"
SUPPORTED_PRIMES = (2, 3, 5, 7, 11, 13)
FAST_ODD_RADICES = (3, 5, 7)  # the odd radices with fast steps; 11 and 13 are exact steps
FAST_RADICES = (8, 4, 2, *FAST_ODD_RADICES)  # the radices with fast steps
EXACT_ORDER = (4, 2, *SUPPORTED_PRIMES[1:])  # the generic lowering's order of factors
# A packed real row only ever takes fast steps: its plan takes 8s first (fewer passes
# over the row than 4s: the steps are bound by the cache's bandwidth)
PACKED_ORDER = (8, *EXACT_ORDER)
MAX_STAGES = 64  # n < 2^63: at most 63 factors
VECTOR = 8  # doubles in a vector: a step whose stride s is this or more vectorizes over q
PARALLEL_MIN_ELEMENTS = 1 << 14  # ~0.1 ms of transforms: below that, waking a team costs more
HUGE = 2.0**960  # a row's values below this cannot overflow in any sum of a transform

KINDS = ("c2c", "r2c", "c2r")
# element type name -> (LLVM part type, parts per element)
TYPES = {"f32": ("float", 1), "f64": ("double", 1), "c64": ("float", 2), "c128": ("double", 2)}
# an element type as MLIR spells it -> its name here (the lowering's types, a program's text)
ELEMENT_NAMES = {"f32": "f32", "f64": "f64", "complex<f32>": "c64", "complex<f64>": "c128"}


@dataclass(frozen=True)
class FftVariant:
    """One entry of the library: the transform's kind (c2c, r2c, c2r), its direction
    (r2c is forward, c2r inverse) and the source and result element types."""

    kind: str
    inverse: bool
    source: str
    result: str

    def __post_init__(self) -> None:
        assert self.kind in KINDS and self.source in TYPES and self.result in TYPES
        real_in, real_out = TYPES[self.source][1] == 1, TYPES[self.result][1] == 1
        assert (real_in, real_out) == {"c2c": (False, False), "r2c": (True, False), "c2r": (False, True)}[self.kind]
        assert self.inverse == (self.kind == "c2r") or self.kind == "c2c"

    @property
    def symbol(self) -> str:
        direction = "inv" if self.inverse else "fwd"
        return f"{PREFIX}{self.kind}_{direction}_{self.source}_{self.result}"

    @property
    def source_length(self) -> str:
        """A row's length in the source, in terms of n (an LLVM expression name)."""
        return "half" if self.kind == "c2r" else "n"

    @property
    def result_length(self) -> str:
        return "half" if self.kind == "r2c" else "n"


def _variants() -> list[FftVariant]:
    out = []
    for s in ("c64", "c128"):
        for r in ("c64", "c128"):
            out += [FftVariant("c2c", False, s, r), FftVariant("c2c", True, s, r)]
    for real in ("f32", "f64"):
        for c in ("c64", "c128"):
            out += [FftVariant("r2c", False, real, c), FftVariant("c2r", True, c, real)]
    return out


VARIANTS: tuple[FftVariant, ...] = tuple(_variants())
PARAMS = [("i64", "outer"), ("i64", "n"), ("i64", "inner"), ("ptr", "src"), ("ptr", "dst")]


def supported(n: int) -> bool:
    """Whether the kernel transforms rows of length n: n >= 1 whose prime factors are
    all in SUPPORTED_PRIMES."""
    if n < 1:
        return False
    for p in SUPPORTED_PRIMES:
        while n % p == 0:
            n //= p
    return n == 1


def _d(x: float) -> str:
    """A double literal, exactly (LLVM's hexadecimal form)."""
    return f"0x{struct.unpack('<Q', struct.pack('<d', x))[0]:016X}"


def _define(e: Emitter, signature: str, ret: str = "ret void") -> str:
    e.emit(ret)
    return "\n".join([f"define {signature} {{", "entry:", *e.allocas, *e.lines, "}"])


# complex values are pairs of SSA names: doubles, or vectors of LANES doubles
Complex = tuple[str, str]
LANES = 4  # the vector steps' doubles per vector (256 bits: AVX2 and up)
VEC = f"<{LANES} x double>"


def _fadd(e: Emitter, a: str, b: str, t: str = "double") -> str:
    return e.value(f"fadd {t} {a}, {b}", "f")


def _fsub(e: Emitter, a: str, b: str, t: str = "double") -> str:
    return e.value(f"fsub {t} {a}, {b}", "f")


def _fmul(e: Emitter, a: str, b: str, t: str = "double") -> str:
    return e.value(f"fmul {t} {a}, {b}", "f")


def _cadd(e: Emitter, a: Complex, b: Complex, t: str = "double") -> Complex:
    return _fadd(e, a[0], b[0], t), _fadd(e, a[1], b[1], t)


def _csub(e: Emitter, a: Complex, b: Complex, t: str = "double") -> Complex:
    return _fsub(e, a[0], b[0], t), _fsub(e, a[1], b[1], t)


def _cmul(e: Emitter, a: Complex, w: Complex, t: str = "double") -> Complex:
    """a * w, four products (a and w finite: the fast steps)."""
    re = _fsub(e, _fmul(e, a[0], w[0], t), _fmul(e, a[1], w[1], t), t)
    im = _fadd(e, _fmul(e, a[0], w[1], t), _fmul(e, a[1], w[0], t), t)
    return re, im


def _constant(x: float, t: str) -> str:
    return _d(x) if t == "double" else f"splat (double {_d(x)})"


def _splat(e: Emitter, scalar: str) -> str:
    one = e.value(f"insertelement {VEC} poison, double {scalar}, i64 0", "f")
    return e.value(f"shufflevector {VEC} {one}, {VEC} poison, <{LANES} x i32> zeroinitializer", "f")


def _rotate(e: Emitter, a: Complex, sigma: str, t: str) -> Complex:
    """a * (-i sigma), sigma +1 forward, -1 inverse: (sigma im, -sigma re), exact for
    finite a (the fast steps)."""
    return _fmul(e, sigma, a[1], t), e.value(f"fneg {t} {_fmul(e, sigma, a[0], t)}", "f")


def _load_c(e: Emitter, re: str, im: str, at: str, t: str = "double") -> Complex:
    return (
        e.value(f"load {t}, ptr {e.gep(re, at, 'double')}, align 8", "a"),
        e.value(f"load {t}, ptr {e.gep(im, at, 'double')}, align 8", "a"),
    )


def _store_c(e: Emitter, z: Complex, re: str, im: str, at: str, t: str = "double") -> None:
    e.emit(f"store {t} {z[0]}, ptr {e.gep(re, at, 'double')}, align 8")
    e.emit(f"store {t} {z[1]}, ptr {e.gep(im, at, 'double')}, align 8")


def _butterfly(e: Emitter, p: int, a: list[Complex], sigma: str, t: str) -> list[Complex]:
    """DFT_p of a (forward for sigma = 1, inverse for -1)."""
    if p == 2:
        return [_cadd(e, a[0], a[1], t), _csub(e, a[0], a[1], t)]
    if p == 8:
        # two DFT_4 of the even and odd inputs, then X[k], X[k + 4] = E[k] +- w_8^k O[k]:
        # w_8 = (1 - i sigma) / sqrt 2, w_8^2 = -i sigma, w_8^3 = (-1 - i sigma) / sqrt 2
        even, odd = _butterfly(e, 4, a[0::2], sigma, t), _butterfly(e, 4, a[1::2], sigma, t)
        r = _constant(math.sqrt(0.5), t)
        scale = lambda z: (_fmul(e, z[0], r, t), _fmul(e, z[1], r, t))
        o1, o3 = _cadd(e, odd[1], _rotate(e, odd[1], sigma, t), t), _csub(e, _rotate(e, odd[3], sigma, t), odd[3], t)
        odd = [odd[0], scale(o1), _rotate(e, odd[2], sigma, t), scale(o3)]
        return [_cadd(e, even[k], odd[k], t) for k in range(4)] + [_csub(e, even[k], odd[k], t) for k in range(4)]
    if p == 4:
        t0, t1 = _cadd(e, a[0], a[2], t), _csub(e, a[0], a[2], t)
        t2, t3 = _cadd(e, a[1], a[3], t), _csub(e, a[1], a[3], t)
        r = _rotate(e, t3, sigma, t)
        return [_cadd(e, t0, t2, t), _cadd(e, t1, r, t), _csub(e, t0, t2, t), _csub(e, t1, r, t)]
    # odd p: b_k = a0 + sum_j cos(2 pi jk/p) (a_j + a_(p-j)) + (-i sigma) sin(2 pi jk/p) (a_j - a_(p-j))
    h = (p - 1) // 2
    plus = [_cadd(e, a[j], a[p - j], t) for j in range(1, h + 1)]
    minus = [_csub(e, a[j], a[p - j], t) for j in range(1, h + 1)]
    out: list[Complex | None] = [None] * p
    total = a[0]
    for pj in plus:
        total = _cadd(e, total, pj, t)
    out[0] = total
    for k in range(1, h + 1):
        u, v = a[0], None
        for j in range(1, h + 1):
            angle = 2 * math.pi * (j * k % p) / p
            c, s = _constant(math.cos(angle), t), _constant(math.sin(angle), t)
            u = _cadd(e, u, (_fmul(e, plus[j - 1][0], c, t), _fmul(e, plus[j - 1][1], c, t)), t)
            term = (_fmul(e, minus[j - 1][0], s, t), _fmul(e, minus[j - 1][1], s, t))
            v = term if v is None else _cadd(e, v, term, t)
        assert v is not None
        r = _rotate(e, v, sigma, t)
        out[k], out[p - k] = _cadd(e, u, r, t), _csub(e, u, r, t)
    return [z for z in out if z is not None]


_STEP_PARAMS = (
    "ptr noalias %xr, ptr noalias %xi, ptr noalias %yr, ptr noalias %yi, i64 %L, i64 %s, ptr noalias %wr, "
    "ptr noalias %wi, double %sigma"
)


def _step_body(
    e: Emitter, p: int, q: str, j: str, m: str, twiddles: list[Complex] | None, sigma: str, t: str, into: str = "%y"
) -> None:
    """The p outputs of (q, j) (q, j the first of LANES consecutive ones in a vector
    over q: `t` a vector type), into the buffers `into`r and `into`i."""
    sm = e.mul("%s", m)
    base = e.add(q, e.mul("%s", j))
    a = [_load_c(e, "%xr", "%xi", e.add(base, e.mul(sm, j1)) if j1 else base, t) for j1 in range(p)]
    b = _butterfly(e, p, a, sigma, t)
    out = e.add(q, e.mul(e.mul("%s", p), j))
    for k1 in range(p):
        z = b[k1] if twiddles is None or k1 == 0 else _cmul(e, b[k1], twiddles[k1 - 1], t)
        _store_c(e, z, f"{into}r", f"{into}i", e.add(out, e.mul("%s", k1)) if k1 else out, t)


class ScalarLoops:
    """Loop metadata that keeps LLVM from vectorizing, interleaving or unrolling a loop:
    the steps' one-at-a-time loops (remainders, short strides) are scalar on purpose,
    and O3 vectorizing them all cost the library's compile 0.13 s (0.85 s against 0.72 s)."""

    HINTS = (
        '!{!"llvm.loop.vectorize.width", i32 1}',
        '!{!"llvm.loop.interleave.count", i32 1}',
        '!{!"llvm.loop.unroll.disable"}',
    )
    FIRST = 1000  # the loops' own nodes; the hints' before them

    def __init__(self) -> None:
        self.loops = 0

    def attach(self) -> str:
        """The metadata of one more loop (each loop has its own distinct node)."""
        self.loops += 1
        return f"!llvm.loop !{self.FIRST + self.loops - 1}"

    def definitions(self) -> str:
        hints = [f"!{self.FIRST - len(self.HINTS) + i}" for i in range(len(self.HINTS))]
        lines = [f"{name} = {hint}" for name, hint in zip(hints, self.HINTS, strict=True)]
        for i in range(self.FIRST, self.FIRST + self.loops):
            lines.append(f"!{i} = distinct !{{!{i}, {', '.join(hints)}}}")
        return "\n".join(lines)


def _last_step(p: int, scalar: ScalarLoops) -> str:
    """The last step of radix p (L = p: m = 1, no twiddles), in place: the p inputs of
    a q are x[q + s j1] and its outputs x[q + s k1], the same places. A step from one
    buffer to another would keep 4p streams s apart in flight (s n / p: a multiple of
    4 KiB for a power of two, all in one set of the L1 cache), in place it keeps 2p."""
    e = Emitter()
    s_vec = e.value(f"and i64 %s, {-LANES}")
    with e.loop(0, s_vec, LANES, hint="q") as q:
        _step_body(e, p, q, "0", "1", None, _splat(e, "%sigma"), VEC, into="%x")
    with e.loop(s_vec, "%s", hint="qs", metadata=scalar.attach()) as q:
        _step_body(e, p, q, "0", "1", None, "%sigma", "double", into="%x")
    return e.function(
        f"internal void @{PREFIX}last{p}(ptr noalias %xr, ptr noalias %xi, i64 %s, double %sigma) noinline nounwind"
    )


def _scalar_step(p: int, scalar: ScalarLoops) -> str:
    """Outputs (q, j) for q in [q0, q1), j in [j0, j1), j innermost, one at a time (the
    steps' remainders and short strides)."""
    e = Emitter()
    m = e.value(f"udiv i64 %L, {p}")
    with (
        e.loop("%q0", "%q1", hint="q", metadata=scalar.attach()) as q,
        e.loop("%j0", "%j1", hint="j", metadata=scalar.attach()) as j,
    ):
        twiddles = [_load_c(e, "%wr", "%wi", e.add(e.mul(m, k1 - 1), j)) for k1 in range(1, p)]
        _step_body(e, p, q, j, m, twiddles, "%sigma", "double")
    return e.function(
        f"internal void @{PREFIX}scalar_step{p}({_STEP_PARAMS}, i64 %q0, i64 %q1, i64 %j0, i64 %j1) noinline nounwind"
    )


def _interleave(e: Emitter, vectors: list[str]) -> list[str]:
    """The LANES x p transpose of p (2, 4 or 8) vectors: lane l of vector k1 goes to
    element l p + k1 of the result, in p vectors."""

    def shuffle(a: str, b: str, mask: list[int]) -> str:
        lanes = ", ".join(f"i32 {i}" for i in mask)
        return e.value(f"shufflevector {VEC} {a}, {VEC} {b}, <{LANES} x i32> <{lanes}>", "f")

    if len(vectors) == 8:  # two 4 x 4 transposes, interleaved
        low, high = _interleave(e, vectors[:4]), _interleave(e, vectors[4:])
        return [v for pair in zip(low, high, strict=True) for v in pair]
    if len(vectors) == 2:
        b0, b1 = vectors
        return [shuffle(b0, b1, [0, 4, 1, 5]), shuffle(b0, b1, [2, 6, 3, 7])]
    b0, b1, b2, b3 = vectors
    t0, t1 = shuffle(b0, b1, [0, 4, 1, 5]), shuffle(b0, b1, [2, 6, 3, 7])
    t2, t3 = shuffle(b2, b3, [0, 4, 1, 5]), shuffle(b2, b3, [2, 6, 3, 7])
    return [shuffle(t0, t2, [0, 1, 4, 5]), shuffle(t0, t2, [2, 3, 6, 7]), shuffle(t1, t3, [0, 1, 4, 5]),
            shuffle(t1, t3, [2, 3, 6, 7])]  # fmt: skip


def _fast_step(p: int) -> str:
    """One Stockham step of radix p on finite values (see the module doc): x -> y, the
    step's twiddles w_L^(j k1) at w[(k1 - 1) m + j]. Vectors of LANES outputs: over q
    where the stride s has a vector's worth (one twiddle per k1 for them; none where
    L = p), over j on the first step of a radix 2 or 4 (s = 1: the outputs of LANES
    consecutive j transposed into place); the rest one at a time (`_scalar_step`)."""
    e = Emitter()
    m = e.value(f"udiv i64 %L, {p}")
    sigma = _splat(e, "%sigma")
    s_vec = e.value(f"and i64 %s, {-LANES}")
    m_vec = e.value(f"and i64 {m}, {-LANES}")
    scalar = f"call void @{PREFIX}scalar_step{p}(ptr %xr, ptr %xi, ptr %yr, ptr %yi, i64 %L, i64 %s, ptr %wr, ptr %wi, double %sigma"
    labels = {h: e.new_label(h) for h in ("rest", "wide", "first", "narrow", "done")}

    def branch(condition: str, then: str, other: str) -> None:
        e.emit(f"br i1 {condition}, label %{labels[then]}, label %{labels[other]}")

    e.emit(f"br label %{labels['rest']}")  # (L = p, the last step, is `_last_step`)
    e.label(labels["rest"])
    branch(e.value(f"icmp sge i64 %s, {LANES}"), "wide", "first")
    e.label(labels["wide"])
    with e.loop(0, m, hint="j") as j:
        twiddles = [
            tuple(_splat(e, part) for part in _load_c(e, "%wr", "%wi", e.add(e.mul(m, k1 - 1), j)))
            for k1 in range(1, p)
        ]
        with e.loop(0, s_vec, LANES, hint="q") as q:
            _step_body(e, p, q, j, m, twiddles, sigma, VEC)  # type: ignore[arg-type]
    e.emit(f"{scalar}, i64 {s_vec}, i64 %s, i64 0, i64 {m})")
    e.emit(f"br label %{labels['done']}")
    e.label(labels["first"])
    if p in (2, 4, 8):
        first = e.new_label("first.vec")
        e.emit(f"br i1 {e.value('icmp eq i64 %s, 1')}, label %{first}, label %{labels['narrow']}")
        e.label(first)
        with e.loop(0, m_vec, LANES, hint="j") as j:
            a = [_load_c(e, "%xr", "%xi", e.add(j, e.mul(m, j1)) if j1 else j, VEC) for j1 in range(p)]
            b = _butterfly(e, p, a, sigma, VEC)
            for k1 in range(1, p):
                w = _load_c(e, "%wr", "%wi", e.add(e.mul(m, k1 - 1), j), VEC)
                b[k1] = _cmul(e, b[k1], w, VEC)
            out = e.mul(j, p)
            for part, target in ((0, "%yr"), (1, "%yi")):
                for l, row in enumerate(_interleave(e, [z[part] for z in b])):
                    e.emit(f"store {VEC} {row}, ptr {e.gep(target, e.add(out, l * LANES), 'double')}, align 8")
        e.emit(f"{scalar}, i64 0, i64 1, i64 {m_vec}, i64 {m})")
        e.emit(f"br label %{labels['done']}")
    else:
        e.emit(f"br label %{labels['narrow']}")
    e.label(labels["narrow"])
    e.emit(f"{scalar}, i64 0, i64 %s, i64 0, i64 {m})")
    e.emit(f"br label %{labels['done']}")
    e.label(labels["done"])
    return e.function(f"internal void @{PREFIX}step{p}({_STEP_PARAMS}) noinline nounwind")


def _exact_step() -> str:
    """One Stockham step of radix %p, term by term as FftToGeneric's `dft_stage`:
    y[q + s (p j + k1)] = sum over j1 (increasing) of x[q + s (j + m j1)] * w_L^e,
    e = k1 (j + m j1) mod L, w_L^e = the table's entry e n / L (%ts = n / L); the trivial
    twiddles exactly: e = 0 as is, e = L/2 negated, e = L/4 times -i (forward; +i
    inverse), e = 3L/4 times +i (-i inverse)."""
    e = Emitter()
    m = e.value("udiv i64 %L, %p")
    inverse = e.value("icmp ne i64 %inverse, 0")
    with e.loop(0, m, hint="j") as j, e.loop(0, "%p", hint="k") as k1, e.loop(0, "%s", hint="q") as q:
        acc_re, acc_im = e.variable("double", "0.0"), e.variable("double", "0.0")
        with e.loop(0, "%p", hint="jj") as j1:
            offset = e.add(j, e.mul(m, j1))
            ar, ai = _load_c(e, "%xr", "%xi", e.add(q, e.mul("%s", offset)))
            exponent = e.value(f"urem i64 {e.mul(k1, offset)}, %L")
            c, s = _load_c(e, "%tr", "%ti", e.mul(exponent, "%ts"))
            re = _fsub(e, _fmul(e, ar, c), _fmul(e, ai, s))
            im = _fadd(e, _fmul(e, ar, s), _fmul(e, ai, c))
            neg_re, neg_im = e.value(f"fneg double {ar}", "f"), e.value(f"fneg double {ai}", "f")
            four = e.mul(exponent, 4)
            # x * -i = (im, -re), x * i = (-im, re)
            minus_i, plus_i = (ai, neg_re), (neg_im, ar)
            quarter = (
                e.value(f"select i1 {inverse}, double {plus_i[0]}, double {minus_i[0]}", "f"),
                e.value(f"select i1 {inverse}, double {plus_i[1]}, double {minus_i[1]}", "f"),
            )
            three_quarters = (
                e.value(f"select i1 {inverse}, double {minus_i[0]}, double {plus_i[0]}", "f"),
                e.value(f"select i1 {inverse}, double {minus_i[1]}, double {plus_i[1]}", "f"),
            )
            for hit, exact in (
                (e.value(f"icmp eq i64 {exponent}, 0"), (ar, ai)),
                (e.value(f"icmp eq i64 {e.mul(exponent, 2)}, %L"), (neg_re, neg_im)),
                (e.value(f"icmp eq i64 {four}, %L"), quarter),
                (e.value(f"icmp eq i64 {four}, {e.mul('%L', 3)}"), three_quarters),
            ):
                re = e.value(f"select i1 {hit}, double {exact[0]}, double {re}", "f")
                im = e.value(f"select i1 {hit}, double {exact[1]}, double {im}", "f")
            first = e.value(f"icmp eq i64 {j1}, 0")
            for acc, part in ((acc_re, re), (acc_im, im)):
                summed = _fadd(e, e.value(f"load double, ptr {acc}"), part)
                e.emit(f"store double {e.value(f'select i1 {first}, double {part}, double {summed}')}, ptr {acc}")
        out = e.add(q, e.mul("%s", e.add(e.mul("%p", j), k1)))
        total = (e.value(f"load double, ptr {acc_re}"), e.value(f"load double, ptr {acc_im}"))
        _store_c(e, total, "%yr", "%yi", out)
    return e.function(
        f"internal void @{PREFIX}exact_step(ptr noalias %xr, ptr noalias %xi, ptr noalias %yr, ptr noalias %yi, "
        "i64 %L, i64 %s, i64 %p, ptr noalias %tr, ptr noalias %ti, i64 %ts, i64 %inverse) noinline nounwind"
    )


def _read_part(e: Emitter, ty: str, base: str, index: str) -> str:
    """The part at `index` of a float or double array, as a double."""
    value = e.value(f"load {ty}, ptr {e.gep(base, index, ty)}", "v")
    return value if ty == "double" else e.value(f"fpext float {value} to double", "v")


def _write_part(e: Emitter, ty: str, value: str, base: str, index: str) -> None:
    if ty != "double":
        value = e.value(f"fptrunc double {value} to float", "v")
    e.emit(f"store {ty} {value}, ptr {e.gep(base, index, ty)}")


def _finite_flag(e: Emitter) -> tuple[str, Callable[[str], None]]:
    """An i8 variable that a check of a value makes nonzero when the value is a NaN,
    an infinity or at least HUGE; the check."""
    bad = e.variable("i8", 0)

    def check(value: str) -> None:
        magnitude = e.value(f"call double @llvm.fabs.f64(double {value})", "v")
        big = e.value(f"zext i1 {e.value(f'fcmp uge double {magnitude}, {_d(HUGE)}')} to i8")
        old = e.value(f"load i8, ptr {bad}")
        e.emit(f"store i8 {e.value(f'or i8 {old}, {big}')}, ptr {bad}")

    return bad, check


def _finite_result(e: Emitter, bad: str) -> str:
    flag = e.value(f"load i8, ptr {bad}")
    return e.value(f"zext i1 {e.value(f'icmp eq i8 {flag}, 0')} to i8")


def _load(kind: str, source: str) -> str:
    """Row -> (%xr, %xi), widened to f64; returns 1 (i8) when every value read is finite
    and below HUGE (the fast steps may take the row)."""
    e = Emitter()
    ty, parts = TYPES[source]
    bad, check = _finite_flag(e)
    with e.loop(0, "%n", hint="k") as k:
        if kind == "c2r":
            # X[k] = z[k] for k < half, else conj(z[min(n - k, half - 1)]); the
            # imaginary parts of bins 0 and n/2 are not read
            upper = e.value(f"icmp ugt i64 {k}, {e.add('%half', -1)}")
            mirrored = e.min(e.value(f"sub i64 %n, {k}"), e.add("%half", -1))
            at = e.value(f"select i1 {upper}, i64 {mirrored}, i64 {k}")
            index = e.mul(e.mul(at, "%stride"), 2)
            re = _read_part(e, ty, "%src", index)
            im = _read_part(e, ty, "%src", e.add(index, 1))
            im = e.value(f"select i1 {upper}, double {e.value(f'fneg double {im}', 'v')}, double {im}", "v")
            real_bin = e.value(f"icmp eq i64 {at}, 0")
            even = e.value("icmp eq i64 %nmod2, 0")
            middle = e.value(f"and i1 {even}, {e.value(f'icmp eq i64 {e.mul(at, 2)}, %n')}")
            real_bin = e.value(f"or i1 {real_bin}, {middle}")
            im = e.value(f"select i1 {real_bin}, double 0.0, double {im}", "v")
            check(re)
            check(im)
        elif parts == 1:
            re, im = _read_part(e, ty, "%src", e.mul(k, "%stride")), "0.0"
            check(re)
        else:
            index = e.mul(e.mul(k, "%stride"), 2)
            re, im = _read_part(e, ty, "%src", index), _read_part(e, ty, "%src", e.add(index, 1))
            check(re)
            check(im)
        _store_c(e, (re, im), "%xr", "%xi", k)
    result = _finite_result(e, bad)
    return _define(
        e,
        f"internal i8 @{PREFIX}load_{kind}_{source}(ptr noalias %src, i64 %stride, i64 %n, i64 %half, "
        "i64 %nmod2, ptr noalias %xr, ptr noalias %xi) noinline nounwind",
        f"ret i8 {result}",
    )


def _store(kind: str, result: str) -> str:
    """(%zr, %zi) -> the row, scaled by %scale when %scaled, narrowed to the result type:
    c2c all n, r2c the first n/2 + 1 (the imaginary parts of bins 0 and n/2 zero), c2r
    the real parts."""
    e = Emitter()
    ty, parts = TYPES[result]
    scaled = e.value("icmp ne i64 %scaled, 0")
    count = "%half" if kind == "r2c" else "%n"
    with e.loop(0, count, hint="k") as k:
        re, im = _load_c(e, "%zr", "%zi", k)
        re = e.value(f"select i1 {scaled}, double {_fmul(e, re, '%scale')}, double {re}", "v")
        if parts == 1:
            _write_part(e, ty, re, "%dst", e.mul(k, "%stride"))
        else:
            im = e.value(f"select i1 {scaled}, double {_fmul(e, im, '%scale')}, double {im}", "v")
            if kind == "r2c":
                real_bin = e.value(f"icmp eq i64 {k}, 0")
                even = e.value("icmp eq i64 %nmod2, 0")
                middle = e.value(f"and i1 {even}, {e.value(f'icmp eq i64 {e.mul(k, 2)}, %n')}")
                im = e.value(f"select i1 {e.value(f'or i1 {real_bin}, {middle}')}, double 0.0, double {im}", "v")
            index = e.mul(e.mul(k, "%stride"), 2)
            _write_part(e, ty, re, "%dst", index)
            _write_part(e, ty, im, "%dst", e.add(index, 1))
    return e.function(
        f"internal void @{PREFIX}store_{kind}_{result}(ptr noalias %dst, i64 %stride, i64 %n, i64 %half, "
        "i64 %nmod2, ptr noalias %zr, ptr noalias %zi, i64 %scaled, double %scale) noinline nounwind"
    )


_LOADS = sorted({(v.kind, v.source) for v in VARIANTS})
_STORES = sorted({(v.kind, v.result) for v in VARIANTS})


def _spacing(e: Emitter) -> str:
    """The doubles between two of the workspace's arrays: n rounded up to a vector of 8,
    plus 3 cache lines, so that equal indices of different arrays (a row's real and
    imaginary parts, a step's source and result) fall in different sets of the L1 cache,
    not all in one when n is a power of two (the steps' streams would evict each other)."""
    return e.add(e.value(f"and i64 {e.add('%n', 7)}, -8"), 24)


def _switch(e: Emitter, value: str, cases: list[tuple[int, str]], hint: str, default: str = "", done: str = "") -> None:
    """switch (value) { case c: <line> } for each (c, call line), then on to `done`; any
    other value goes to `default` (by default: on to `done`, doing nothing). Without a
    `done` label of the caller's, the code goes on after the switch."""
    after = not done
    done = done or e.new_label(f"{hint}.end")
    other = default or e.new_label(f"{hint}.default")
    labels = [e.new_label(f"{hint}.case") for _ in cases]
    table = " ".join(f"i64 {c}, label %{label}" for (c, _), label in zip(cases, labels, strict=True))
    e.emit(f"switch i64 {value}, label %{other} [ {table} ]")
    for (_, line), label in zip(cases, labels, strict=True):
        e.label(label)
        e.emit(line)
        e.emit(f"br label %{done}")
    if not default:
        e.label(other)
        e.emit(f"br label %{done}")
    if after:
        e.label(done)


def _steps(
    e: Emitter,
    fast: str,
    bufs: list[str],
    length: str,
    plan: str,
    stages: str,
    wr0: str,
    wi0: str,
    radices: tuple[int, ...],
) -> None:
    """The plan's steps on a transform of `length` (the buffers' pointers in the
    variables `bufs`: the current ones, then the others; swapped after each step):
    fast steps where `fast` and the library has the radix's (`radices`), else exact
    ones."""
    size = e.variable("i64", length)  # L
    stride = e.variable("i64", 1)  # s
    woff = e.variable("i64", 0)
    with e.loop(0, stages, hint="st") as st:
        p = e.value(f"load i64, ptr {e.gep(plan, st, 'i64')}")
        xr, xi, yr, yi = (e.value(f"load ptr, ptr {b}") for b in bufs)
        L, s, w = (e.value(f"load i64, ptr {v}") for v in (size, stride, woff))
        m = e.value(f"udiv i64 {L}, {p}")
        wr, wi = e.gep(wr0, w, "double"), e.gep(wi0, w, "double")
        ts = e.value(f"udiv i64 %n, {L}")
        exact = (
            f"call void @{PREFIX}exact_step(ptr {xr}, ptr {xi}, ptr {yr}, ptr {yi}, i64 {L}, i64 {s}, i64 {p}, "
            f"ptr %tr, ptr %ti, i64 {ts}, i64 %inverse)"
        )
        fast_label, exact_label, end = e.new_label("fast"), e.new_label("exact"), e.new_label("stepped")
        e.emit(f"br i1 {fast}, label %{fast_label}, label %{exact_label}")
        e.label(fast_label)
        last, not_last, kept = e.new_label("last"), e.new_label("notlast"), e.new_label("kept")
        e.emit(f"br i1 {e.value(f'icmp eq i64 {m}, 1')}, label %{last}, label %{not_last}")
        e.label(last)
        lasts = [(r, f"call void @{PREFIX}last{r}(ptr {xr}, ptr {xi}, i64 {s}, double %sigma)") for r in radices]
        _switch(e, p, lasts, "inplace", default=exact_label, done=kept)
        e.label(not_last)
        steps = [
            (r, f"call void @{PREFIX}step{r}(ptr {xr}, ptr {xi}, ptr {yr}, ptr {yi}, i64 {L}, i64 {s}, ptr {wr}, ptr {wi}, double %sigma)")
            for r in radices
        ]  # fmt: skip
        default = e.new_label("radix.other")
        labels = [e.new_label("radix") for _ in steps]
        table = " ".join(f"i64 {r}, label %{label}" for (r, _), label in zip(steps, labels, strict=True))
        e.emit(f"switch i64 {p}, label %{default} [ {table} ]")
        for (_, line), label in zip(steps, labels, strict=True):
            e.label(label)
            e.emit(line)
            e.emit(f"br label %{end}")
        e.label(default)
        e.emit(f"br label %{exact_label}")
        e.label(exact_label)
        e.emit(exact)
        e.emit(f"br label %{end}")
        e.label(end)
        for b, v in zip(bufs, (yr, yi, xr, xi), strict=True):
            e.emit(f"store ptr {v}, ptr {b}")
        advance = e.new_label("advance")
        e.emit(f"br label %{advance}")
        e.label(kept)  # an in-place step: the buffers stay
        e.emit(f"br label %{advance}")
        e.label(advance)
        e.emit(f"store i64 {m}, ptr {size}")
        e.emit(f"store i64 {e.mul(s, p)}, ptr {stride}")
        e.emit(f"store i64 {e.add(w, e.mul(e.add(p, -1), m))}, ptr {woff}")


def _by_stride(e: Emitter, body: Callable[[str], None]) -> None:
    """body(stride) twice: for %stride 1 (a contiguous row: its loops vectorize) and
    for any other."""
    unit, other, done = e.new_label("unit"), e.new_label("strided"), e.new_label("strided.end")
    e.emit(f"br i1 {e.value('icmp eq i64 %stride, 1')}, label %{unit}, label %{other}")
    for label, stride in ((unit, "1"), (other, "%stride")):
        e.label(label)
        body(stride)
        e.emit(f"br label %{done}")
    e.label(done)


# A finite real row of even n >= 4 is transformed as a complex one of h = n / 2 (the
# second plan, its twiddles after the first's), between two passes that read the source
# and write the result directly:
# * r2c: `_pack` reads z[k] = x[2k] + i x[2k+1]; after the transform to Z, `_untangle`
#   writes X[k] = E + w^k O for k <= h, E = (Z[k] + conj(Z[h-k])) / 2,
#   O = -i (Z[k] - conj(Z[h-k])) / 2 (indices mod h);
# * c2r: `_mix` reads Z[k] = A + i B, A = X[k] + X[k+h], B = (X[k] - X[k+h]) w^-k (X
#   extended by Hermitian symmetry, the imaginary parts of bins 0 and h taken as 0); after
#   the transform to z, `_unpack` writes x[2k] = Re z[k], x[2k+1] = Im z[k], times 1/n.
# A row with a NaN, an infinity or a huge value takes the general way instead.


def _pack(source: str) -> str:
    """Real row -> (%zr, %zi) of h, its even and odd elements; 1 (i8) when every value
    is finite and below HUGE."""
    e = Emitter()
    ty = TYPES[source][0]
    bad, check = _finite_flag(e)

    def body(stride: str) -> None:
        with e.loop(0, "%h", hint="pk") as k:
            at = e.mul(e.mul(k, 2), stride)
            re, im = _read_part(e, ty, "%src", at), _read_part(e, ty, "%src", e.add(at, stride))
            check(re)
            check(im)
            _store_c(e, (re, im), "%zr", "%zi", k)

    _by_stride(e, body)
    return _define(
        e,
        f"internal i8 @{PREFIX}pack_{source}(ptr noalias %src, i64 %stride, i64 %h, ptr noalias %zr, "
        "ptr noalias %zi) noinline nounwind",
        f"ret i8 {_finite_result(e, bad)}",
    )


# The bins k and h - k of a packed row's pass (0 < k < h - k) are done together: each
# value is read once for both. Their loop is a function of its own whose two halves of
# each written array are `noalias` parameters (%<a>_lo from bin 0, %<a>_hi from bin
# h/2 + 1, where the bin h - k is at end - 1 - k, end = h - h/2 the loop's end):
# written from both ends of one array, the loop would not vectorize (LLVM cannot tell
# that k and h - k never meet).
# (e, its finiteness check or None, stride, k, h - k, at)
PairBody = Callable[[Emitter, Callable[[str], None] | None, str, str, str, str], None]


def _pairs_function(name: str, written: list[str], params: str, pair: PairBody, flag: bool = False) -> str:
    """internal void @name(ptr noalias %<a>_lo, ptr noalias %<a>_hi for each written
    array a, i64 %stride, i64 %h, params): `pair` for each 0 < k < end; with `flag`,
    given a `_finite_flag` check whose result is or-ed into the i8 at %bad."""
    e = Emitter()
    end = e.value("sub i64 %h, " + e.value("lshr i64 %h, 1"))
    bad, check = _finite_flag(e) if flag else ("", None)

    def body(stride: str) -> None:
        with e.loop(1, end, hint="pair") as k:
            pair(e, check, stride, k, e.value(f"sub i64 %h, {k}"), e.value(f"sub i64 {e.add(end, -1)}, {k}"))

    _by_stride(e, body)
    if flag:
        total = e.value(f"or i8 {e.value('load i8, ptr %bad')}, {e.value(f'load i8, ptr {bad}')}")
        e.emit(f"store i8 {total}, ptr %bad")
    halves = ", ".join(f"ptr noalias %{a}_lo, ptr noalias %{a}_hi" for a in written)
    extra = ", ptr noalias %bad" if flag else ""
    return e.function(f"internal void @{name}({halves}, i64 %stride, i64 %h, {params}{extra}) noinline nounwind")


def _high_half(e: Emitter, array: str, ty: str, per_bin: str | int) -> str:
    """Where the bin h/2 + 1 of `array` is (`per_bin` values of `ty` from one bin to
    the next)."""
    return e.gep(array, e.mul(e.add(e.value("lshr i64 %h, 1"), 1), per_bin), ty)


def _untangle_halves(e: Emitter, zk: Complex, zm: Complex) -> tuple[Complex, Complex]:
    """E_k = (Z_k + conj Z_m) / 2 and O_k = -i (Z_k - conj Z_m) / 2, m = h - k."""
    half = _d(0.5)
    even_part = (_fmul(e, _fadd(e, zk[0], zm[0]), half), _fmul(e, _fsub(e, zk[1], zm[1]), half))
    odd_part = (_fmul(e, _fadd(e, zk[1], zm[1]), half), _fmul(e, _fsub(e, zm[0], zk[0]), half))
    return even_part, odd_part


def _untangle_write(
    e: Emitter, ty: str, dst: str, at: str, stride: str, w: str, parts: tuple[Complex, Complex], real_bin: bool = False
) -> None:
    """X = E + w^k O (the twiddle w^k at index `w` of %tr, %ti) at bin `at` of dst."""
    even_part, odd_part = parts
    x = _cadd(e, even_part, _cmul(e, odd_part, _load_c(e, "%tr", "%ti", w)))
    index = e.mul(e.mul(at, stride), 2)
    _write_part(e, ty, x[0], dst, index)
    _write_part(e, ty, "0.0" if real_bin else x[1], dst, e.add(index, 1))


def _untangle_pairs(result: str) -> str:
    """`_untangle`'s bins k and h - k, 0 < k < h - k. E_(h-k) and O_(h-k) are E_k's and
    O_k's conjugates: their real parts are the same sums; the imaginary parts are
    computed as such (-(a - b) is not b - a when a = b: the sign of a zero)."""
    ty = TYPES[result][0]

    def pair(e: Emitter, _: Callable[[str], None] | None, stride: str, k: str, m: str, at: str) -> None:
        zk, zm = _load_c(e, "%zr", "%zi", k), _load_c(e, "%zr", "%zi", m)
        (ek, ok), (em, om) = _untangle_halves(e, zk, zm), _untangle_halves(e, zm, zk)
        _untangle_write(e, ty, "%dst_lo", k, stride, k, (ek, ok))
        _untangle_write(e, ty, "%dst_hi", at, stride, m, ((ek[0], em[1]), (ok[0], om[1])))

    params = "ptr noalias %zr, ptr noalias %zi, ptr noalias %tr, ptr noalias %ti"
    return _pairs_function(f"{PREFIX}untangle_pairs_{result}", ["dst"], params, pair)


def _untangle(result: str) -> str:
    """(%zr, %zi), the transform of a packed row of 2h, -> the h + 1 bins of the r2c
    result, the imaginary parts of bins 0 and h exactly 0: bins 0 and h, the pairs
    (`_untangle_pairs`), and h / 2 for an even h."""
    e = Emitter()
    ty = TYPES[result][0]
    z0 = _load_c(e, "%zr", "%zi", "0")
    _untangle_write(e, ty, "%dst", "0", "%stride", "0", _untangle_halves(e, z0, z0), real_bin=True)
    high = _high_half(e, "%dst", ty, e.mul("%stride", 2))
    e.emit(
        f"call void @{PREFIX}untangle_pairs_{result}(ptr %dst, ptr {high}, i64 %stride, i64 %h, ptr %zr, ptr %zi, "
        "ptr %tr, ptr %ti)"
    )
    with e.when(e.value(f"icmp eq i64 {e.value('and i64 %h, 1')}, 0"), "middle"):
        middle = e.value("lshr i64 %h, 1")
        zk = _load_c(e, "%zr", "%zi", middle)
        _untangle_write(e, ty, "%dst", middle, "%stride", middle, _untangle_halves(e, zk, zk))
    _untangle_write(e, ty, "%dst", "%h", "%stride", "%h", _untangle_halves(e, z0, z0), real_bin=True)
    return e.function(
        f"internal void @{PREFIX}untangle_{result}(ptr noalias %dst, i64 %stride, i64 %h, ptr noalias %zr, "
        "ptr noalias %zi, ptr noalias %tr, ptr noalias %ti) noinline nounwind"
    )


def _mix_read(e: Emitter, ty: str, stride: str, k: str, check: Callable[[str], None], real_bin: bool) -> Complex:
    """Bin k of the c2r source (its imaginary part 0 for a real bin), checked."""
    index = e.mul(e.mul(k, stride), 2)
    re = _read_part(e, ty, "%src", index)
    im = "0.0" if real_bin else _read_part(e, ty, "%src", e.add(index, 1))
    check(re)
    check(im)
    return re, im


def _mix_write(e: Emitter, zr: str, zi: str, at: str, w: str, lo: Complex, hi: Complex) -> None:
    """Z = A + i B, A = lo + hi, B = (lo - hi) w^-k (the twiddle at index `w` of %tr,
    %ti), at index `at` of (zr, zi)."""
    a, d = _cadd(e, lo, hi), _csub(e, lo, hi)
    b = _cmul(e, d, _load_c(e, "%tr", "%ti", w))
    _store_c(e, (_fsub(e, a[0], b[1]), _fadd(e, a[1], b[0])), zr, zi, at)


def _conj(e: Emitter, z: Complex) -> Complex:
    return z[0], e.value(f"fneg double {z[1]}", "v")


def _mix_pairs(source: str) -> str:
    """`_mix`'s bins k and h - k, 0 < k < h - k: each read and checked once for both."""
    ty = TYPES[source][0]

    def pair(e: Emitter, check: Callable[[str], None] | None, stride: str, k: str, m: str, at: str) -> None:
        assert check is not None
        xk, xm = _mix_read(e, ty, stride, k, check, False), _mix_read(e, ty, stride, m, check, False)
        _mix_write(e, "%zr_lo", "%zi_lo", k, k, xk, _conj(e, xm))
        _mix_write(e, "%zr_hi", "%zi_hi", at, m, xm, _conj(e, xk))

    params = "ptr noalias %src, ptr noalias %tr, ptr noalias %ti"
    return _pairs_function(f"{PREFIX}mix_pairs_{source}", ["zr", "zi"], params, pair, flag=True)


def _mix(source: str) -> str:
    """The h + 1 bins of a c2r row -> (%zr, %zi), the packed row of 2h to transform; 1
    (i8) when every value read is finite and below HUGE: bins 0 and h, the pairs
    (`_mix_pairs`), and h / 2 for an even h."""
    e = Emitter()
    ty = TYPES[source][0]
    bad, check = _finite_flag(e)
    lo, hi = _mix_read(e, ty, "%stride", "0", check, True), _mix_read(e, ty, "%stride", "%h", check, True)
    _mix_write(e, "%zr", "%zi", "0", "0", lo, hi)
    zr_high, zi_high = (_high_half(e, part, "double", 1) for part in ("%zr", "%zi"))
    e.emit(
        f"call void @{PREFIX}mix_pairs_{source}(ptr %zr, ptr {zr_high}, ptr %zi, ptr {zi_high}, i64 %stride, "
        f"i64 %h, ptr %src, ptr %tr, ptr %ti, ptr {bad})"
    )
    with e.when(e.value(f"icmp eq i64 {e.value('and i64 %h, 1')}, 0"), "middle"):
        middle = e.value("lshr i64 %h, 1")
        xk = _mix_read(e, ty, "%stride", middle, check, False)
        _mix_write(e, "%zr", "%zi", middle, middle, xk, _conj(e, xk))
    return _define(
        e,
        f"internal i8 @{PREFIX}mix_{source}(ptr noalias %src, i64 %stride, i64 %h, ptr noalias %zr, "
        "ptr noalias %zi, ptr noalias %tr, ptr noalias %ti) noinline nounwind",
        f"ret i8 {_finite_result(e, bad)}",
    )


def _unpack(result: str) -> str:
    """(%zr, %zi), the transform of a mixed row, -> the real row of 2h, times %scale."""
    e = Emitter()
    ty = TYPES[result][0]

    def body(stride: str) -> None:
        with e.loop(0, "%h", hint="up") as k:
            re, im = _load_c(e, "%zr", "%zi", k)
            at = e.mul(e.mul(k, 2), stride)
            _write_part(e, ty, _fmul(e, re, "%scale"), "%dst", at)
            _write_part(e, ty, _fmul(e, im, "%scale"), "%dst", e.add(at, stride))

    _by_stride(e, body)
    return e.function(
        f"internal void @{PREFIX}unpack_{result}(ptr noalias %dst, i64 %stride, i64 %h, ptr noalias %zr, "
        "ptr noalias %zi, double %scale) noinline nounwind"
    )


def _row(radices: tuple[int, ...], loads: list[tuple[str, str]], stores: list[tuple[str, str]]) -> str:
    """One row: a finite real row of even n >= 4 packed (see above), else loaded by its
    variant's load (%load, %store: indices into _LOADS and _STORES; the library has
    `loads` and `stores` of them), transformed by the plan's steps (fast ones for a
    finite row), stored."""
    e = Emitter()
    nmod2 = e.value("urem i64 %n, 2")
    h = e.value("udiv i64 %n, 2")
    half = e.add(h, 1)
    scale = e.value(f"fdiv double 1.0, {e.value('uitofp i64 %n to double')}")
    packs = e.value(f"and i1 {e.value('icmp ne i64 %packed, 0')}, {e.value('icmp uge i64 %n, 4')}")
    packs = e.value(f"and i1 {packs}, {e.value(f'icmp eq i64 {nmod2}, 0')}")
    packing, packed, general, done = (e.new_label(x) for x in ("packing", "packed", "general", "done"))
    e.emit(f"br i1 {packs}, label %{packing}, label %{general}")
    e.label(packing)
    finite = e.variable("i8", 0)
    reads = {"r2c": ("pack", ""), "c2r": ("mix", ", ptr %tr, ptr %ti")}
    cases = []
    for i, (kind, source) in enumerate(_LOADS):
        if kind in reads and (kind, source) in loads:
            name, extra = reads[kind]
            ok = e.fresh("ok")
            call = f"call i8 @{PREFIX}{name}_{source}(ptr %src, i64 %src_stride, i64 {h}, ptr %yr, ptr %yi{extra})"
            cases.append((i, f"{ok} = {call}\n  store i8 {ok}, ptr {finite}"))
    _switch(e, "%load", cases, "pack")
    ok = e.value(f"icmp ne i8 {e.value(f'load i8, ptr {finite}')}, 0")
    e.emit(f"br i1 {ok}, label %{packed}, label %{general}")
    e.label(packed)
    bufs = [e.variable("ptr", name) for name in ("%yr", "%yi", "%xr", "%xi")]
    n8 = _spacing(e)
    _steps(e, "true", bufs, h, e.gep("%plan", MAX_STAGES, "i64"), "%stages2", e.gep("%wr", n8, "double"),
           e.gep("%wi", n8, "double"), radices)  # fmt: skip
    zr, zi = (e.value(f"load ptr, ptr {b}") for b in bufs[:2])
    writes = {"r2c": ("untangle", "ptr %tr, ptr %ti"), "c2r": ("unpack", f"double {scale}")}
    cases = []
    for i, (kind, result) in enumerate(_STORES):
        if kind in writes and (kind, result) in stores:
            name, extra = writes[kind]
            call = f"call void @{PREFIX}{name}_{result}(ptr %dst, i64 %dst_stride, i64 {h}, ptr {zr}, ptr {zi}"
            cases.append((i, f"{call}, {extra})"))
    _switch(e, "%store", cases, "unpack")
    e.emit(f"br label %{done}")
    e.label(general)
    e.emit(f"store i8 0, ptr {finite}")
    cases = []  # each load's call and the store of its flag
    for i, (kind, source) in enumerate(_LOADS):
        if (kind, source) not in loads:
            continue
        ok = e.fresh("ok")
        cases.append(
            (
                i,
                (
                    f"{ok} = call i8 @{PREFIX}load_{kind}_{source}(ptr %src, i64 %src_stride, i64 %n, "
                    f"i64 {half}, i64 {nmod2}, ptr %xr, ptr %xi)\n  store i8 {ok}, ptr {finite}"
                ),
            )
        )
    _switch(e, "%load", cases, "load")
    fast = e.value(f"icmp ne i8 {e.value(f'load i8, ptr {finite}')}, 0")
    bufs = [e.variable("ptr", name) for name in ("%xr", "%xi", "%yr", "%yi")]
    _steps(e, fast, bufs, "%n", "%plan", "%stages", "%wr", "%wi", radices)
    zr, zi = (e.value(f"load ptr, ptr {b}") for b in bufs[:2])
    cases = [
        (
            i,
            (
                f"call void @{PREFIX}store_{kind}_{result}(ptr %dst, i64 %dst_stride, i64 %n, i64 {half}, "
                f"i64 {nmod2}, ptr {zr}, ptr {zi}, i64 %inverse, double {scale})"
            ),
        )
        for i, (kind, result) in enumerate(_STORES)
        if (kind, result) in stores
    ]
    _switch(e, "%store", cases, "store")
    e.emit(f"br label %{done}")
    e.label(done)
    return e.function(
        f"internal void @{PREFIX}row(i64 %load, i64 %store, ptr %src, i64 %src_stride, ptr %dst, i64 %dst_stride, "
        "i64 %n, ptr %xr, ptr %xi, ptr %yr, ptr %yi, ptr %tr, ptr %ti, ptr %wr, ptr %wi, ptr %plan, i64 %stages, "
        "double %sigma, i64 %inverse, i64 %packed, i64 %stages2) noinline nounwind"
    )


# The dispatcher's state, shared with the workers: the fields of a struct.
_FIELDS = [
    ("i64", "%load"), ("i64", "%store"), ("i64", "%outer"), ("i64", "%n"), ("i64", "%inner"),
    ("ptr", "%src"), ("ptr", "%dst"), ("i64", "%src_len"), ("i64", "%dst_len"), ("i64", "%src_bytes"),
    ("i64", "%dst_bytes"), ("ptr", "%base"), ("i64", "%n8"), ("ptr", "%plan"), ("i64", "%stages"),
    ("double", "%sigma"), ("i64", "%inverse"), ("i64", "%packed"), ("i64", "%stages2"),
]  # fmt: skip
_STRUCT = "{ " + ", ".join(ty for ty, _ in _FIELDS) + " }"


def _rows(e: Emitter, f: dict[str, str], r0: str, r1: str, t: str) -> None:
    """Rows [r0, r1) as thread t (its buffers after the shared tables)."""
    n8 = f["%n8"]
    table = lambda k: e.gep(f["%base"], e.mul(n8, k), "double")
    tr, ti, wr, wi = table(0), table(1), table(2), table(4)
    mine = e.add(6, e.mul(t, 4))
    xr, xi, yr, yi = (e.gep(f["%base"], e.mul(n8, e.add(mine, k)), "double") for k in range(4))
    inner = f["%inner"]
    with e.loop(r0, r1, hint="r") as r:
        o, i = e.value(f"udiv i64 {r}, {inner}"), e.value(f"urem i64 {r}, {inner}")
        src_at = e.mul(e.add(e.mul(e.mul(o, f["%src_len"]), inner), i), f["%src_bytes"])
        dst_at = e.mul(e.add(e.mul(e.mul(o, f["%dst_len"]), inner), i), f["%dst_bytes"])
        src, dst = e.gep(f["%src"], src_at, "i8"), e.gep(f["%dst"], dst_at, "i8")
        e.emit(
            f"call void @{PREFIX}row(i64 {f['%load']}, i64 {f['%store']}, ptr {src}, i64 {inner}, ptr {dst}, "
            f"i64 {inner}, i64 {f['%n']}, ptr {xr}, ptr {xi}, ptr {yr}, ptr {yi}, ptr {tr}, ptr {ti}, ptr {wr}, "
            f"ptr {wi}, ptr {f['%plan']}, i64 {f['%stages']}, double {f['%sigma']}, i64 {f['%inverse']}, "
            f"i64 {f['%packed']}, i64 {f['%stages2']})"
        )


def _worker() -> str:
    e = Emitter()
    for field, (ty, name) in enumerate(_FIELDS):
        at = e.value(f"getelementptr inbounds {_STRUCT}, ptr %data, i32 0, i32 {field}", "p")
        e.emit(f"{name} = load {ty}, ptr {at}, align 8")
    fields = {name: name for _, name in _FIELDS}
    t = e.value(f"sext i32 {e.value('call i32 @omp_get_thread_num()')} to i64")
    team = e.value(f"sext i32 {e.value('call i32 @omp_get_num_threads()')} to i64")
    rows = e.mul("%outer", "%inner")
    r0 = e.value(f"udiv i64 {e.mul(rows, t)}, {team}")
    r1 = e.value(f"udiv i64 {e.mul(rows, e.add(t, 1))}, {team}")
    _rows(e, fields, r0, r1, t)
    return e.function(f"internal void @{PREFIX}worker(ptr %data) nounwind")


def _tables(e: Emitter, tr: str, ti: str, wr: str, wi: str, plan: str, stages: str) -> None:
    """The twiddles w_n^k = (cos(2 pi k / n), -sigma sin(2 pi k / n)) for k < n (with 4 | n
    a quarter computed, the rest by symmetry; 1, -1, -+i exact), then each fast step's
    (`_step_twiddles`)."""
    n_f = e.value("uitofp i64 %n to double")
    sign = e.value("fneg double %sigma")
    quarter = e.value("udiv i64 %n, 4")
    by_four = e.value(f"icmp eq i64 {e.value('urem i64 %n, 4')}, 0")
    count = e.value(f"select i1 {by_four}, i64 {quarter}, i64 %n")
    with e.loop(0, count, hint="tw") as k:
        angle = e.value(f"fdiv double {_fmul(e, _d(2 * math.pi), e.value(f'uitofp i64 {k} to double'))}, {n_f}")
        c = e.value(f"call double @cos(double {angle})")
        s = _fmul(e, sign, e.value(f"call double @sin(double {angle})"))
        _store_c(e, (c, s), tr, ti, k)
        then, skip = e.new_label("sym"), e.new_label("nosym")
        e.emit(f"br i1 {by_four}, label %{then}, label %{skip}")
        e.label(then)
        # w^(k + n/4) = w^k * (-i sigma) etc.: (c, s) -> (-s', ...) with s' = sigma-free sine
        neg_c, neg_s = e.value(f"fneg double {c}"), e.value(f"fneg double {s}")
        # with s = -sigma sin a: w^(k + n/4) = (cos(a + pi/2), -sigma sin(a + pi/2))
        # = (-sin a, -sigma cos a) = (sigma s, -sigma c); w^(k + n/2) = -w^k;
        # w^(k + 3n/4) = -w^(k + n/4)
        q1 = (_fmul(e, "%sigma", s), _fmul(e, "%sigma", neg_c))
        _store_c(e, q1, tr, ti, e.add(k, quarter))
        _store_c(e, (neg_c, neg_s), tr, ti, e.add(k, e.mul(quarter, 2)))
        q3 = (e.value(f"fneg double {q1[0]}"), e.value(f"fneg double {q1[1]}"))
        _store_c(e, q3, tr, ti, e.add(k, e.mul(quarter, 3)))
        e.emit(f"br label %{skip}")
        e.label(skip)
    _store_c(e, ("1.0", "0.0"), tr, ti, "0")
    even = e.value(f"icmp eq i64 {e.value('urem i64 %n, 2')}, 0")
    then, skip = e.new_label("half"), e.new_label("nohalf")
    e.emit(f"br i1 {even}, label %{then}, label %{skip}")
    e.label(then)
    _store_c(e, ("-1.0", "0.0"), tr, ti, e.value("udiv i64 %n, 2"))
    e.emit(f"br label %{skip}")
    e.label(skip)
    _step_twiddles(e, tr, ti, wr, wi, plan, stages, "%n")


def _step_twiddles(e: Emitter, tr: str, ti: str, wr: str, wi: str, plan: str, stages: str, length: str) -> None:
    """Each fast step's w_L^(j k1) = w_n^(j k1 n / L) of the plan of a transform of
    `length` at w[offset + (k1 - 1) m + j] (offset: the steps before; n - 1 in all)."""
    size, offset = e.variable("i64", length), e.variable("i64", 0)
    with e.loop(0, stages, hint="ws") as st:
        p = e.value(f"load i64, ptr {e.gep(plan, st, 'i64')}")
        L = e.value(f"load i64, ptr {size}")
        m = e.value(f"udiv i64 {L}, {p}")
        ts = e.value(f"udiv i64 %n, {L}")
        w = e.value(f"load i64, ptr {offset}")
        with e.loop(1, p, hint="k1") as k1, e.loop(0, m, hint="j") as j:
            at = e.add(w, e.add(e.mul(e.add(k1, -1), m), j))
            z = _load_c(e, tr, ti, e.mul(e.mul(k1, j), ts))
            _store_c(e, z, wr, wi, at)
        e.emit(f"store i64 {m}, ptr {size}")
        e.emit(f"store i64 {e.add(w, e.mul(e.add(p, -1), m))}, ptr {offset}")


def _plan(e: Emitter, plan: str, length: str, order: tuple[int, ...] = EXACT_ORDER) -> str:
    """The radices of `length` (>= 1) into plan, as many of each as divide it in `order`
    (by default the generic lowering's: 4s, a 2, then the odd primes ascending); their
    count."""
    rest, count = e.variable("i64", length), e.variable("i64", 0)

    def push(radix: int) -> None:
        c = e.value(f"load i64, ptr {count}")
        e.emit(f"store i64 {radix}, ptr {e.gep(plan, c, 'i64')}")
        e.emit(f"store i64 {e.add(c, 1)}, ptr {count}")
        r = e.value(f"load i64, ptr {rest}")
        e.emit(f"store i64 {e.value(f'udiv i64 {r}, {radix}')}, ptr {rest}")

    def divides(radix: int) -> str:
        r = e.value(f"load i64, ptr {rest}")
        return e.value(f"icmp eq i64 {e.value(f'urem i64 {r}, {radix}')}, 0")

    for radix in order:
        head, body, exit_ = e.new_label("f.head"), e.new_label("f.body"), e.new_label("f.exit")
        e.emit(f"br label %{head}")
        e.label(head)
        e.emit(f"br i1 {divides(radix)}, label %{body}, label %{exit_}")
        e.label(body)
        push(radix)
        e.emit(f"br label %{head}")
        e.label(exit_)
    return e.value(f"load i64, ptr {count}")


def _dispatch(parallel: bool) -> str:
    """The library's common entry: the plan, the workspace (the twiddle tables, then two
    split buffers of n per thread), the tables, then the rows on one thread or split
    over `xla_opt_num_threads()`."""
    e = Emitter()
    plan = e.value(f"alloca [{2 * MAX_STAGES} x i64], align 8")
    stages = _plan(e, plan, "%n")
    # the plan of n / 2 for a packed real transform (`_row`), after n's
    even = e.value(f"icmp eq i64 {e.value('urem i64 %n, 2')}, 0")
    half = e.value(f"select i1 {even}, i64 {e.value('udiv i64 %n, 2')}, i64 1")
    plan2 = e.gep(plan, MAX_STAGES, "i64")
    stages2 = _plan(e, plan2, half, PACKED_ORDER)
    n8 = _spacing(e)
    rows = e.mul("%outer", "%inner")
    if parallel:
        threads = e.value(f"sext i32 {e.value(f'call i32 @{NUM_THREADS}()')} to i64")
        many = e.value(f"icmp sgt i64 {threads}, 1")
        several = e.value(f"icmp sgt i64 {rows}, 1")
        big = e.value(f"icmp sge i64 {e.mul(rows, '%n')}, {PARALLEL_MIN_ELEMENTS}")
        go = e.value(f"and i1 {e.value(f'and i1 {many}, {several}')}, {big}")
        team = e.value(f"select i1 {go}, i64 {e.min(threads, rows)}, i64 1")
    else:
        team = "1"
    doubles = e.mul(n8, e.add(6, e.mul(team, 4)))
    base = e.value(f"call ptr @aligned_alloc(i64 64, i64 {e.mul(doubles, 8)})")
    tr, ti, wr, wi = (e.gep(base, e.mul(n8, k), "double") for k in (0, 1, 2, 4))
    _tables(e, tr, ti, wr, wi, plan, stages)
    _step_twiddles(e, tr, ti, e.gep(wr, n8, "double"), e.gep(wi, n8, "double"), plan2, stages2, half)
    fields = {name: name for _, name in _FIELDS}
    fields.update({"%base": base, "%n8": n8, "%plan": plan, "%stages": stages, "%stages2": stages2})
    if parallel:
        then, serial, end = e.new_label("parallel"), e.new_label("serial"), e.new_label("end")
        e.emit(f"br i1 {e.value(f'icmp sgt i64 {team}, 1')}, label %{then}, label %{serial}")
        e.label(then)
        args = e.value(f"alloca {_STRUCT}, align 8")
        for field, (ty, name) in enumerate(_FIELDS):
            at = e.value(f"getelementptr inbounds {_STRUCT}, ptr {args}, i32 0, i32 {field}", "p")
            e.emit(f"store {ty} {fields[name]}, ptr {at}, align 8")
        team32 = e.value(f"trunc i64 {team} to i32")
        e.emit(f"call void @GOMP_parallel(ptr @{PREFIX}worker, ptr {args}, i32 {team32}, i32 0)")
        e.emit(f"br label %{end}")
        e.label(serial)
    _rows(e, fields, "0", rows, "0")
    if parallel:
        e.emit(f"br label %{end}")
        e.label(end)
    e.emit(f"call void @free(ptr {base})")
    return e.function(
        f"internal void @{PREFIX}run(i64 %load, i64 %store, i64 %outer, i64 %n, i64 %inner, ptr %src, "
        "ptr %dst, i64 %src_len, i64 %dst_len, i64 %src_bytes, i64 %dst_bytes, double %sigma, i64 %inverse, "
        "i64 %packed) noinline nounwind"  # out of line as LLVM left it (16 callers): a unit split_llvm_ir deals out
    )


def _entry(v: FftVariant) -> str:
    """The variant's entry point: the common dispatcher with its load, store, row
    lengths, element sizes and direction."""
    e = Emitter()
    half = e.add(e.value("udiv i64 %n, 2"), 1)
    lengths = {"n": "%n", "half": half}
    size = lambda t: (4 if TYPES[t][0] == "float" else 8) * TYPES[t][1]
    e.emit(
        f"call void @{PREFIX}run(i64 {_LOADS.index((v.kind, v.source))}, i64 {_STORES.index((v.kind, v.result))}, "
        f"i64 %outer, i64 %n, i64 %inner, ptr %src, ptr %dst, i64 {lengths[v.source_length]}, "
        f"i64 {lengths[v.result_length]}, i64 {size(v.source)}, i64 {size(v.result)}, "
        f"double {'-1.0' if v.inverse else '1.0'}, i64 {int(v.inverse)}, i64 {KINDS.index(v.kind)})"
    )
    params = ", ".join(f"{ty} %{name}" for ty, name in PARAMS)
    return e.function(f"void @{v.symbol}({params}) nounwind")


def fast_radices(kind: str, n: int) -> tuple[int, ...]:
    """The radices whose fast steps a finite row of n of `kind` takes (the rest take
    exact steps): those of the plan of n / 2 in PACKED_ORDER for a real row of even n >=
    4 (packed), else of the plan of n in EXACT_ORDER (`_plan`'s, in Python), that have
    fast steps."""
    packed = kind != "c2c" and n >= 4 and n % 2 == 0
    rest, order, found = (n // 2, PACKED_ORDER, []) if packed else (n, EXACT_ORDER, [])
    for radix in order:
        while rest % radix == 0 and rest > 1:
            found.append(radix)
            rest //= radix
    return tuple(r for r in FAST_RADICES if r in found)


@dataclass(frozen=True)
class KernelCall:
    """One call of the kernel: `variant` on the rows of length n along `axis`."""

    variant: FftVariant
    axis: int
    n: int


def kernel_calls(
    fft_type: str,
    shape: Sequence[int],
    result_shape: Sequence[int],
    lengths: Sequence[int],
    source: str | None,
    result: str | None,
) -> list[KernelCall] | None:
    """The kernel's calls that compute an FFT (`fft_type` FFT, IFFT, RFFT or IRFFT of an
    operand of `shape` and element `source` into `result_shape` and `result`, TYPES'
    names or None for another type), in the generic lowering's order (RFFT: the
    innermost axis first; the others: the outer axes, then the innermost; the values
    between two calls c128), or None when the kernel does not take it (an element type
    it has no variant of, an empty operand or length, a length `supported` rejects)."""
    if source is None or result is None or 0 in shape or 0 in result_shape or 0 in lengths or not lengths:
        return None
    rank = len(shape)
    axes = list(range(rank - len(lengths), rank))
    last = axes[-1]
    inverse = fft_type in ("IFFT", "IRFFT")
    transformed = [lengths[-1] if fft_type == "IRFFT" and a == last else shape[a] for a in axes]
    if not all(supported(n) for n in transformed):
        return None
    steps = [("c2c", a, shape[a]) for a in axes[:-1]]
    if fft_type == "RFFT":
        steps = [("r2c", last, shape[last]), *steps]
    elif fft_type == "IRFFT":
        steps.append(("c2r", last, lengths[-1]))
    else:
        steps.append(("c2c", last, shape[last]))
    calls = []
    for i, (kind, axis, n) in enumerate(steps):
        in_element = source if i == 0 else "c128"
        out_element = result if i == len(steps) - 1 else "c128"
        calls.append(KernelCall(FftVariant(kind, inverse, in_element, out_element), axis, n))
    return calls


def library_need(calls: Sequence[KernelCall]) -> tuple[frozenset[FftVariant], tuple[int, ...]]:
    """The variants and fast radices (`fast_radices` of each call's length) of a library
    for `calls`."""
    radices = {r for c in calls for r in fast_radices(c.variant.kind, c.n)}
    return frozenset(c.variant for c in calls), tuple(r for r in FAST_RADICES if r in radices)


def library_ir(
    parallel: bool = False, variants: tuple[FftVariant, ...] = VARIANTS, radices: tuple[int, ...] = FAST_RADICES
) -> str:
    """The LLVM IR module defining the entries of `variants` (by default every one),
    with fast steps of `radices` (by default all; a row's step of another radix takes
    the exact step): single-thread, or (`parallel`, libgomp loaded) with rows split over
    the runtime's thread count. A program's library has only what its FFTs take
    (`fast_radices`): every variant and radix took 1.0 s to compile, a real filter's
    two variants with radix 8 take ~0.4 s."""
    loads = [(kind, source) for kind, source in _LOADS if any((v.kind, v.source) == (kind, source) for v in variants)]
    stores = [(kind, result) for kind, result in _STORES if any((v.kind, v.result) == (kind, result) for v in variants)]
    parts = [
        "declare ptr @aligned_alloc(i64, i64)\ndeclare void @free(ptr)",
        "declare double @cos(double)\ndeclare double @sin(double)\ndeclare double @llvm.fabs.f64(double)",
    ]
    if parallel:
        parts += [
            "declare void @GOMP_parallel(ptr, ptr, i32, i32)",
            "declare i32 @omp_get_thread_num()\ndeclare i32 @omp_get_num_threads()",
            f"declare i32 @{NUM_THREADS}()",
        ]
    scalar = ScalarLoops()
    parts += [_scalar_step(p, scalar) for p in radices]
    parts += [_fast_step(p) for p in radices]
    parts += [_last_step(p, scalar) for p in radices]
    parts.append(_exact_step())
    parts += [_load(kind, source) for kind, source in loads]
    parts += [_store(kind, result) for kind, result in stores]
    parts += [_pack(source) for kind, source in loads if kind == "r2c"]
    parts += [_mix(source) for kind, source in loads if kind == "c2r"]
    parts += [_mix_pairs(source) for kind, source in loads if kind == "c2r"]
    parts += [_untangle(result) for kind, result in stores if kind == "r2c"]
    parts += [_untangle_pairs(result) for kind, result in stores if kind == "r2c"]
    parts += [_unpack(result) for kind, result in stores if kind == "c2r"]
    parts.append(_row(radices, loads, stores))
    if parallel:
        parts.append(_worker())
    parts.append(_dispatch(parallel))
    parts += [_entry(v) for v in variants]
    parts.append(scalar.definitions())
    return "\n\n".join([*parts, ""])
