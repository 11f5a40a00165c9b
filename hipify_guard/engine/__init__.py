"""The engine: run the selected rules on one file's bytes, apply suppressions, fix and verify
(`lint`); the rule catalogue, rule selection, findings resolved to lines (`diagnostics`), the
evaluation of one expression (`evaluation`), a directive's outcome at a line
(`conditional_outcome`) and one finding's suppression comment (`suppression_comment`). No file
system here.

May import `checks` and everything below; never `project` or `cli`.
"""
