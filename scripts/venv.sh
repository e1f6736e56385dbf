# Run by ./run.sh and ./test.sh: make sure .venv exists and holds the project.
# Usage: sh scripts/venv.sh [EXTRAS]   (EXTRAS e.g. "test")
set -eu
extras="${1:-}"
py="${PYTHON:-python3}"

if ! command -v "$py" >/dev/null 2>&1; then
    echo "carolus: $py not found; install Python 3.11 or newer (Debian: sudo apt-get install python3)" >&2
    exit 1
fi
if ! "$py" -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
    echo "carolus: Python 3.11 or newer is needed, found $("$py" --version 2>&1)" >&2
    exit 1
fi
if [ ! -x .venv/bin/python ]; then
    if ! "$py" -c 'import ensurepip, venv' >/dev/null 2>&1; then
        echo "carolus: Python's venv module is missing; installing python3-venv (Debian/Raspberry Pi OS)..." >&2
        if command -v apt-get >/dev/null 2>&1; then
            if [ "$(id -u)" = 0 ]; then apt-get install -y python3-venv; else sudo apt-get install -y python3-venv; fi
        else
            echo "carolus: install your system's python3-venv package, then run this again" >&2
            exit 1
        fi
    fi
    echo "carolus: creating .venv ..." >&2
    # On a Pi, picamera2 comes from apt: let the venv see the system's packages.
    if [ -e /usr/lib/python3/dist-packages/picamera2 ]; then
        "$py" -m venv --system-site-packages .venv
    else
        "$py" -m venv .venv
    fi
fi
spec="."
[ -n "$extras" ] && spec=".[$extras]"
# The test suite runs under the versions its fitted data was made with.
constraints=""
if [ "$extras" = test ]; then constraints="scripts/test-constraints.txt"; fi
stamp=".venv/.carolus-installed-$(echo "$extras" | tr -c 'a-z' '_')"
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ] \
   || { [ -n "$constraints" ] && [ "$constraints" -nt "$stamp" ]; }; then
    echo "carolus: installing $spec into .venv (first run takes a minute) ..." >&2
    log=.venv/pip-install.log
    if ! { .venv/bin/python -m pip install --disable-pip-version-check --upgrade pip \
           && .venv/bin/python -m pip install --disable-pip-version-check \
                ${constraints:+-c "$constraints"} -e "$spec"; } >"$log" 2>&1; then
        tail -n 30 "$log" >&2
        echo "carolus: installing the project failed; the full log is in $log" >&2
        exit 1
    fi
    touch "$stamp"
fi
