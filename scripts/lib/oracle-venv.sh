# Sourced by scripts that use libCacheSim 0.3.5 as the oracle (conformance, speed-vs-libcachesim).
# Sets $venv to a virtualenv holding libcachesim==0.3.5, creating it if needed. Reused while it
# still imports that version.
#
# Environment: CACHELAB_ORACLE_VENV (default ${TMPDIR:-/tmp}/cachelab-oracle-venv),
# PYTHON (the interpreter that makes the venv, default python3).

venv="${CACHELAB_ORACLE_VENV:-${TMPDIR:-/tmp}/cachelab-oracle-venv}"
oracle_python="${PYTHON:-python3}"
oracle_version="0.3.5"

has_oracle() {
    [ -x "$venv/bin/python" ] &&
        "$venv/bin/python" -c "
import importlib.metadata, sys
import libcachesim
sys.exit(0 if importlib.metadata.version('libcachesim') == '$oracle_version' else 1)" >/dev/null 2>&1
}

make_oracle_venv() {
    echo "[oracle] creating $venv with libcachesim==$oracle_version" >&2
    rm -rf "$venv"
    if ! "$oracle_python" -m venv "$venv" >&2; then
        echo "[oracle] '$oracle_python -m venv' failed; on Debian: apt-get install python3-venv" >&2
        exit 2
    fi
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-input \
        "libcachesim==$oracle_version" >&2
}

if ! has_oracle; then
    mkdir -p "$(dirname "$venv")"
    # Two runs at once must not build the same venv together.
    if command -v flock >/dev/null 2>&1; then
        exec 9>"$venv.lock"
        flock 9
    fi
    has_oracle || make_oracle_venv
    if command -v flock >/dev/null 2>&1; then
        flock -u 9
    fi
fi
