"""Passes over the xla dialect, registered with xla-opt by name.

`PASSES` maps each kebab-case pass name to a factory returning the pass class, so that
importing the registry does not import every pass.
"""

from collections.abc import Callable

from xdsl.passes import ModulePass

PASSES: dict[str, Callable[[], type[ModulePass]]] = {}

# Output targets of `xla-opt -t NAME` beyond xDSL's own.
TARGETS: dict[str, Callable] = {}


def _bufferize():
    from xla_opt.lowering.bufferize import XlaBufferizePass

    return XlaBufferizePass


PASSES["xla-bufferize"] = _bufferize


def _legalize_broadcast():
    from xla_opt.lowering.legalize_broadcast import XlaLegalizeBroadcastPass

    return XlaLegalizeBroadcastPass


PASSES["xla-legalize-broadcast"] = _legalize_broadcast


def _convert_xla_to_linalg():
    from xla_opt.lowering.xla_to_linalg import ConvertXlaToLinalgPass

    return ConvertXlaToLinalgPass


PASSES["convert-xla-to-linalg"] = _convert_xla_to_linalg


def _to_llvm():
    from xla_opt.lowering.to_llvm import ConvertToLLVMPass

    return ConvertToLLVMPass


PASSES["convert-to-llvm"] = _to_llvm


def _scf_while():
    from xla_opt.lowering.scf_while import ConvertScfWhileToCfPass

    return ConvertScfWhileToCfPass


PASSES["convert-scf-while-to-cf"] = _scf_while


def _pipeline():
    from xla_opt.lowering.pipeline import XlaToLLVMPass

    return XlaToLLVMPass


PASSES["xla-to-llvm"] = _pipeline


def _stablehlo_target():
    from xla_opt.export_stablehlo import StableHLOTarget

    return StableHLOTarget


TARGETS["stablehlo"] = _stablehlo_target


def _fuse():
    from xla_opt.lowering.fuse_elementwise import FuseElementwisePass

    return FuseElementwisePass


PASSES["linalg-fuse-elementwise"] = _fuse


def _convert_stablehlo_to_xla():
    from xla_opt.passes.stablehlo_to_xla import ConvertStablehloToXlaPass

    return ConvertStablehloToXlaPass


PASSES["convert-stablehlo-to-xla"] = _convert_stablehlo_to_xla


def _llvm_target():
    from xla_opt.lowering.to_llvm import LLVMIRTarget

    return LLVMIRTarget


TARGETS["llvm"] = _llvm_target
