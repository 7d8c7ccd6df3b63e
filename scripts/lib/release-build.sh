# Sourced by scripts/test and scripts/bench-check: the one release build CI makes, for the tests
# and the benchmarks alike. Testable imports on (the tests' `@testable import`), assertions kept
# (`-assert-config Debug`: the engine's bounds and state checks stay on under the tests, as in a
# debug build). The benchmarks reuse the modules only when their flags are these, exactly, and
# when no `--disable-sandbox` is given (scripts/bench-check says why).
export CACHELAB_RELEASE_TESTS=1
release_flags=(-c release -Xswiftc -enable-testing -Xswiftc -assert-config -Xswiftc Debug)
