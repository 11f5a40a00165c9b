"""The project's files on disk: one remembered walk of a tree, git's ignore rules, repository-relative paths."""
