"""What a project's build files say about its platforms: CMake, setup.py, build.toml, .bzl lists and
compilation databases read for the macros each build defines and the sources only one platform compiles."""
