"""Conversions from one level of the lowering to the next: each module (or package) is
one pass, named after it (`convert-scf-while-to-cf` -> `convert_scf_while_to_cf.py`).
A conversion emits plain, correct IR; making it fast is the transforms' job."""
