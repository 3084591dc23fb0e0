"""The sweep of convert-to-llvm and what every dialect's converters share: the table of
converters (`handles`), the module and function converters that rebuild a module op by
op through it, and the emission helpers (constants, calls, intrinsics, f16/bf16 to and
from f32).

Types are converted once per value as the sweep meets it (`llvm_type`, the mapping and
memory layout of `lowering/utils/llvm_types.py`), with no recursive type conversion
inside a greedy walker: `memref<...xT>` -> `!llvm.ptr` (a bare pointer: shapes are
static and layouts the identity, so strides are constants), `index` -> i64, `bf16` ->
i16 (llvmlite has no bfloat: bf16 arithmetic is done in f32, see `widened_operands`),
`complex<T>` -> `!llvm.struct<(T, T)>` (numpy's layout).

A `func.func` becomes an `llvm.func` of the converted signature: buffer arguments are
`noalias` (which lets LLVM vectorize the loops), its `passthrough` attributes are kept,
and each block is rebuilt by converting its ops in order, each through the converter
registered for its type by the dialect modules of this package (this module imports
none of them). Ops already in the llvm dialect, emitted by earlier stages, are copied
with their operands remapped. Other ops of the module's body (`memref.global`) have
converters of their own (`handles_module_op`).
"""

from __future__ import annotations

import functools
import struct
from collections.abc import Callable

from xdsl.dialects import func, llvm
from xdsl.dialects.builtin import (
    ArrayAttr,
    BFloat16Type,
    DictionaryAttr,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    MemRefType,
    ModuleOp,
    NameLoc,
    NoneAttr,
    StringAttr,
    UnitAttr,
    UnknownLoc,
    UnrealizedConversionCastOp,
    i16,
    i32,
    i64,
)
from xdsl.ir import Attribute, Block, BlockArgument, Operation, Region, SSAValue
from xdsl.utils.exceptions import PassFailedException
from xla_opt.lowering.utils.llvm_types import PTR, llvm_type

# --------------------------------------------------------------------------------------
# The table of converters
# --------------------------------------------------------------------------------------

Handler = Callable[["FunctionConverter", Operation], "list[SSAValue] | None"]
_HANDLERS: dict[type[Operation], Handler] = {}

ModuleOpHandler = Callable[["ModuleConverter", Operation], Operation]
_MODULE_OP_HANDLERS: dict[type[Operation], ModuleOpHandler] = {}


def handles(*types: type[Operation]):
    """Register the decorated function as the converter of ops of `types` inside
    functions: it emits their replacement (`FunctionConverter.emit`) and returns the
    values replacing their results (None: no results)."""

    def register(fn: Handler) -> Handler:
        for t in types:
            _HANDLERS[t] = fn
        return fn

    return register


def handles_module_op(*types: type[Operation]):
    """Register the decorated function as the converter of ops of `types` in the
    module's body: it returns the op replacing them there."""

    def register(fn: ModuleOpHandler) -> ModuleOpHandler:
        for t in types:
            _MODULE_OP_HANDLERS[t] = fn
        return fn

    return register


# --------------------------------------------------------------------------------------
# The sweep
# --------------------------------------------------------------------------------------


class ModuleConverter:
    """The module's body converted in place (`run`), the external functions its calls
    need declared once and our helper functions defined once, after everything else."""

    def __init__(self, module: ModuleOp):
        self.module = module
        self.declared: dict[str, llvm.FuncOp] = {}
        self.defined: dict[str, llvm.FuncOp] = {}  # our own helper functions (`scalar_function`)

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
            if isinstance(op, func.FuncOp):
                new = FunctionConverter(self, op).run()
            elif (convert := _MODULE_OP_HANDLERS.get(type(op))) is not None:
                new = convert(self, op)
            else:
                continue
            block.insert_op_before(new, op)
            op.detach()
            op.erase(safe_erase=False)
        for fn in (*self.defined.values(), *self.declared.values()):
            block.add_op(fn)

    def scalar_function(self, name: str, emit: Callable[[FunctionConverter, SSAValue], SSAValue], t: Attribute) -> str:
        """`name`, defined once per module as `t -> t` computing `emit` (an inline
        expansion such as f32 tanh), internal and `alwaysinline`: LLVM inlines every
        call before vectorizing the loop around it, as if it had been expanded in place,
        while our passes build and translate the expansion once instead of once per use
        (a 2,000-op program with a thousand tanh: 85,000 llvm ops, 60% of them
        expansions). Unoptimized (O0) code calls it."""
        if name not in self.defined:
            body = Block(arg_types=[t])
            c = FunctionConverter(self, None)
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


@functools.lru_cache(maxsize=1024)
def _name_attr(name: str) -> StringAttr:
    """An intrinsic's name, built once (StringAttr is immutable; a tanh expansion
    alone names a dozen intrinsics)."""
    return StringAttr(name)


class FunctionConverter:
    """One function rebuilt op by op (`run`); the converters emit through it, in the
    block being rebuilt, and look up the converted values of their operands (`v`)."""

    def __init__(self, module: ModuleConverter, fn: func.FuncOp | None):
        """`fn`: the function to convert (`run`); None to emit into a function of our
        own (`ModuleConverter.scalar_function`)."""
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
        # the function's `llvm.linkage` when it has one (convert-omp-to-llvm's bodies are
        # internal), as MLIR's func-to-llvm reads it; else external, whatever the visibility
        linkage = fn.attributes.get("llvm.linkage")
        new_fn = llvm.FuncOp(
            fn.sym_name.data,
            llvm.LLVMFunctionType(in_types, result),
            linkage=linkage if isinstance(linkage, llvm.LinkageAttr) else llvm.LinkageAttr("external"),
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

    # ---- operands, calls ---------------------------------------------------------------
    def widened_operands(self, op: Operation) -> list[SSAValue]:
        """The operands, bf16 ones widened to f32: bf16 arithmetic is done in f32
        (llvmlite has no bfloat type; the result is rounded back by `narrowed`)."""
        return [to_f32(self, self.v(a), a.type) if isinstance(a.type, BFloat16Type) else self.v(a) for a in op.operands]

    def narrowed(self, value: SSAValue, t: Attribute) -> SSAValue:
        return to_half(self, value, t) if isinstance(t, BFloat16Type) else value

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
# Values already of LLVM types
# --------------------------------------------------------------------------------------


def _already_llvm(c: FunctionConverter, op: Operation):
    """Ops emitted directly in the llvm dialect by earlier stages: operands remapped."""
    clone = op.clone(value_mapper=c.values)  # it also records the results, as convert() would
    c.emit(clone)
    return list(clone.results)


@handles(UnrealizedConversionCastOp)
def _unrealized_cast(c: FunctionConverter, op: UnrealizedConversionCastOp):
    """A value cast to or from its LLVM type (the captured values of convert-omp-to-llvm's
    outlined regions): the same value here (a pointer as the plain `ptr`, as call_args)."""
    for a, r in zip(op.inputs, op.outputs, strict=True):
        if llvm_type(a.type) != llvm_type(r.type):
            raise PassFailedException(f"convert-to-llvm: cannot cast {a.type} to {r.type}")
    return c.call_args([c.v(a) for a in op.inputs])


# --------------------------------------------------------------------------------------
# Shared emission: intrinsics by type, f16/bf16 through f32
# --------------------------------------------------------------------------------------


def type_suffix(t: Attribute) -> str:
    """The type's part of an overloaded intrinsic's name (`llvm.sqrt.f32`)."""
    if isinstance(t, IntegerType):
        return f"i{t.width.data}"
    if isinstance(t, Float16Type):
        return "f16"
    if isinstance(t, Float32Type):
        return "f32"
    if isinstance(t, Float64Type):
        return "f64"
    raise PassFailedException(f"convert-to-llvm: no intrinsic for type {t}")


def intrinsic_handler(table: dict[type[Operation], str]) -> Handler:
    """The converter of ops computed by one LLVM intrinsic each (op type -> its base
    name, mangled with the result type at emission); bf16 is computed in f32."""

    def handler(c: FunctionConverter, op: Operation):
        t = op.results[0].type
        args = c.widened_operands(op)
        wt = Float32Type() if isinstance(t, BFloat16Type) else t
        return [c.narrowed(c.intrinsic(f"{table[type(op)]}.{type_suffix(wt)}", args, wt), t)]

    return handler


def to_f32(c: FunctionConverter, value: SSAValue, src: Attribute) -> SSAValue:
    """Widen an f16 or bf16 value (exact)."""
    if isinstance(src, BFloat16Type):
        # bf16 bits are the high half of the f32 bits
        wide = c.emit(llvm.ZExtOp(value, i32)).results[0]
        shifted = c.emit(llvm.ShlOp(wide, c.const(16, i32))).results[0]
        return c.emit(llvm.BitcastOp(shifted, Float32Type())).results[0]
    return c.emit(llvm.FPExtOp(value, Float32Type())).results[0]


def to_half(c: FunctionConverter, value: SSAValue, dst: Attribute) -> SSAValue:
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
