"""lit configuration of our suite: `xla_opt.lit_config.configure`, the same that a
user's own suite calls (see the README, "Keep your own lit suite")."""

from xla_opt.lit_config import configure

configure(config, __file__, name="xla-opt")  # noqa: F821 - `config` is provided by lit
