"""The runtime: what runs a lowered program on this machine. The lowering never imports
it (tests/test_import_cycles.py checks that); it imports the lowering's declarations of
what compiled code calls (lowering/kernels/libraries.py) and provides them.

- `cpu.py`: the host: LLVM's native target, the CPU's features, the thread count;
- `llvm.py`: LLVM IR to native code (optimization level by size, parallel code
  generation, linking into one execution engine), cached in the process;
- `disk_cache.py`: object code cached on disk across processes;
- `binding.py`: a lowered module's declarations bound before it is compiled (kernel
  libraries compiled on first use, threads, MPI, host calls);
- `program.py`: an xla module through the pipeline to native code, pipelined (LLVM
  compiles a part while Python lowers the next);
- `executable.py`: `JitFunction`, a compiled entry called on numpy arrays (its
  buffers, the calling convention);
- `allocator.py`: glibc's malloc kept from giving a call's buffers back to the system
  (each next call would page-fault them in again);
- `host_calls.py`: callbacks into Python (infeed, outfeed, send, recv, Python custom
  calls) and native custom-call wrappers;
- `threads.py`: libgomp and the thread count (`xla_opt.set_num_threads`);
- `mpi.py`: libmpi, the MPI wrappers for its ABI, the communicators of the groupings.
"""
