"""convert-to-llvm's converters of the memref ops (MLIR's FinalizeMemRefToLLVM), on
statically shaped buffers with identity layouts: a buffer is a bare `!llvm.ptr` (no
descriptor: its shape and row-major strides are constants of its type).

* `memref.load/store %m[%i, %j]` -> `getelementptr inbounds T, %p[%i * s0 + %j]` +
  load/store (one index: the row-major linear offset); an i1 is its byte, loaded as an
  i8 (nonzero is true, as numpy's bool) and stored as 0 or 1: LLVM vectorizes no loop
  that loads an i1 (a causal mask's select: `<N x i1>` in memory is packed bits);
* `memref.collapse_shape` -> the same pointer (merged dimensions are the same bytes);
* `memref.alloc/dealloc` -> `malloc`/`free`; `memref.alloca` -> `llvm.alloca`;
  `memref.copy` -> `llvm.memcpy`;
* `memref.global` -> a constant internal `llvm.mlir.global` holding the raw bits, as an
  array of integers of the element's width (one layout for every element type, complex
  numbers as their parts); `memref.get_global` -> its address.
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects import llvm, memref
from xdsl.dialects.builtin import (
    BFloat16Type,
    ComplexType,
    DenseIntOrFPElementsAttr,
    Float16Type,
    Float32Type,
    Float64Type,
    IntegerAttr,
    IntegerType,
    MemRefType,
    TensorType,
    i1,
    i8,
    i64,
)
from xdsl.ir import Attribute, SSAValue
from xdsl.utils.exceptions import PassFailedException
from xla_opt.lowering.conversions.convert_to_llvm.common import (
    FunctionConverter,
    ModuleConverter,
    handles,
    handles_module_op,
)
from xla_opt.lowering.utils.llvm_types import (
    PTR,
    byte_width,
    llvm_type,
    num_elements,
    row_major_strides,
    storage_type,
)


def _address(c: FunctionConverter, ref: SSAValue, indices) -> SSAValue:
    t = ref.type
    assert isinstance(t, MemRefType)
    base = c.v(ref)
    byte = t.get_element_type() == i1  # loaded and stored as an i8 (see _load)
    if not indices:
        return c.emit(llvm.BitcastOp(base, PTR)).results[0] if byte else base
    strides = row_major_strides(t.get_shape())
    offset: SSAValue | None = None
    for idx, stride in zip(indices, strides, strict=True):
        term = c.v(idx)
        if stride != 1:
            term = c.emit(llvm.MulOp(term, c.const(stride))).results[0]
        offset = term if offset is None else c.emit(llvm.AddOp(offset, term)).results[0]
    assert offset is not None
    gep = llvm.GEPOp(
        base,
        [llvm.GEP_USE_SSA_VAL],
        i8 if byte else storage_type(t.get_element_type()),
        ssa_indices=[offset],
        inbounds=True,
    )  # one index: the row-major linear offset
    return c.emit(gep).results[0]


def _byte_size(c: FunctionConverter, t: MemRefType) -> SSAValue:
    return c.const(num_elements(t) * byte_width(t.get_element_type()))


@handles(memref.LoadOp)
def _load(c: FunctionConverter, op: memref.LoadOp):
    ptr = _address(c, op.memref, list(op.indices))
    if op.res.type == i1:  # its byte, as an i8: LLVM vectorizes no loop that loads an i1
        byte = c.emit(llvm.LoadOp(ptr, i8)).results[0]
        ne = IntegerAttr(1, i64)  # llvm's icmp predicate ne
        return list(c.emit(llvm.ICmpOp(byte, c.const(0, i8), ne)).results)
    return list(c.emit(llvm.LoadOp(ptr, llvm_type(op.res.type))).results)


@handles(memref.StoreOp)
def _store(c: FunctionConverter, op: memref.StoreOp):
    ptr = _address(c, op.memref, list(op.indices))
    value = c.v(op.value)
    if op.value.type == i1:  # 0 or 1 in its byte, as an i8 (see _load)
        value = c.emit(llvm.ZExtOp(value, i8)).results[0]
    c.emit(llvm.StoreOp(value, ptr))


@handles(memref.AllocOp)
def _alloc(c: FunctionConverter, op: memref.AllocOp):
    t = op.memref.type
    assert isinstance(t, MemRefType)
    return [c.call("malloc", [_byte_size(c, t)], [i64], PTR)]


@handles(memref.AllocaOp)
def _alloca(c: FunctionConverter, op: memref.AllocaOp):
    t = op.memref.type
    assert isinstance(t, MemRefType)
    return list(c.emit(llvm.AllocaOp(c.const(num_elements(t)), storage_type(t.get_element_type()), alignment=64)).results)


@handles(memref.DeallocOp)
def _dealloc(c: FunctionConverter, op: memref.DeallocOp):
    c.call("free", [c.v(op.memref)], [PTR], llvm.LLVMVoidType())


@handles(memref.CopyOp)
def _copy(c: FunctionConverter, op: memref.CopyOp):
    t = op.source.type
    assert isinstance(t, MemRefType)
    c.intrinsic(
        "llvm.memcpy.p0.p0.i64",
        [c.v(op.destination), c.v(op.source), _byte_size(c, t), c.const(0, i1)],
        None,
    )


@handles(memref.CollapseShapeOp)
def _collapse_shape(c: FunctionConverter, op: memref.CollapseShapeOp):
    """A view with dimensions merged (identity layouts: the same bytes): the same pointer."""
    return [c.v(op.src)]


@handles(memref.GetGlobalOp)
def _get_global(c: FunctionConverter, op: memref.GetGlobalOp):
    return list(c.emit(llvm.AddressOfOp(op.name_.root_reference.data, PTR)).results)


@handles_module_op(memref.GlobalOp)
def _global(m: ModuleConverter, op: memref.GlobalOp) -> llvm.GlobalOp:
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
