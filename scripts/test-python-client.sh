#!/usr/bin/env bash
# The Python client (clients/python), as its users get it: build the wheel offline, install it into
# a fresh virtual environment (httpx and pytest come from the system's packages through
# --system-site-packages), type-check the package with mypy --strict when mypy is installed, and
# run its tests against the installed wheel from a folder where the source is not importable.
# The tests start their own Parley from this repository (npx tsx src/server.ts).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
package="$root/clients/python"
python=${PYTHON:-/usr/bin/python3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Built from a copy, so that build/ and *.egg-info never land in the repository.
cp -r "$package" "$work/source"
rm -rf "$work/source/tests"
"$python" -m build --wheel --no-isolation --outdir "$work/dist" "$work/source" >"$work/build.log" 2>&1 ||
  { cat "$work/build.log"; exit 1; }
echo "built $(basename "$work"/dist/*.whl)"

if command -v mypy >/dev/null; then
  mypy --strict --config-file "$package/pyproject.toml" --cache-dir "$work/mypy-cache" "$package/src/parley"
else
  echo "mypy is not installed: the strict type check is skipped"
fi

"$python" -m venv --system-site-packages "$work/venv"
"$work/venv/bin/pip" install --quiet --no-index --no-deps "$work"/dist/*.whl
cd "$work"
PARLEY_CLIENT_INSTALLED=1 "$work/venv/bin/python" -m pytest -p no:cacheprovider "$package/tests" "$@"
