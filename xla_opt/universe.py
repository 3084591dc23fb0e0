"""xla-opt's dialects, passes and output targets, registered with xDSL through its
`Universe` plugin mechanism (the `xdsl.universe` entry point in pyproject.toml): plain
`xdsl-opt`, `xla-opt` and every context the API makes see the same registry.

Each entry names the module and class that define it, imported on first use (as xDSL
does), so loading the registry imports none of the passes. Another package registers
its own passes the same way: its own `Universe` and entry point (see docs/adding-a-pass.md).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from xdsl.universe import Universe


def _lazy(path: str, before: Callable[[], None] | None = None) -> Callable[[], Any]:
    """A factory returning the object at `module:attribute`, imported when called."""
    module, _, attribute = path.partition(":")

    def load() -> Any:
        if before is not None:
            before()
        return getattr(importlib.import_module(module), attribute)

    return load


def _install_xdsl_patches() -> None:
    # parsing our dialects relies on them (hexadecimal floats, locations...)
    from xla_opt.xdsl_patches import install

    install()


DIALECTS: dict[str, str] = {
    "xla": "xla_opt.dialects.xla:XLA",
    # the dialects of the StableHLO programs we import (convert-stablehlo-to-xla)
    "stablehlo": "xla_opt.dialects.stablehlo:STABLEHLO",
    "chlo": "xla_opt.dialects.stablehlo:CHLO",
    # the shardings of sharded programs (Shardy's dialect), kept through the import
    "sdy": "xla_opt.dialects.sdy:SDY",
}

PASSES: dict[str, str] = {
    "convert-stablehlo-to-xla": "xla_opt.passes.conversions.convert_stablehlo_to_xla:ConvertStablehloToXlaPass",
    "convert-xla-to-stablehlo": "xla_opt.passes.conversions.convert_xla_to_stablehlo:ConvertXlaToStablehloPass",
    "xla-expand-batch-norm": "xla_opt.passes.transforms.xla_expand_batch_norm:XlaExpandBatchNormPass",
    "xla-fold-dot-transpose": "xla_opt.passes.transforms.xla_fold_dot_transpose:XlaFoldDotTransposePass",
    "xla-fold-sort-negation": "xla_opt.passes.transforms.xla_fold_sort_negation:XlaFoldSortNegationPass",
    "xla-inline-calls": "xla_opt.passes.transforms.xla_inline_calls:XlaInlineCallsPass",
    "xla-legalize-broadcast": "xla_opt.passes.transforms.xla_legalize_broadcast:XlaLegalizeBroadcastPass",
    "xla-widen-narrow-types": "xla_opt.passes.transforms.xla_widen_narrow_types:WidenNarrowTypesPass",
    "xla-spmd-partition": "xla_opt.passes.transforms.xla_spmd_partition:XlaSpmdPartitionPass",
    "convert-xla-to-linalg": "xla_opt.lowering.conversions.convert_xla_to_linalg:ConvertXlaToLinalgPass",
    "linalg-interchange-contractions": "xla_opt.lowering.transforms.linalg_interchange_contractions:InterchangeContractionsPass",
    "linalg-block-rows": "xla_opt.lowering.transforms.linalg_block_rows:BlockRowsPass",
    "linalg-fuse-elementwise": "xla_opt.lowering.transforms.linalg_fuse_elementwise:FuseElementwisePass",
    "xla-bufferize": "xla_opt.lowering.conversions.xla_bufferize:XlaBufferizePass",
    "linalg-matmul-to-kernel": "xla_opt.lowering.transforms.linalg_matmul_to_kernel:MatmulToKernelPass",
    "hoist-gemm-transposes": "xla_opt.lowering.transforms.hoist_gemm_transposes:HoistGemmTransposesPass",
    "linalg-conv-to-kernel": "xla_opt.lowering.transforms.linalg_conv_to_kernel:ConvToKernelPass",
    "linalg-write-in-place": "xla_opt.lowering.transforms.linalg_write_in_place:WriteInPlacePass",
    "buffer-loop-hoisting": "xla_opt.lowering.transforms.buffer_loop_hoisting:BufferLoopHoistingPass",
    "convert-linalg-to-parallel-loops": "xla_opt.lowering.conversions.convert_linalg_to_parallel_loops:ConvertLinalgToParallelLoopsPass",
    "fold-delinearized-accesses": "xla_opt.lowering.transforms.fold_delinearized_accesses:FoldDelinearizedAccessesPass",
    "stream-result-stores": "xla_opt.lowering.transforms.stream_result_stores:StreamResultStoresPass",
    "split-loop-ranges": "xla_opt.lowering.transforms.split_loop_ranges:SplitLoopRangesPass",
    "coalesce-contiguous-loops": "xla_opt.lowering.transforms.coalesce_contiguous_loops:CoalesceContiguousLoopsPass",
    "fuse-loop-nests": "xla_opt.lowering.transforms.fuse_loop_nests:FuseLoopNestsPass",
    "outline-loop-nests": "xla_opt.lowering.transforms.outline_loop_nests:OutlineLoopNestsPass",
    "convert-omp-to-llvm": "xla_opt.lowering.conversions.convert_omp_to_llvm:ConvertOmpToLLVMPass",
    "convert-scf-while-to-cf": "xla_opt.lowering.conversions.convert_scf_while_to_cf:ConvertScfWhileToCfPass",
    "convert-to-llvm": "xla_opt.lowering.conversions.convert_to_llvm:ConvertToLLVMPass",
    "xla-to-llvm": "xla_opt.lowering.xla_to_llvm:XlaToLLVMPass",
}

# `llvm` is xDSL's name for its own LLVM IR target; xla-opt replaces it with ours
# (located errors on modules that are not lowered), outside the shared registry.
TARGETS: dict[str, str] = {
    "stablehlo": "xla_opt.passes.conversions.convert_xla_to_stablehlo:StableHLOTarget",
}
XLA_OPT_LLVM_TARGET = "xla_opt.lowering.conversions.convert_to_llvm:LLVMIRTarget"

XLA_OPT_UNIVERSE = Universe(
    all_dialects={name: _lazy(path, _install_xdsl_patches) for name, path in DIALECTS.items()},
    all_passes={name: _lazy(path) for name, path in PASSES.items()},
    all_targets={name: _lazy(path) for name, path in TARGETS.items()},
)


def llvm_target() -> Any:
    return _lazy(XLA_OPT_LLVM_TARGET)()
