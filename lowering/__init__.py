"""xla_opt.lowering"""
