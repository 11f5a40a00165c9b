"""The language server (`hipify-guard server`): findings as diagnostics while a file is open in
an editor, a finding's fix and a suppression comment as code actions, and each conditional
directive's outcome on CUDA and every ROCm model on hover. It never writes a file: the editor
applies the edits it proposes.

May import `api` (the public Python API) and the package's `__version__`, nothing else of
hipify_guard; the only package that imports pygls and lsprotocol, and `cli` imports it only
when the `server` command runs.
"""
