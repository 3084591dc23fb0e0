"""XLA itself as a second oracle: compile StableHLO text with JAX's XLA client (CPU) and
run it on numpy arrays. This is the one module that touches JAX's internal XLA client,
so a JAX upgrade changes only this file.

    from xla_opt import xla_oracle
    if xla_oracle.available():
        results = xla_oracle.run_stablehlo(text, a, b)   # -> list[np.ndarray]

The program's entry function must be `@main` (`xla_opt.passes.conversions.convert_xla_to_stablehlo.to_stablehlo_text(
module, entry=...)` renames it). Inputs keep their dtypes: 64-bit arrays are passed as
64-bit even when JAX's x64 mode is off.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from typing import Any

import numpy as np

_CACHE_SIZE = 64
_executables: OrderedDict[str, Any] = OrderedDict()


class OracleUnavailable(RuntimeError):
    """JAX (with its CPU backend) is not installed or does not load."""


def _backend() -> Any:
    try:
        from jax._src import xla_bridge
    except Exception as e:  # noqa: BLE001 - any failure to load means "no oracle"
        raise OracleUnavailable(f"JAX is not available: {e}") from None
    try:
        return xla_bridge.get_backend("cpu")
    except Exception as e:  # noqa: BLE001
        raise OracleUnavailable(f"JAX's CPU backend is not available: {e}") from None


def available() -> bool:
    """Whether XLA can be used as an oracle (JAX and its CPU backend load)."""
    try:
        _backend()
        from jax._src.lib import xla_client  # noqa: F401
    except Exception:  # noqa: BLE001
        return False
    return True


def check_stablehlo(text: str) -> None:
    """Parse and verify `text` with JAX's own MLIR (jaxlib.mlir, StableHLO registered);
    raises ValueError with MLIR's diagnostics when it is not accepted."""
    from jax._src.interpreters import mlir
    from jax._src.lib.mlir import ir

    with mlir.make_ir_context():
        try:
            module = ir.Module.parse(text)
        except Exception as e:  # noqa: BLE001 - MLIR raises its own error types
            raise ValueError(f"JAX's MLIR parser rejects the program: {e}") from None
        if not module.operation.verify():
            raise ValueError("JAX's MLIR verifier rejects the program")


def compile_stablehlo(text: str) -> Any:
    """The loaded XLA executable of a StableHLO module (cached by its text)."""
    key = hashlib.sha256(text.encode()).hexdigest()
    exe = _executables.get(key)
    if exe is not None:
        _executables.move_to_end(key)
        return exe
    be = _backend()
    from jax._src.lib import xla_client

    devices = xla_client.DeviceList(tuple(be.devices()[:1]))
    exe = be.compile_and_load(text, devices, xla_client.CompileOptions())
    _executables[key] = exe
    if len(_executables) > _CACHE_SIZE:
        _executables.popitem(last=False)
    return exe


def run_stablehlo(text: str, *arrays: Any) -> list[np.ndarray]:
    """Compile `text` (StableHLO, entry `@main`) for one CPU device and run it on
    `arrays`; returns the results as numpy arrays, in order."""
    import jax

    exe = compile_stablehlo(text)
    # x64 on while transferring: otherwise JAX would canonicalize f64/i64 inputs to 32 bits.
    with jax.enable_x64(True):
        buffers = [jax.device_put(np.asarray(a)) for a in arrays]
        outputs = exe.execute(buffers)
        return [np.asarray(o) for o in outputs]


def run_stablehlo_partitioned(
    text: str, *arrays: Any, partitions: int, result_shapes: Any
) -> list[np.ndarray]:
    """Compile `text`, a program of `partitions` partitions (its shardings in Shardy's
    `sdy` form or GSPMD's `mhlo.sharding`), with XLA's SPMD partitioner for that many
    CPU devices, and run it on the global `arrays`: each is put on the devices as the
    compiled program's parameter sharding says, and each result is put back together
    from the devices' pieces (`result_shapes`, the global shapes, in order). JAX must
    have started with that many devices (`XLA_FLAGS=--xla_force_host_platform_device_count=N`
    set before it is imported)."""
    import jax
    from jax._src import compiler
    from jax._src.lib import xla_client
    from jax._src.sharding_impls import GSPMDSharding

    be = _backend()
    devices = tuple(be.devices()[:partitions])
    if len(devices) < partitions:
        raise OracleUnavailable(
            f"a program of {partitions} partitions needs {partitions} CPU devices, JAX has {len(devices)}: set "
            f"XLA_FLAGS=--xla_force_host_platform_device_count={partitions} before JAX is imported"
        )
    options = compiler.get_compile_options(
        num_replicas=1, num_partitions=partitions, device_assignment=np.arange(partitions).reshape(1, partitions)
    )
    options.executable_build_options.use_spmd_partitioning = True
    options.executable_build_options.use_shardy_partitioner = "sdy." in text
    exe = be.compile_and_load(text, xla_client.DeviceList(devices), options)
    with jax.enable_x64(True):
        buffers = [
            jax.device_put(np.asarray(a), GSPMDSharding(devices, s))
            for a, s in zip(arrays, exe.get_parameter_shardings(), strict=True)
        ]
        pieces = exe.execute_sharded(buffers).disassemble_into_single_device_arrays()
        results = []
        for shape, per_device, sharding in zip(result_shapes, pieces, exe.get_output_shardings(), strict=True):
            first = np.asarray(per_device[0])
            out = np.empty(tuple(shape), first.dtype)
            where = GSPMDSharding(devices, sharding).devices_indices_map(tuple(shape))
            for device, piece in zip(devices, per_device, strict=True):
                out[where[device]] = np.asarray(piece)
            results.append(out)
    return results


__all__ = [
    "OracleUnavailable",
    "available",
    "check_stablehlo",
    "compile_stablehlo",
    "run_stablehlo",
    "run_stablehlo_partitioned",
]
