"""Data files shipped with hipify-guard (installed as the package hipify_guard._rules)."""
