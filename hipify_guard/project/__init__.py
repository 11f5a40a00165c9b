"""The workspace: which files to check and under what configuration (discovery, config, build scope,
the platform profile assembled from `buildfiles`), the results cache, jobs and their execution,
atomic writes, baselines.

May import `buildfiles`, `engine` and everything below; never `cli` or `server`, and never click.
"""
