from xla_opt.lit_config import configure

configure(config, __file__)  # noqa: F821 - lit provides `config`
