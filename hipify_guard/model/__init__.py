"""The platform model: what each build sees. CUDA and ROCm platforms and their macros, version
scales, reachability of groups, builds and their -D flags, the CUDA -> HIP mapping table, the APIs
a branch uses, and one file's analysis (`analysis.FileAnalysis`) that the rules read.

May import the front ends (`cpp`) and `core`.
"""
