"""Export a sharded training step from JAX, as `jax.jit` with shardings writes it:

    python examples/export_sharded_mlp.py 4 > sharded_mlp.mlir            # Shardy (JAX's default)
    python examples/export_sharded_mlp.py 4 --gspmd > sharded_mlp.mlir    # GSPMD's form
    python examples/export_sharded_mlp.py 4 --shard-map > psum.mlir       # a shard_map with psum
    python examples/export_sharded_mlp.py 4 --data-parallel --batch 65536 > dp.mlir

One SGD step of a two-layer MLP on N host devices, as a (data, model) mesh: the batch
sharded over "data", the first weight split by columns and the second by rows over
"model" (Megatron's layout), the weights returned as they came. `xla-run` and
`xla_opt.run` run it partitioned on N devices (docs/sharding.md). With --shard-map, the
program is a `jax.shard_map` body that sums its shard across the devices (`psum`).
With --data-parallel the mesh is ("data"=N): the batch is split N ways and the weights
are replicated; --batch B sets the batch size (default 8; a multiple of N).
"""

import os
import sys

N = int(sys.argv[1]) if len(sys.argv) > 1 and sys.argv[1].isdigit() else 4
os.environ["XLA_FLAGS"] = f"--xla_force_host_platform_device_count={N}"

import jax  # noqa: E402 - after XLA_FLAGS
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
from jax.sharding import AxisType, NamedSharding  # noqa: E402
from jax.sharding import PartitionSpec as P  # noqa: E402

FEATURES, HIDDEN, OUTPUTS, LEARNING_RATE = 4, 8, 2, 0.1


def loss(w1, w2, x, y):
    return jnp.mean((jnp.tanh(x @ w1) @ w2 - y) ** 2)


def step(w1, w2, x, y):
    value, (g1, g2) = jax.value_and_grad(loss, argnums=(0, 1))(w1, w2, x, y)
    return w1 - LEARNING_RATE * g1, w2 - LEARNING_RATE * g2, value


def main(argv: list[str]) -> None:
    if "--gspmd" in argv:
        jax.config.update("jax_use_shardy_partitioner", False)
    batch = int(argv[argv.index("--batch") + 1]) if "--batch" in argv else 8
    if "--data-parallel" in argv:
        mesh = jax.make_mesh((N,), ("data",), axis_types=(AxisType.Auto,))
        shard = lambda *spec: NamedSharding(mesh, P(*spec))  # noqa: E731
        arguments = (shard(), shard(), shard("data", None), shard("data", None))
        results = (shard(), shard(), shard())
    else:
        model = 2 if N % 2 == 0 and N > 1 else 1
        mesh = jax.make_mesh((N // model, model), ("data", "model"), axis_types=(AxisType.Auto, AxisType.Auto))
        shard = lambda *spec: NamedSharding(mesh, P(*spec))  # noqa: E731
        arguments = (shard(None, "model"), shard("model", None), shard("data", None), shard("data", None))
        results = (shard(None, "model"), shard("model", None), shard())
    if "--shard-map" in argv:
        body = jax.shard_map(lambda a: jax.lax.psum(a * 2, "data"), mesh=mesh, in_specs=P("data"), out_specs=P())
        print(jax.jit(body).lower(np.zeros(4 * mesh.shape["data"], np.float32)).as_text())
        return
    program = jax.jit(step, in_shardings=arguments, out_shardings=results)
    shapes = [(FEATURES, HIDDEN), (HIDDEN, OUTPUTS), (batch, FEATURES), (batch, OUTPUTS)]
    print(program.lower(*[np.zeros(s, np.float32) for s in shapes]).as_text())


if __name__ == "__main__":
    main(sys.argv[1:])
