"""convert-xla-to-stablehlo: after_all; infeed, outfeed, send and recv have no
single-device equivalent."""

from __future__ import annotations

from xla_opt.dialects import xla

from .common import Patterns, Unsupported, renamed

PATTERNS = Patterns()

PATTERNS.append(renamed({xla.AfterAllOp: "after_all"}))
PATTERNS.append(
    Unsupported(
        {
            xla.InfeedOp.name: "reads the host's infeed queue",
            xla.OutfeedOp.name: "writes the host's outfeed queue",
            xla.SendOp.name: "communicates over a channel",
            xla.RecvOp.name: "communicates over a channel",
        }
    )
)
