"""The engine: run the selected rules on one file's bytes, apply suppressions, fix and verify
(`lint`); the rule catalogue, rule selection, findings resolved to lines (`diagnostics`) and the
evaluation of one expression (`evaluation`). No file system here.

May import `checks` and everything below; never `project` or `cli`.
"""
