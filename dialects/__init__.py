"""xla_opt.dialects"""
