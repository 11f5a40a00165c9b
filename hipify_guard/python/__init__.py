"""The Python front end: bytes -> `ast` syntax tree with byte offsets for every position (PEP 263
encodings, BOM, CRLF), the comments `tokenize` sees, and dotted names of expressions.

May import `core` only (never the platform model, the C/C++ front end or anything above).
"""
