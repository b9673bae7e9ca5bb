#!/usr/bin/env bash
# Installs what simnpu needs to build, test and run its samples, using
# Debian's packages. Idempotent: installs only what is missing. Needs root
# (or sudo) only when something is missing.
set -euo pipefail

need=()
have_pkg() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
for pkg in g++ cmake ninja-build make libgtest-dev libgmock-dev \
           nlohmann-json3-dev python3 python3-numpy python3-matplotlib clang libclang-rt-14-dev \
           libblas-dev; do
  have_pkg "$pkg" || need+=("$pkg")
done

if [ ${#need[@]} -gt 0 ]; then
  echo "[setup] installing: ${need[*]}"
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  if ! $SUDO apt-get install -y --no-install-recommends "${need[@]}"; then
    $SUDO apt-get update
    $SUDO apt-get install -y --no-install-recommends "${need[@]}"
  fi
fi

# A python3 with numpy for the sample scripts (the default python3 on PATH
# may be a separate interpreter without it).
if ! python3 -c "import numpy" >/dev/null 2>&1 && ! /usr/bin/python3 -c "import numpy" >/dev/null 2>&1; then
  echo "[setup] error: no python3 with numpy found (tried python3 and /usr/bin/python3)" >&2
  exit 1
fi
