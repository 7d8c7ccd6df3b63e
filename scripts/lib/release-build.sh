# Sourced by scripts/test and scripts/bench-check: the one release build CI makes, for the tests
# and the benchmarks alike. CACHELAB_RELEASE_TESTS gives this package's modules testable imports
# and keeps their assertions, and compiles the tests unoptimized (Package.swift); the flags below
# are the rest. Every `swift` command on that build passes them: the benchmarks reuse its modules
# only when their flags are these, exactly, and when no `--disable-sandbox` is given
# (scripts/bench-check says why).
export CACHELAB_RELEASE_TESTS=1
release_flags=(-c release)
