"""Casts the llvm dialect of xDSL 0.74 lacks, used by convert-to-llvm. They are
registered with contexts beside xDSL's llvm dialect, and `xla_opt.xdsl_patches`
teaches the LLVM IR translation their opcodes."""

from __future__ import annotations

from xdsl.dialects import llvm
from xdsl.irdl import irdl_op_definition


@irdl_op_definition
class UIToFPOp(llvm.GenericCastOp):
    name = "llvm.uitofp"


@irdl_op_definition
class FPToSIOp(llvm.GenericCastOp):
    name = "llvm.fptosi"


@irdl_op_definition
class FPToUIOp(llvm.GenericCastOp):
    name = "llvm.fptoui"


EXTRA_LLVM_OPS = (UIToFPOp, FPToSIOp, FPToUIOp)
