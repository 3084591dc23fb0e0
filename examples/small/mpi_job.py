"""A script for a job of 2 MPI ranks started by `mpirun -np 2 python examples/small/mpi_job.py`
(or a cluster's own mpirun or srun): each rank runs its replica, and every rank gets
every replica's results."""

import numpy as np
from mpi4py import MPI

import xla_opt

x = np.array([[1, 2], [10, 20]], np.float32)  # one row per replica
results = xla_opt.run("examples/small/all_reduce.mlir", x, replicas=2, launcher="mpi")
rank = MPI.COMM_WORLD.Get_rank()
if rank == 0:
    print(f"rank {rank} of {MPI.COMM_WORLD.Get_size()}: {[r[0].tolist() for r in results]}")
