"""`convert-to-llvm`: the loop level (func, cf, arith, math, index, memref on statically
shaped buffers) to the `llvm` dialect, in one sweep per function.

Every function is rebuilt op by op into an `llvm.func`; types are converted once per
value, with no recursive type conversion inside a greedy walker:

* `memref<...xT>` -> `!llvm.ptr` (a bare pointer: shapes are static, layouts are
  the identity, so strides are constants). Buffer arguments are `noalias`, which lets
  LLVM vectorize the loops.
* `memref.load/store %m[%i, %j]` -> `getelementptr inbounds T, %p[%i * s0 + %j]` + load/store.
* `memref.collapse_shape` (identity layouts) -> the same pointer.
* `memref.alloc/dealloc` -> `malloc`/`free`; `memref.alloca` -> `llvm.alloca`;
  `memref.copy` -> `llvm.memcpy`; `memref.global` -> a constant `llvm.mlir.global`
  holding the raw bits.
* `index` -> i64; `bf16` -> i16 (llvmlite has no bfloat: `arith.extf`/`truncf` of bf16
  are expanded into bit operations, rounding to nearest even).
* `complex<T>` -> `!llvm.struct<(T, T)>` (numpy's layout); `complex.create/re/im/
  constant` are insertvalue/extractvalue; the C library's complex functions that numpy
  uses (`complex.exp` -> cexpf/cexp, log, sqrt, sin, cos, tan, tanh, pow; `complex.abs`
  -> hypotf/hypot) are called with the C ABI of `float _Complex`/`double _Complex`.
* `math` ops -> LLVM intrinsics where LLVM has them, libm calls otherwise; f32 `exp`
  and `tanh` inline (`llvm_math_f32.py`) so that their loops vectorize.

The type mapping and memory layout are `llvm_types.py`; this module holds the sweep
and its handlers (one small function per op kind), the pass and the `-t llvm` target.
"""

from __future__ import annotations

import functools
import platform
import struct
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from xdsl.context import Context
from xdsl.dialects import arith, cf, func, llvm, math, memref
from xdsl.dialects import complex as cplx
from xdsl.dialects.builtin import (
    ArrayAttr,
    BFloat16Type,
    ComplexType,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    ModuleOp,
    NameLoc,
    NoneAttr,
    StringAttr,
    TensorType,
    UnitAttr,
    UnknownLoc,
    UnrealizedConversionCastOp,
    i1,
    i16,
    i32,
    i64,
)
from xdsl.ir import Attribute, Block, BlockArgument, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import PassFailedException
from xdsl.utils.target import Target
from xla_opt.dialects.llvm_casts import EXTRA_LLVM_OPS, FPToSIOp, FPToUIOp, UIToFPOp
from xla_opt.lowering.conversions.convert_to_llvm.math_f32 import emit_exp_f32, emit_tanh_f32
from xla_opt.lowering.utils.llvm_types import (
    PTR,
    byte_width,
    llvm_type,
    num_elements,
    row_major_strides,
    storage_type,
)

# --------------------------------------------------------------------------------------
# Types
# --------------------------------------------------------------------------------------












# --------------------------------------------------------------------------------------
# The sweep
# --------------------------------------------------------------------------------------

_INT_BINARY: dict[type[Operation], type[Operation]] = {
    arith.AddiOp: llvm.AddOp,
    arith.SubiOp: llvm.SubOp,
    arith.MuliOp: llvm.MulOp,
    arith.DivSIOp: llvm.SDivOp,
    arith.DivUIOp: llvm.UDivOp,
    arith.RemSIOp: llvm.SRemOp,
    arith.RemUIOp: llvm.URemOp,
    arith.AndIOp: llvm.AndOp,
    arith.OrIOp: llvm.OrOp,
    arith.XOrIOp: llvm.XOrOp,
    arith.ShLIOp: llvm.ShlOp,
    arith.ShRSIOp: llvm.AShrOp,
    arith.ShRUIOp: llvm.LShrOp,
}
_FLOAT_BINARY: dict[type[Operation], type[Operation]] = {
    arith.AddfOp: llvm.FAddOp,
    arith.SubfOp: llvm.FSubOp,
    arith.MulfOp: llvm.FMulOp,
    arith.DivfOp: llvm.FDivOp,
}
_CASTS: dict[type[Operation], type[Operation]] = {
    arith.ExtSIOp: llvm.SExtOp,
    arith.ExtUIOp: llvm.ZExtOp,
    arith.TruncIOp: llvm.TruncOp,
    arith.SIToFPOp: llvm.SIToFPOp,
    arith.UIToFPOp: UIToFPOp,
    arith.FPToSIOp: FPToSIOp,
    arith.FPToUIOp: FPToUIOp,
    arith.BitcastOp: llvm.BitcastOp,
}
# math op -> LLVM intrinsic base name (type-mangled at emission)
_INTRINSICS: dict[type[Operation], str] = {
    math.Exp2Op: "llvm.exp2",
    math.LogOp: "llvm.log",
    math.Log2Op: "llvm.log2",
    math.Log10Op: "llvm.log10",
    math.SqrtOp: "llvm.sqrt",
    math.SinOp: "llvm.sin",
    math.CosOp: "llvm.cos",
    math.AbsFOp: "llvm.fabs",
    math.FloorOp: "llvm.floor",
    math.CeilOp: "llvm.ceil",
    math.TruncOp: "llvm.trunc",
    math.RoundOp: "llvm.round",
    math.RoundEvenOp: "llvm.roundeven",
    math.PowFOp: "llvm.pow",
    math.CopySignOp: "llvm.copysign",
    math.FmaOp: "llvm.fma",
    math.CtPopOp: "llvm.ctpop",
    arith.MaximumfOp: "llvm.maximum",
    arith.MinimumfOp: "llvm.minimum",
    arith.MaxnumfOp: "llvm.maxnum",
    arith.MinnumfOp: "llvm.minnum",
}
# math op -> libm function (f32 name, f64 name)
_LIBM: dict[type[Operation], tuple[str, str]] = {
    math.TanOp: ("tanf", "tan"),
    math.AtanOp: ("atanf", "atan"),
    math.Atan2Op: ("atan2f", "atan2"),
    math.ExpM1Op: ("expm1f", "expm1"),
    math.Log1pOp: ("log1pf", "log1p"),
    math.CbrtOp: ("cbrtf", "cbrt"),
    math.ErfOp: ("erff", "erf"),
    math.AsinOp: ("asinf", "asin"),
    math.AcosOp: ("acosf", "acos"),
    math.SinhOp: ("sinhf", "sinh"),
    math.CoshOp: ("coshf", "cosh"),
}


def _type_suffix(t: Attribute) -> str:
    if isinstance(t, IntegerType):
        return f"i{t.width.data}"
    if isinstance(t, Float16Type):
        return "f16"
    if isinstance(t, Float32Type):
        return "f32"
    if isinstance(t, Float64Type):
        return "f64"
    raise PassFailedException(f"convert-to-llvm: no intrinsic for type {t}")


class _ModuleConverter:
    def __init__(self, module: ModuleOp):
        self.module = module
        self.declared: dict[str, llvm.FuncOp] = {}
        self.defined: dict[str, llvm.FuncOp] = {}  # our own helper functions (`scalar_function`)
        self.new_ops: list[Operation] = []

    # ---- external declarations -----------------------------------------------------
    def declare(self, name: str, args: list[Attribute], result: Attribute) -> None:
        if name in self.declared:
            return
        fn = llvm.FuncOp(
            name,
            llvm.LLVMFunctionType(args, result),
            linkage=llvm.LinkageAttr("external"),
        )
        self.declared[name] = fn

    def run(self) -> None:
        block = self.module.body.block
        for op in list(block.ops):
            if isinstance(op, memref.GlobalOp):
                new = self.convert_global(op)
            elif isinstance(op, func.FuncOp):
                new = _FunctionConverter(self, op).run()
            else:
                continue
            block.insert_op_before(new, op)
            op.detach()
            op.erase(safe_erase=False)
        for fn in (*self.defined.values(), *self.declared.values()):
            block.add_op(fn)

    def scalar_function(self, name: str, emit: Callable[[_FunctionConverter, SSAValue], SSAValue], t: Attribute) -> str:
        """`name`, defined once per module as `t -> t` computing `emit` (an inline
        expansion such as f32 tanh), internal and `alwaysinline`: LLVM inlines every
        call before vectorizing the loop around it, as if it had been expanded in place,
        while our passes build and translate the expansion once instead of once per use
        (a 2,000-op program with a thousand tanh: 85,000 llvm ops, 60% of them
        expansions). Unoptimized (O0) code calls it."""
        if name not in self.defined:
            body = Block(arg_types=[t])
            c = _FunctionConverter(self, None)
            c.block, c.location = body, NameLoc(StringAttr(name), NoneAttr())  # no source op: a name location
            body.args[0].location = c.location
            c.emit(llvm.ReturnOp(emit(c, body.args[0])))
            self.defined[name] = fn = llvm.FuncOp(
                name,
                llvm.LLVMFunctionType([t], t),
                linkage=llvm.LinkageAttr("internal"),
                body=Region(body),
                other_props={"passthrough": ArrayAttr([StringAttr("alwaysinline")])},
            )
            fn.location = c.location
        return name

    def convert_global(self, op: memref.GlobalOp) -> llvm.GlobalOp:
        t = op.type
        assert isinstance(t, MemRefType)
        value = op.initial_value
        if not isinstance(value, DenseIntOrFPElementsAttr):
            raise PassFailedException(f"convert-to-llvm: global {op.sym_name.data} needs a dense initial value")
        elem = t.get_element_type()
        count = num_elements(t)
        # the raw bits as signed integers of the element's width (of a complex number's
        # part): one layout for every type
        width = byte_width(elem.element_type if isinstance(elem, ComplexType) else elem)
        ints = np.frombuffer(_dense_bytes(value, elem, count), dtype=f"<i{width}")
        int_type = IntegerType(8 * width)
        array_type = llvm.LLVMArrayType(len(ints), int_type)
        init = DenseIntOrFPElementsAttr.from_list(TensorType(int_type, [len(ints)]), ints.tolist())
        new = llvm.GlobalOp(
            array_type,
            op.sym_name,
            llvm.LinkageAttr("internal"),
            constant=True,
            value=init,
            alignment=64,
        )
        new.location = op.location
        return new


def _dense_bytes(value: DenseIntOrFPElementsAttr, elem: Attribute, count: int) -> bytes:
    """The little-endian bytes of a dense constant, splats expanded."""
    values = list(value.get_values())
    if len(values) == 1 and count != 1:
        values = values * count
    if isinstance(elem, ComplexType):
        # numpy's layout: each number's real then imaginary part
        values, elem = [part for v in values for part in v], elem.element_type
    if isinstance(elem, IntegerType):
        w = elem.width.data
        # the value's own bits: an i1 true (-1 as a signless value) is stored as 1
        arr = np.array([int(v) & ((1 << w) - 1) for v in values], dtype=np.uint64)
        return arr.astype(f"<u{max(1, (w + 7) // 8)}").tobytes()
    if isinstance(elem, BFloat16Type):
        import ml_dtypes

        return np.array(values, dtype=np.float32).astype(ml_dtypes.bfloat16).tobytes()
    if isinstance(elem, Float16Type):
        return np.array(values, dtype="<f2").tobytes()
    if isinstance(elem, Float32Type):
        return np.array(values, dtype="<f4").tobytes()
    if isinstance(elem, Float64Type):
        return np.array(values, dtype="<f8").tobytes()
    raise PassFailedException(f"convert-to-llvm: cannot lay out constant of {elem}")


@functools.lru_cache(maxsize=1024)
def _name_attr(name: str) -> StringAttr:
    """An intrinsic's name, built once (StringAttr is immutable; a tanh expansion
    alone names a dozen intrinsics)."""
    return StringAttr(name)


class _FunctionConverter:
    def __init__(self, module: _ModuleConverter, fn: func.FuncOp | None):
        """`fn`: the function to convert (`run`); None to emit into a function of our
        own (`_ModuleConverter.scalar_function`)."""
        self.mod = module
        self.fn = fn
        self.values: dict[SSAValue, SSAValue] = {}
        self.blocks: dict[Block, Block] = {}
        self.block: Block | None = None
        self.entry: Block | None = None
        self.location: Attribute = fn.location if fn else UnknownLoc()  # of the op being converted
        # (block, type, value) -> the constant already emitted in that block: an LLVM
        # constant is not an instruction, so one op per distinct value and block gives
        # the same LLVM IR with a third fewer ops to build and translate (a tanh
        # expansion alone repeats a dozen coefficients)
        self.constants: dict[tuple[Block, Attribute, object], SSAValue] = {}

    # ---- emission ----------------------------------------------------------------------
    def emit(self, op: Operation) -> Operation:
        """Append `op`; it takes the location of the op being converted (MLIR's rule
        for what a conversion creates)."""
        assert self.block is not None
        if isinstance(op.location, UnknownLoc):
            op.location = self.location
        self.block.add_op(op)
        return op

    def v(self, value: SSAValue) -> SSAValue:
        return self.values[value]

    def const(self, value: int, t: Attribute = i64) -> SSAValue:
        # keyed by the Python int: a hit builds no attribute
        key = (self.block, t, value)
        if (known := self.constants.get(key)) is None:
            known = self.constants[key] = self.constant(IntegerAttr(value, t), t)
        return known

    def float_const(self, value: float, t: Attribute) -> SSAValue:
        key = (self.block, t, struct.pack("<d", value))  # the bits: -0.0 is not 0.0
        if (known := self.constants.get(key)) is None:
            known = self.constants[key] = self.constant(FloatAttr(value, t), t)  # type: ignore[arg-type]
        return known

    def constant(self, value: Attribute, t: Attribute) -> SSAValue:
        """An `llvm.mlir.constant` of `value`, emitted once per block (see `constants`;
        constants emitted earlier in the current block precede the insertion point)."""
        assert self.block is not None
        key = (self.block, t, value)
        if (known := self.constants.get(key)) is None:
            known = self.constants[key] = self.emit(llvm.ConstantOp(value, t)).results[0]
        return known

    # ---- the function ----------------------------------------------------------------------
    def run(self) -> llvm.FuncOp:
        fn = self.fn
        assert fn is not None
        in_types = [llvm_type(t) for t in fn.function_type.inputs.data]
        out_types = [llvm_type(t) for t in fn.function_type.outputs.data]
        if len(out_types) > 1:
            raise PassFailedException(
                f"convert-to-llvm: @{fn.sym_name.data} returns several values; bufferize first"
            )
        result = out_types[0] if out_types else llvm.LLVMVoidType()
        region = Region()
        for old in fn.body.blocks:
            new = Block(arg_types=[llvm_type(a.type) for a in old.args])
            for a, b in zip(old.args, new.args, strict=True):
                b.name_hint = a.name_hint
                b.location = a.location
                self.values[a] = b
            self.blocks[old] = new
            region.add_block(new)
        self.entry = region.blocks.first
        for old, new in self.blocks.items():
            self.block = new
            for op in old.ops:
                self.convert(op)
        is_decl = not fn.body.blocks
        arg_attrs = None
        if not is_decl:
            from xdsl.dialects.builtin import DictionaryAttr

            arg_attrs = ArrayAttr(
                [
                    DictionaryAttr({"llvm.noalias": UnitAttr()} if isinstance(t, MemRefType) else {})
                    for t in fn.function_type.inputs.data
                ]
            )
        props: dict[str, Attribute] = {}
        if arg_attrs is not None:
            props["arg_attrs"] = arg_attrs
        if isinstance(passthrough := fn.attributes.get("passthrough"), ArrayAttr):
            props["passthrough"] = passthrough  # LLVM function attributes (`noinline`), as MLIR's func-to-llvm
        new_fn = llvm.FuncOp(
            fn.sym_name.data,
            llvm.LLVMFunctionType(in_types, result),
            linkage=llvm.LinkageAttr("external"),
            body=region if not is_decl else Region(),
            other_props=props or None,
        )
        new_fn.location = fn.location
        return new_fn

    def convert(self, op: Operation) -> None:
        handler = _HANDLERS.get(type(op))
        if handler is None and op.name.startswith("llvm."):
            handler = _already_llvm
        if handler is None:
            raise PassFailedException(
                f"convert-to-llvm: '{op.name}' is not supported (lower it to loops first)"
            )
        self.location = op.location
        results = handler(self, op)
        if results is not None:
            for old, new in zip(op.results, results, strict=True):
                self.values[old] = new

    # ---- memory ----------------------------------------------------------------------
    def address(self, ref: SSAValue, indices) -> SSAValue:
        t = ref.type
        assert isinstance(t, MemRefType)
        base = self.v(ref)
        if not indices:
            return base
        strides = row_major_strides(t.get_shape())
        offset: SSAValue | None = None
        for idx, stride in zip(indices, strides, strict=True):
            term = self.v(idx)
            if stride != 1:
                term = self.emit(llvm.MulOp(term, self.const(stride))).results[0]
            offset = term if offset is None else self.emit(llvm.AddOp(offset, term)).results[0]
        assert offset is not None
        gep = llvm.GEPOp(
            base,
            [llvm.GEP_USE_SSA_VAL],
            storage_type(t.get_element_type()),
            ssa_indices=[offset],
            inbounds=True,
        )  # one index: the row-major linear offset
        return self.emit(gep).results[0]

    def widened_operands(self, op: Operation) -> list[SSAValue]:
        """The operands, bf16 ones widened to f32: bf16 arithmetic is done in f32
        (llvmlite has no bfloat type; the result is rounded back by `narrowed`)."""
        return [to_f32(self, self.v(a), a.type) if isinstance(a.type, BFloat16Type) else self.v(a) for a in op.operands]

    def narrowed(self, value: SSAValue, t: Attribute) -> SSAValue:
        return to_half(self, value, t) if isinstance(t, BFloat16Type) else value

    def byte_size(self, t: MemRefType) -> SSAValue:
        return self.const(num_elements(t) * byte_width(t.get_element_type()))

    def call_args(self, args: list[SSAValue]) -> list[SSAValue]:
        """Pointers passed to a call are cast to the plain `ptr` type: llvmlite keeps
        element types on pointers (from GEPs and globals) and checks call arguments
        against the callee's declaration made at its first call. A parameter of the
        function is one already (a kernel call passes its caller's buffers)."""
        return [
            self.emit(llvm.BitcastOp(a, PTR)).results[0]
            if isinstance(a.type, llvm.LLVMPointerType) and not (isinstance(a, BlockArgument) and a.block is self.entry)
            else a
            for a in args
        ]

    def intrinsic(self, name: str, args: list[SSAValue], result: Attribute | None) -> SSAValue | None:
        args = self.call_args(args)
        op = self.emit(llvm.CallIntrinsicOp(_name_attr(name), args, [result] if result is not None else []))
        return op.results[0] if result is not None else None

    def call(self, name: str, args: list[SSAValue], arg_types: list[Attribute], result: Attribute) -> SSAValue | None:
        self.mod.declare(name, arg_types, result)
        args = self.call_args(args)
        op = self.emit(
            llvm.CallOp(name, *args, return_type=None if isinstance(result, llvm.LLVMVoidType) else result)
        )
        return op.results[0] if op.results else None


# --------------------------------------------------------------------------------------
# Handlers: one small function per op kind
# --------------------------------------------------------------------------------------

Handler = Callable[[_FunctionConverter, Operation], "list[SSAValue] | None"]
_HANDLERS: dict[type[Operation], Handler] = {}


def handles(*types: type[Operation]):
    def register(fn: Handler) -> Handler:
        for t in types:
            _HANDLERS[t] = fn
        return fn

    return register


def _already_llvm(c: _FunctionConverter, op: Operation):
    """Ops emitted directly in the llvm dialect by earlier stages: operands remapped."""
    clone = op.clone(value_mapper=c.values)  # it also records the results, as convert() would
    c.emit(clone)
    return list(clone.results)


@handles(func.ReturnOp)
def _return(c: _FunctionConverter, op: func.ReturnOp):
    args = [c.v(a) for a in op.arguments]
    c.emit(llvm.ReturnOp(args[0] if args else None))


@handles(func.CallOp)
def _call(c: _FunctionConverter, op: func.CallOp):
    results = [llvm_type(r.type) for r in op.results]
    args = c.call_args([c.v(a) for a in op.arguments])
    call = c.emit(llvm.CallOp(op.callee, *args, return_type=results[0] if results else None))
    return list(call.results)


@handles(cf.BranchOp)
def _br(c: _FunctionConverter, op: cf.BranchOp):
    c.emit(llvm.BrOp(c.blocks[op.successor], *[c.v(a) for a in op.arguments]))


@handles(cf.ConditionalBranchOp)
def _cond_br(c: _FunctionConverter, op: cf.ConditionalBranchOp):
    c.emit(
        llvm.CondBrOp(
            c.v(op.cond),
            c.blocks[op.then_block],
            [c.v(a) for a in op.then_arguments],
            c.blocks[op.else_block],
            [c.v(a) for a in op.else_arguments],
        )
    )


@handles(arith.ConstantOp)
def _constant(c: _FunctionConverter, op: arith.ConstantOp):
    value, t = op.value, op.result.type
    if isinstance(t, IndexType):
        return [c.const(value.value.data, i64)]  # type: ignore[union-attr]
    if isinstance(t, BFloat16Type):
        import ml_dtypes

        bits = int(np.array(value.value.data, np.float32).astype(ml_dtypes.bfloat16).view(np.uint16))  # type: ignore[union-attr]
        return [c.const(bits - (1 << 16) if bits >= 1 << 15 else bits, i16)]
    if isinstance(value, IntegerAttr | FloatAttr):
        return [c.emit(llvm.ConstantOp(value, t)).results[0]]
    raise PassFailedException(f"convert-to-llvm: unsupported constant {value}")


def _binary(table):
    def handler(c: _FunctionConverter, op: Operation):
        args = c.widened_operands(op)
        flags = getattr(op, "fastmath", None)
        if flags is not None and flags.data:
            new = table[type(op)](*args, fast_math=llvm.FastMathAttr(flags.data))
        else:
            new = table[type(op)](*args)
        result = c.emit(new).results[0]
        return [c.narrowed(result, op.results[0].type)]

    return handler


handles(*_INT_BINARY)(_binary(_INT_BINARY))
handles(*_FLOAT_BINARY)(_binary(_FLOAT_BINARY))


@handles(arith.NegfOp)
def _negf(c: _FunctionConverter, op: arith.NegfOp):
    result = c.emit(llvm.FNegOp(*c.widened_operands(op))).results[0]
    return [c.narrowed(result, op.result.type)]


@handles(arith.CmpiOp)
def _cmpi(c: _FunctionConverter, op: arith.CmpiOp):
    # arith and llvm number the integer predicates alike (eq, ne, slt, ..., uge)
    return list(c.emit(llvm.ICmpOp(c.v(op.lhs), c.v(op.rhs), IntegerAttr(op.predicate.value.data, i64))).results)


@handles(arith.CmpfOp)
def _cmpf(c: _FunctionConverter, op: arith.CmpfOp):
    # arith and llvm number the float predicates alike (false, oeq, ..., uno, true)
    lhs, rhs = c.widened_operands(op)
    return list(c.emit(llvm.FCmpOp(lhs, rhs, IntegerAttr(op.predicate.value.data, i64))).results)


@handles(arith.SelectOp)
def _select(c: _FunctionConverter, op: arith.SelectOp):
    return list(c.emit(llvm.SelectOp(c.v(op.cond), c.v(op.lhs), c.v(op.rhs))).results)


_HALF = (Float16Type, BFloat16Type)


@handles(*_CASTS)
def _cast(c: _FunctionConverter, op: Operation):
    src, dst = op.operands[0].type, op.results[0].type
    value = c.v(op.operands[0])
    if llvm_type(src) == llvm_type(dst):
        return [value]
    cast = _CASTS[type(op)]
    if cast is UIToFPOp and llvm_type(src) == i64:
        # LLVM's SLP vectorizer (llvmlite's LLVM) narrows `uitofp (sext i32 x to i64)`
        # to `uitofp i32 x`, wrong for negative x; the signed expansion is immune.
        wide = Float32Type() if isinstance(dst, _HALF) else llvm_type(dst)
        converted = _u64_to_float(c, value, wide)
        return [to_half(c, converted, dst)] if isinstance(dst, _HALF) else [converted]
    # Half-precision conversions go through f32 (LLVM would otherwise call
    # compiler-rt helpers the JIT cannot resolve). Integers of up to 2^24 are exact in
    # f32 and larger ones overflow f16, so int -> f32 -> f16 rounds once.
    if isinstance(dst, _HALF) and cast in (llvm.SIToFPOp, UIToFPOp):
        return [to_half(c, c.emit(cast(value, Float32Type())).results[0], dst)]
    if isinstance(src, _HALF) and cast in (FPToSIOp, FPToUIOp):
        return list(c.emit(cast(to_f32(c, value, src), llvm_type(dst))).results)
    return list(c.emit(cast(value, llvm_type(dst))).results)


def _u64_to_float(c: _FunctionConverter, x: SSAValue, float_type: Attribute) -> SSAValue:
    """u64 -> float with one rounding through signed conversions: below 2^63 directly;
    above, half of it (its lowest bit kept as a sticky bit) converted and doubled."""
    zero = c.emit(llvm.ConstantOp(IntegerAttr(0, i64), i64)).results[0]
    one = c.emit(llvm.ConstantOp(IntegerAttr(1, i64), i64)).results[0]
    small = c.emit(llvm.ICmpOp(x, zero, IntegerAttr(5, i64))).results[0]  # sge
    direct = c.emit(llvm.SIToFPOp(x, float_type)).results[0]
    halved = c.emit(llvm.LShrOp(x, one)).results[0]
    sticky = c.emit(llvm.AndOp(x, one)).results[0]
    half = c.emit(llvm.SIToFPOp(c.emit(llvm.OrOp(halved, sticky)).results[0], float_type)).results[0]
    doubled = c.emit(llvm.FAddOp(half, half)).results[0]
    return c.emit(llvm.SelectOp(small, direct, doubled)).results[0]


@handles(arith.IndexCastOp)
def _index_cast(c: _FunctionConverter, op: Operation):
    src, dst = llvm_type(op.operands[0].type), llvm_type(op.results[0].type)
    value = c.v(op.operands[0])
    if src == dst:
        return [value]
    assert isinstance(src, IntegerType) and isinstance(dst, IntegerType)
    if src.width.data > dst.width.data:
        return list(c.emit(llvm.TruncOp(value, dst)).results)
    return list(c.emit(llvm.SExtOp(value, dst)).results)


def to_f32(c: _FunctionConverter, value: SSAValue, src: Attribute) -> SSAValue:
    """Widen an f16 or bf16 value (exact)."""
    if isinstance(src, BFloat16Type):
        # bf16 bits are the high half of the f32 bits
        wide = c.emit(llvm.ZExtOp(value, i32)).results[0]
        shifted = c.emit(llvm.ShlOp(wide, c.const(16, i32))).results[0]
        return c.emit(llvm.BitcastOp(shifted, Float32Type())).results[0]
    return c.emit(llvm.FPExtOp(value, Float32Type())).results[0]


def to_half(c: _FunctionConverter, value: SSAValue, dst: Attribute) -> SSAValue:
    """Narrow an f32 value to f16 or bf16, rounding to nearest even."""
    if isinstance(dst, Float16Type):
        return c.emit(llvm.FPTruncOp(value, dst)).results[0]
    # bf16: round to nearest even on the f32 bits; NaN stays a quiet NaN
    bits = c.emit(llvm.BitcastOp(value, i32)).results[0]
    hi = c.emit(llvm.LShrOp(bits, c.const(16, i32))).results[0]
    lsb = c.emit(llvm.AndOp(hi, c.const(1, i32))).results[0]
    bias = c.emit(llvm.AddOp(lsb, c.const(0x7FFF, i32))).results[0]
    rounded = c.emit(llvm.AddOp(bits, bias)).results[0]
    top = c.emit(llvm.LShrOp(rounded, c.const(16, i32))).results[0]
    is_nan = c.emit(llvm.FCmpOp(value, value, IntegerAttr(14, i64))).results[0]  # uno
    quiet = c.emit(llvm.OrOp(hi, c.const(0x40, i32))).results[0]
    chosen = c.emit(llvm.SelectOp(is_nan, quiet, top)).results[0]
    return c.emit(llvm.TruncOp(chosen, i16)).results[0]


def f64_to_f32_round_to_odd(c: _FunctionConverter, value: SSAValue) -> SSAValue:
    """f64 -> f32 rounding to odd, so that a second rounding to a type of at most
    22 significand bits (f16, bf16) gives the correctly rounded result."""
    nearest = c.emit(llvm.FPTruncOp(value, Float32Type())).results[0]
    back = c.emit(llvm.FPExtOp(nearest, Float64Type())).results[0]
    inexact = c.emit(llvm.FCmpOp(back, value, IntegerAttr(6, i64))).results[0]  # one
    mag_back = c.intrinsic("llvm.fabs.f64", [back], Float64Type())
    mag_value = c.intrinsic("llvm.fabs.f64", [value], Float64Type())
    away = c.emit(llvm.FCmpOp(mag_back, mag_value, IntegerAttr(2, i64))).results[0]  # ogt
    bits = c.emit(llvm.BitcastOp(nearest, i32)).results[0]
    toward_zero = c.emit(llvm.SubOp(bits, c.const(1, i32))).results[0]
    truncated = c.emit(llvm.SelectOp(away, toward_zero, bits)).results[0]
    odd = c.emit(llvm.OrOp(truncated, c.const(1, i32))).results[0]
    chosen = c.emit(llvm.SelectOp(inexact, odd, bits)).results[0]
    return c.emit(llvm.BitcastOp(chosen, Float32Type())).results[0]


@handles(arith.ExtFOp)
def _extf(c: _FunctionConverter, op: arith.ExtFOp):
    src, dst = op.input.type, op.result.type
    value = c.v(op.input)
    if isinstance(src, _HALF):
        value = to_f32(c, value, src)
        if isinstance(dst, Float32Type):
            return [value]
    return list(c.emit(llvm.FPExtOp(value, dst)).results)


@handles(arith.TruncFOp)
def _truncf(c: _FunctionConverter, op: arith.TruncFOp):
    src, dst = op.input.type, op.result.type
    value = c.v(op.input)
    if isinstance(dst, _HALF):
        if isinstance(src, Float64Type):
            value = f64_to_f32_round_to_odd(c, value)
        return [to_half(c, value, dst)]
    return list(c.emit(llvm.FPTruncOp(value, dst)).results)


@handles(*_INTRINSICS)
def _intrinsic(c: _FunctionConverter, op: Operation):
    t = op.results[0].type
    args = c.widened_operands(op)
    wt = Float32Type() if isinstance(t, BFloat16Type) else t
    return [c.narrowed(c.intrinsic(f"{_INTRINSICS[type(op)]}.{_type_suffix(wt)}", args, wt), t)]


@handles(math.CountLeadingZerosOp)
def _ctlz(c: _FunctionConverter, op: Operation):
    t = op.results[0].type
    return [c.intrinsic(f"llvm.ctlz.{_type_suffix(t)}", [c.v(op.operands[0]), c.const(0, i1)], t)]


@handles(math.AbsIOp)
def _absi(c: _FunctionConverter, op: Operation):
    t = op.results[0].type
    return [c.intrinsic(f"llvm.abs.{_type_suffix(t)}", [c.v(op.operands[0]), c.const(0, i1)], t)]


@handles(*_LIBM)
def _libm(c: _FunctionConverter, op: Operation):
    t = op.results[0].type
    f32_name, f64_name = _LIBM[type(op)]
    if isinstance(t, Float64Type):
        name, wt, args = f64_name, t, [c.v(a) for a in op.operands]
    else:  # f16 and bf16 compute in f32
        name, wt = f32_name, Float32Type()
        args = [c.v(a) if isinstance(a.type, Float32Type) else to_f32(c, c.v(a), a.type) for a in op.operands]
    return [c.narrowed(c.call(name, args, [wt] * len(args), wt), t)]








_INLINE_F32 = {
    math.ExpOp: (emit_exp_f32, "llvm.exp", "exp", "xla_opt.expf"),
    math.TanhOp: (emit_tanh_f32, None, "tanh", "xla_opt.tanhf"),
}


@handles(*_INLINE_F32)
def _inline_f32(c: _FunctionConverter, op: Operation):
    t = op.results[0].type
    emit, intrinsic, libm, function = _INLINE_F32[type(op)]
    if isinstance(t, Float64Type):
        x = c.v(op.operands[0])
        if intrinsic is not None:
            return [c.intrinsic(f"{intrinsic}.f64", [x], t)]
        return [c.call(libm, [x], [t], t)]
    (x,) = c.widened_operands(op)
    if isinstance(t, Float16Type):
        x = c.emit(llvm.FPExtOp(x, Float32Type())).results[0]
    name = c.mod.scalar_function(function, emit, Float32Type())
    y = c.emit(llvm.CallOp(name, x, return_type=Float32Type())).results[0]
    if isinstance(t, Float16Type):
        return list(c.emit(llvm.FPTruncOp(y, t)).results)
    return [c.narrowed(y, t)]


@handles(math.RsqrtOp)
def _rsqrt(c: _FunctionConverter, op: Operation):
    t = op.results[0].type
    (x,) = c.widened_operands(op)
    wt = Float32Type() if isinstance(t, BFloat16Type) else t
    root = c.intrinsic(f"llvm.sqrt.{_type_suffix(wt)}", [x], wt)
    one = c.emit(llvm.ConstantOp(FloatAttr(1.0, wt), wt)).results[0]  # type: ignore[arg-type]
    return [c.narrowed(c.emit(llvm.FDivOp(one, root)).results[0], t)]


@handles(arith.FloorDivSIOp)
def _floordivsi(c: _FunctionConverter, op: arith.FloorDivSIOp):
    """Division rounding toward negative infinity (`lower-affine`'s `floordiv`, the
    index arithmetic of a reshape's merged dimensions): the truncated quotient, less
    one where the remainder is not zero and its sign differs from the divisor's. On
    indices LLVM proves non-negative, that is a plain (unsigned) division."""
    a, b = c.v(op.lhs), c.v(op.rhs)
    t = a.type
    quotient = c.emit(llvm.SDivOp(a, b)).results[0]
    remainder = c.emit(llvm.SRemOp(a, b)).results[0]
    zero = c.emit(llvm.ConstantOp(IntegerAttr(0, t), t)).results[0]
    signs = c.emit(llvm.XOrOp(remainder, b)).results[0]
    opposite = c.emit(llvm.ICmpOp(signs, zero, IntegerAttr(2, i64))).results[0]  # slt
    inexact = c.emit(llvm.ICmpOp(remainder, zero, IntegerAttr(1, i64))).results[0]  # ne
    adjust = c.emit(llvm.AndOp(opposite, inexact)).results[0]
    one = c.emit(llvm.ConstantOp(IntegerAttr(1, t), t)).results[0]
    lower = c.emit(llvm.SubOp(quotient, one)).results[0]
    return list(c.emit(llvm.SelectOp(adjust, lower, quotient)).results)


@handles(arith.MaxSIOp, arith.MinSIOp, arith.MaxUIOp, arith.MinUIOp)
def _int_minmax(c: _FunctionConverter, op: Operation):
    predicate = {arith.MaxSIOp: 4, arith.MinSIOp: 2, arith.MaxUIOp: 8, arith.MinUIOp: 6}[type(op)]
    a, b = c.v(op.operands[0]), c.v(op.operands[1])
    cond = c.emit(llvm.ICmpOp(a, b, IntegerAttr(predicate, i64))).results[0]
    return list(c.emit(llvm.SelectOp(cond, a, b)).results)


@handles(memref.LoadOp)
def _load(c: _FunctionConverter, op: memref.LoadOp):
    ptr = c.address(op.memref, list(op.indices))
    return list(c.emit(llvm.LoadOp(ptr, llvm_type(op.res.type))).results)


@handles(memref.StoreOp)
def _store(c: _FunctionConverter, op: memref.StoreOp):
    ptr = c.address(op.memref, list(op.indices))
    c.emit(llvm.StoreOp(c.v(op.value), ptr))


@handles(memref.AllocOp)
def _alloc(c: _FunctionConverter, op: memref.AllocOp):
    t = op.memref.type
    assert isinstance(t, MemRefType)
    return [c.call("malloc", [c.byte_size(t)], [i64], PTR)]


@handles(memref.AllocaOp)
def _alloca(c: _FunctionConverter, op: memref.AllocaOp):
    t = op.memref.type
    assert isinstance(t, MemRefType)
    return list(c.emit(llvm.AllocaOp(c.const(num_elements(t)), storage_type(t.get_element_type()), alignment=64)).results)


@handles(memref.DeallocOp)
def _dealloc(c: _FunctionConverter, op: memref.DeallocOp):
    c.call("free", [c.v(op.memref)], [PTR], llvm.LLVMVoidType())


@handles(memref.CopyOp)
def _copy(c: _FunctionConverter, op: memref.CopyOp):
    t = op.source.type
    assert isinstance(t, MemRefType)
    c.intrinsic(
        "llvm.memcpy.p0.p0.i64",
        [c.v(op.destination), c.v(op.source), c.byte_size(t), c.const(0, i1)],
        None,
    )


@handles(memref.CollapseShapeOp)
def _collapse_shape(c: _FunctionConverter, op: memref.CollapseShapeOp):
    """A view with dimensions merged (identity layouts: the same bytes): the same pointer."""
    return [c.v(op.src)]


@handles(memref.GetGlobalOp)
def _get_global(c: _FunctionConverter, op: memref.GetGlobalOp):
    return list(c.emit(llvm.AddressOfOp(op.name_.root_reference.data, PTR)).results)


@handles(UnrealizedConversionCastOp)
def _unrealized_cast(c: _FunctionConverter, op: UnrealizedConversionCastOp):
    """A value cast to or from its LLVM type (the captured values of convert-omp-to-llvm's
    outlined regions): the same value here (a pointer as the plain `ptr`, as call_args)."""
    for a, r in zip(op.inputs, op.outputs, strict=True):
        if llvm_type(a.type) != llvm_type(r.type):
            raise PassFailedException(f"convert-to-llvm: cannot cast {a.type} to {r.type}")
    return c.call_args([c.v(a) for a in op.inputs])


# ---- complex numbers ---------------------------------------------------------------


def _position(index: int) -> DenseArrayBase:
    return DenseArrayBase.from_list(i64, [index])


def _complex_part(c: _FunctionConverter, z: SSAValue, index: int, part: Attribute) -> SSAValue:
    return c.emit(llvm.ExtractValueOp(_position(index), z, part)).results[0]


def _complex_pack(c: _FunctionConverter, re: SSAValue, im: SSAValue, t: Attribute) -> SSAValue:
    undef = c.emit(llvm.UndefOp(t)).results[0]
    with_re = c.emit(llvm.InsertValueOp(_position(0), undef, re)).results[0]
    return c.emit(llvm.InsertValueOp(_position(1), with_re, im)).results[0]


@handles(cplx.CreateOp)
def _complex_create(c: _FunctionConverter, op: cplx.CreateOp):
    return [_complex_pack(c, c.v(op.real), c.v(op.imaginary), llvm_type(op.complex.type))]


@handles(cplx.ReOp, cplx.ImOp)
def _complex_re_im(c: _FunctionConverter, op: Operation):
    index = 0 if isinstance(op, cplx.ReOp) else 1
    return [_complex_part(c, c.v(op.operands[0]), index, op.results[0].type)]


@handles(cplx.ConstantOp)
def _complex_constant(c: _FunctionConverter, op: cplx.ConstantOp):
    t = op.complex.type
    assert isinstance(t, ComplexType)
    re, im = (c.emit(llvm.ConstantOp(v, t.element_type)).results[0] for v in op.value.data)
    return [_complex_pack(c, re, im, llvm_type(t))]


# complex op -> the C library's function on `double _Complex` (+ "f": `float _Complex`)
_COMPLEX_LIBM: dict[type[Operation], str] = {
    cplx.ExpOp: "cexp",
    cplx.LogOp: "clog",
    cplx.SqrtOp: "csqrt",
    cplx.SinOp: "csin",
    cplx.CosOp: "ccos",
    cplx.TanOp: "ctan",
    cplx.TanhOp: "ctanh",
    cplx.PowOp: "cpow",
}


def _check_complex_abi() -> None:
    if platform.machine().lower() not in ("x86_64", "amd64"):
        raise PassFailedException(
            f"convert-to-llvm: C library calls on complex numbers are laid out for x86-64 only, not {platform.machine()}"
        )


def _to_c_complex(c: _FunctionConverter, z: SSAValue, part: Attribute) -> list[SSAValue]:
    """The arguments passing `z` as C passes a complex number on x86-64: a `double
    _Complex` as two doubles; a `float _Complex` in one SSE register, which a double
    holding both parts' bits (real part low) occupies the same way."""
    re, im = _complex_part(c, z, 0, part), _complex_part(c, z, 1, part)
    if isinstance(part, Float64Type):
        return [re, im]
    low = c.emit(llvm.ZExtOp(c.emit(llvm.BitcastOp(re, i32)).results[0], i64)).results[0]
    high = c.emit(llvm.ZExtOp(c.emit(llvm.BitcastOp(im, i32)).results[0], i64)).results[0]
    high = c.emit(llvm.ShlOp(high, c.const(32))).results[0]
    both_parts = c.emit(llvm.OrOp(low, high)).results[0]
    return [c.emit(llvm.BitcastOp(both_parts, Float64Type())).results[0]]


def _from_c_complex(c: _FunctionConverter, value: SSAValue, t: ComplexType) -> SSAValue:
    """The complex result of a C call (see _to_c_complex): a `double _Complex` comes back
    as the struct of its two doubles, a `float _Complex` as one double's bits."""
    if isinstance(t.element_type, Float64Type):
        return value
    bits = c.emit(llvm.BitcastOp(value, i64)).results[0]
    high = c.emit(llvm.LShrOp(bits, c.const(32))).results[0]
    re, im = (
        c.emit(llvm.BitcastOp(c.emit(llvm.TruncOp(half, i32)).results[0], Float32Type())).results[0]
        for half in (bits, high)
    )
    return _complex_pack(c, re, im, llvm_type(t))


@handles(*_COMPLEX_LIBM)
def _complex_libm(c: _FunctionConverter, op: Operation):
    _check_complex_abi()
    t = op.results[0].type
    assert isinstance(t, ComplexType)
    args = [arg for operand in op.operands for arg in _to_c_complex(c, c.v(operand), t.element_type)]
    double = isinstance(t.element_type, Float64Type)
    name = _COMPLEX_LIBM[type(op)] + ("" if double else "f")
    result = c.call(name, args, [Float64Type()] * len(args), llvm_type(t) if double else Float64Type())
    assert result is not None
    return [_from_c_complex(c, result, t)]


@handles(cplx.AbsOp)
def _complex_abs(c: _FunctionConverter, op: cplx.AbsOp):
    """The C library's cabs: hypot of the parts."""
    part = op.result.type
    z = c.v(op.complex)
    name = "hypot" if isinstance(part, Float64Type) else "hypotf"
    return [c.call(name, [_complex_part(c, z, 0, part), _complex_part(c, z, 1, part)], [part, part], part)]


@dataclass(frozen=True)
class ConvertToLLVMPass(ModulePass):
    """func/cf/arith/math/memref/index on static buffers -> llvm (see module doc)."""

    name = "convert-to-llvm"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for extra in EXTRA_LLVM_OPS:
            if ctx.get_optional_op(extra.name) is None:
                ctx.load_op(extra)
        _ModuleConverter(op).run()


@dataclass(frozen=True)
class LLVMIRTarget(Target):
    """`-t llvm`: LLVM IR of a module in the llvm dialect (xDSL's translation), with a
    located error naming the first op that is not lowered yet."""

    name = "llvm"

    def emit(self, ctx: Context, module: ModuleOp, output) -> None:
        from xdsl.backend.llvm.convert import convert_module

        from xla_opt.diagnostics import DiagnosticError, op_diagnostic

        for op in module.body.block.ops:
            if not isinstance(op, llvm.FuncOp | llvm.GlobalOp):
                raise DiagnosticError(
                    [op_diagnostic(op, "is not in the llvm dialect: -t llvm needs a lowered module (-p xla-to-llvm)")]
                )
        print(convert_module(module, fallback_target_triple=None), file=output)
