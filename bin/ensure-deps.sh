#!/usr/bin/env bash
# Installs what `npm start` (ensure-deps.sh start) or `npm test` and `npm run bench` (ensure-deps.sh test) need
# and a fresh Debian 12 machine lacks, then builds the wasm cores and the command line. Quiet
# when all is there.
set -euo pipefail
cd "$(dirname "$0")/.."
mode="${1:-start}"

debs=(make gcc libc6-dev emscripten)
# test: the browser, the real exfatprogs, e2fsprogs, dosfstools and f2fs-tools to compare the inspectors with, clang for libFuzzer
[ "$mode" = test ] && debs+=(chromium fonts-dejavu-core exfatprogs e2fsprogs dosfstools f2fs-tools clang-14 libclang-rt-14-dev)
missing=()
for p in "${debs[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
  echo "fslab: installing Debian packages: ${missing[*]}" >&2
  sudo=""; [ "$(id -u)" = 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# npm packages: install when node_modules is missing or older than the lock file
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "fslab: installing npm packages" >&2
  npm ci --no-audit --no-fund --loglevel=error
fi

# the wasm cores, one emcc per core at once (nothing else runs yet: 16.5 s to 11 s on 2 cores)
make -s -j"$(nproc)" -C wasm wasm >/dev/null
# the fslab command line, compiled ahead of time (bin/dist/) when a source is newer
node bin/build-cli.mjs --if-stale
