"""Fixes and their proofs: the rewrite forms of the HIP note, raised guards, the `auto` policy,
comment removal, and the verifier that proves a rewrite before it is written.

May import `model`, the front ends and `core`; never the rules or anything above.
"""
