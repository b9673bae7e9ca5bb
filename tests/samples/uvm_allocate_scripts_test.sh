#!/usr/bin/env bash
# Runs uvm_allocate_scripts_test.py with a python3 that has numpy (python3 if
# it has numpy, else /usr/bin/python3, as the sample's run.sh picks it).
# usage: uvm_allocate_scripts_test.sh SAMPLE_SRC WORK
set -uo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
for py in python3 /usr/bin/python3; do
  if command -v "$py" >/dev/null 2>&1 && "$py" -c "import numpy" >/dev/null 2>&1; then
    exec "$py" "$HERE/uvm_allocate_scripts_test.py" "$@"
  fi
done
echo "SKIP: no python3 with numpy"
exit 77
