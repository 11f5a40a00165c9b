"""The project: files and folders (discovery, ignore files), configuration, compile databases
and build scope, the results cache, jobs and their execution, atomic writes, baselines.

May import `engine` and everything below; never `cli` or `server`, and never click.
"""
