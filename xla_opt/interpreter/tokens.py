"""Reference semantics of the token-ordered ops: after_all, infeed, outfeed, send, recv.

Tokens carry no data (`Token()`); ordering is the program order of one replica.
infeed/outfeed use the replica's host queues; send/recv meet by channel_id (a FIFO per
channel shared by all replicas; with is_host_transfer, the host queues of the context).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from xdsl.interpreter import Interpreter, InterpreterFunctions, impl, register_impls

from xla_opt.dialects import xla

from .collectives import where
from .dtypes import Token, check_value, describe
from .replicas import ReplicaError, replica_state


@register_impls
class TokenFunctions(InterpreterFunctions):
    @impl(xla.AfterAllOp)
    def run_after_all(self, interpreter: Interpreter, op: xla.AfterAllOp, args: tuple[Any, ...]):
        return (Token(),)

    @impl(xla.InfeedOp)
    def run_infeed(self, interpreter: Interpreter, op: xla.InfeedOp, args: tuple[Any, ...]):
        types = [r.type for r in op.outputs]
        if not types:  # an empty shape reads nothing
            return (Token(),)
        state = replica_state(interpreter)
        queue = state.context.infeed[state.replica]
        if not queue:
            raise ReplicaError(f"{where(op)}: the infeed queue of replica {state.replica} is empty")
        element = queue.popleft()
        if not isinstance(element, tuple | list):
            element = (element,)
        what = f"infeed element of replica {state.replica}"
        if len(element) != len(types):
            raise ReplicaError(
                f"{where(op)}: {what} has {len(element)} arrays, the infeed reads {len(types)}"
            )
        try:
            values = [check_value(v, t, f"{what}, array #{i}") for i, (v, t) in enumerate(zip(element, types))]
        except ValueError as e:
            raise ReplicaError(f"{where(op)}: {e}") from None
        return (*(np.array(v, copy=True) for v in values), Token())

    @impl(xla.OutfeedOp)
    def run_outfeed(self, interpreter: Interpreter, op: xla.OutfeedOp, args: tuple[Any, ...]):
        data = tuple(a.copy() for a in args[:-1])
        if data:  # like an empty infeed, an empty outfeed only orders
            state = replica_state(interpreter)
            state.context.outfeed[state.replica].append(data)
        return (Token(),)

    @impl(xla.SendOp)
    def run_send(self, interpreter: Interpreter, op: xla.SendOp, args: tuple[Any, ...]):
        state = replica_state(interpreter)
        data = tuple(a.copy() for a in args[:-1])
        channel = op.get_channel_id()
        if op.get_is_host_transfer():
            with state.context.lock:
                state.context.device_to_host[channel].append((state.replica, data))
        else:
            state.context.rendezvous.send(state.replica, channel, data)
        return (Token(),)

    @impl(xla.RecvOp)
    def run_recv(self, interpreter: Interpreter, op: xla.RecvOp, args: tuple[Any, ...]):
        state = replica_state(interpreter)
        types = [r.type for r in op.outputs]
        channel = op.get_channel_id()
        if op.get_is_host_transfer():
            with state.context.lock:
                queue = state.context.host_to_device[channel]
                if not queue:
                    raise ReplicaError(f"{where(op)}: the host has no data for channel {channel}")
                data = queue.popleft()
            sender = "the host"
            if not isinstance(data, tuple | list):
                data = (data,)
        else:
            r, data = state.context.rendezvous.recv(state.replica, channel, where(op))
            sender = f"replica {r}"
        expected = "(" + ", ".join(str(t) for t in types) + ")"
        if len(data) != len(types):
            raise ReplicaError(
                f"{where(op)}: receives {expected} on channel {channel} but {sender} sent {describe(tuple(data))}"
            )
        try:
            values = [check_value(v, t, f"array #{i} received on channel {channel}") for i, (v, t) in enumerate(zip(data, types))]
        except ValueError as e:
            raise ReplicaError(f"{where(op)}: {e} (sent by {sender})") from None
        return (*(np.array(v, copy=True) for v in values), Token())
