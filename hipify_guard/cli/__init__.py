"""The `hipify-guard` command line: click commands, inputs (paths, @files, stdin), progress,
output and its formats (`formatters`). It only wires the stages below together.

The only package that imports click.
"""
