"""The C/C++/CUDA front end: bytes -> directives -> conditional groups -> `#if` condition trees
-> preprocessor values; and libclang's view of the code between directives.

May import `core` only (never the platform model or anything above).
"""
