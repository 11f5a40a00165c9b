"""The vocabulary every stage shares: bytes read from disk, line positions, findings and their
edits, suppression comments, the byte prefilter and the package's data files.

Imports nothing else of hipify_guard.
"""
