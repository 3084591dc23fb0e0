"""One rank of a job started by `mpirun -np 4 python examples/small/sharded_job.py PROGRAM`
(or a cluster's own mpirun or srun), for a data-parallel step exported for 4 devices: it
makes only its own shard of the batch (a real job would read it) and runs its device of
the step on it, with the weights, which are replicated, the same on every rank."""

import sys

import numpy as np
from mpi4py import MPI

import xla_opt

rank = MPI.COMM_WORLD.Get_rank()
step = xla_opt.compile(sys.argv[1], backend="jit", launcher="mpi")
w1, w2, x, y = step.partitions.arguments
weights = [np.random.default_rng(0).standard_normal(b.local_shape).astype(np.float32) for b in (w1, w2)]
batch = [np.random.default_rng(1 + rank).standard_normal(b.local_shape).astype(np.float32) for b in (x, y)]
new_w1, new_w2, loss = step(*weights, *batch, local=True)
if rank == 0:
    print(f"rank 0 of {MPI.COMM_WORLD.Get_size()}: a batch shard of {x.local_shape} of {x.global_shape}, loss {float(loss):.4f}")
