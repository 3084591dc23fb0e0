"""Pure shape functions shared by the verifiers and type inference of the xla dialect."""
