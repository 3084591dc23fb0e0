"""Export the data-parallel training step of the README's MPI section from JAX:

    python examples/export_data_parallel_step.py 4 > examples/data_parallel_step_4.mlir

One SGD step of a tanh layer on a mean-squared-error loss, under `jax.pmap` over N
devices: each device takes its batch shard, and the gradients (and the loss) are
averaged across devices with `lax.pmean`, an all_reduce. The export is GSPMD
StableHLO (Shardy off): `xla-opt` imports it as an `sdy.manual_computation` (see
passes/conversions/convert_stablehlo_to_xla/sharding.py) and runs it partitioned."""

import os
import sys

N = int(sys.argv[1]) if len(sys.argv) > 1 else 2
os.environ["XLA_FLAGS"] = f"--xla_force_host_platform_device_count={N}"

import jax
import jax.numpy as jnp
import numpy as np

jax.config.update("jax_use_shardy_partitioner", False)

BATCH, FEATURES, OUTPUTS, LEARNING_RATE = 16, 8, 4, 0.1


def loss(w, b, x, y):
    return jnp.mean((jnp.tanh(x @ w + b) - y) ** 2)


def step(w, b, x, y):
    value, (gw, gb) = jax.value_and_grad(loss, argnums=(0, 1))(w, b, x, y)
    gw, gb, value = (jax.lax.pmean(v, "devices") for v in (gw, gb, value))
    return w - LEARNING_RATE * gw, b - LEARNING_RATE * gb, value


if __name__ == "__main__":
    train_step = jax.pmap(step, axis_name="devices", in_axes=(None, None, 0, 0))
    w = np.zeros((FEATURES, OUTPUTS), np.float32)
    b = np.zeros(OUTPUTS, np.float32)
    x = np.zeros((N, BATCH, FEATURES), np.float32)
    y = np.zeros((N, BATCH, OUTPUTS), np.float32)
    print(train_step.lower(w, b, x, y).as_text())
