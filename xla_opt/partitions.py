"""Running a program of N partitions (`mhlo.num_partitions = N`: `jax.jit` with shardings).

`xla-spmd-partition` turns the global program into the program one device runs, which
runs as N replicas, one per device: threads of this process on the interpreter, or the
ranks of an MPI job on either backend. The caller passes the global inputs and gets
the global results: each device receives its shard of every input (the slice the
per-device entry's `xla.shard_offsets` say, of the local type's shape), and each result
is put back together from the devices' shards (replicated parts are the same on every
device holding them).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import DictionaryAttr, ModuleOp

from xla_opt.dialects.xla.element_types import shape_of
from xla_opt.interpreter.dtypes import numpy_dtype
from xla_opt.passes.transforms.xla_spmd_partition import GLOBAL_TYPE, SHARD_OFFSETS, num_partitions, partition_module
from xla_opt.passes.transforms.xla_spmd_partition.partition import Statistics


@dataclass
class Boundary:
    """One argument or result of the per-device entry: its global and local shapes and
    element type, and each device's offset into the global value."""

    global_shape: tuple[int, ...]
    local_shape: tuple[int, ...]
    dtype: np.dtype
    offsets: np.ndarray  # [devices, rank]

    def slices(self, device: int) -> tuple[slice, ...]:
        """The part of the global value `device` holds."""
        return tuple(slice(int(o), int(o) + n) for o, n in zip(self.offsets[device], self.local_shape, strict=True))

    def shard(self, value: np.ndarray, device: int) -> np.ndarray:
        return np.ascontiguousarray(value[self.slices(device)])

    def assemble(self, shards: Sequence[np.ndarray]) -> np.ndarray:
        out = np.empty(self.global_shape, self.dtype)
        for device, shard in enumerate(shards):
            out[self.slices(device)] = shard
        return out


def _boundaries(attrs: Any, local_types: Sequence[Any]) -> list[Boundary]:
    out = []
    for entry, local in zip(attrs.data, local_types, strict=True):
        assert isinstance(entry, DictionaryAttr)
        global_type = entry.data[GLOBAL_TYPE]
        offsets = entry.data[SHARD_OFFSETS]
        shape = tuple(offsets.get_shape())  # type: ignore[attr-defined]
        table = np.array([int(v) for v in offsets.get_values()], np.int64).reshape(shape)  # type: ignore[attr-defined]
        out.append(
            Boundary(
                tuple(shape_of(global_type)),
                tuple(shape_of(local)),
                numpy_dtype(global_type.get_element_type()),  # type: ignore[attr-defined]
                table,
            )
        )
    return out


@dataclass
class PartitionedProgram:
    """The per-device program of a module of N partitions, and its boundary."""

    module: ModuleOp
    entry: str
    devices: int
    arguments: list[Boundary]
    results: list[Boundary]
    statistics: Statistics

    @property
    def function(self) -> func.FuncOp:
        """The per-device entry function (its types are the local ones)."""
        return next(
            op for op in self.module.body.block.ops if isinstance(op, func.FuncOp) and op.sym_name.data == self.entry
        )

    @cached_property
    def text(self) -> str:
        """The per-device program as text, as each MPI rank loads it."""
        return str(self.module)

    def split(self, inputs: Sequence[np.ndarray]) -> list[list[np.ndarray]]:
        """Each device's inputs: its shard of every global input."""
        return [
            [b.shard(np.asarray(x), d) for b, x in zip(self.arguments, inputs, strict=True)]
            for d in range(self.devices)
        ]

    def assemble(self, per_device: Sequence[Sequence[Any]]) -> list[np.ndarray]:
        """The global results from each device's results."""
        return [b.assemble([np.asarray(results[i]) for results in per_device]) for i, b in enumerate(self.results)]


def partitioned(module: ModuleOp, entry: str, plan: Any = None) -> PartitionedProgram | None:
    """The per-device program of `module` (a copy) when it has several partitions (from
    its sdy annotations, or `plan`'s shardings, made for the copy: see `copy_plan`)."""
    n = num_partitions(module)
    if n <= 1:
        return None
    per_device = module.clone()
    statistics, _mesh = partition_module(per_device, entry, plan(per_device) if callable(plan) else plan)  # type: ignore[misc]
    fn = next(op for op in per_device.body.block.ops if isinstance(op, func.FuncOp) and op.sym_name.data == entry)
    ftype = fn.function_type
    return PartitionedProgram(
        per_device,
        entry,
        n,
        _boundaries(fn.arg_attrs, ftype.inputs.data),
        _boundaries(fn.res_attrs, ftype.outputs.data),
        statistics.statistics,
    )
