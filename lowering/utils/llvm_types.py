"""Memory layout of our types in the llvm dialect: every buffer is a bare pointer,
indexes are i64, bf16 is stored as i16, a complex number is a struct of its real and
imaginary parts (numpy's layout: two consecutive floats); byte widths and row-major
strides."""

from __future__ import annotations

from xdsl.dialects import llvm
from xdsl.dialects.builtin import (
    BFloat16Type,
    ComplexType,
    Float16Type,
    Float32Type,
    Float64Type,
    IndexType,
    IntegerType,
    MemRefType,
    i16,
    i64,
)
from xdsl.ir import Attribute
from xdsl.utils.exceptions import PassFailedException

PTR = llvm.LLVMPointerType()


def llvm_type(t: Attribute) -> Attribute:
    if isinstance(t, MemRefType):
        return PTR
    if isinstance(t, IndexType):
        return i64
    if isinstance(t, BFloat16Type):
        return i16
    if isinstance(t, ComplexType):
        part = llvm_type(t.element_type)
        return llvm.LLVMStructType.from_type_list([part, part])
    return t


def storage_type(t: Attribute) -> Attribute:
    """The type of one element in memory (GEP stride)."""
    return llvm_type(t)


def byte_width(t: Attribute) -> int:
    if isinstance(t, IntegerType):
        return max(1, (t.width.data + 7) // 8)
    if isinstance(t, BFloat16Type | Float16Type):
        return 2
    if isinstance(t, Float32Type):
        return 4
    if isinstance(t, Float64Type | IndexType):
        return 8
    if isinstance(t, ComplexType):
        return 2 * byte_width(t.element_type)
    raise PassFailedException(f"convert-to-llvm: no memory layout for element type {t}")


def num_elements(t: MemRefType) -> int:
    n = 1
    for d in t.get_shape():
        n *= d
    return n


def row_major_strides(shape) -> list[int]:
    strides, acc = [], 1
    for d in reversed(shape):
        strides.append(acc)
        acc *= d
    return list(reversed(strides))


