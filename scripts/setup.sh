#!/bin/sh
# scripts/setup.sh — install what building and testing Tavoliere needs on Debian:
#   a C compiler (gcc, with its AddressSanitizer/UBSan runtimes), make, pkg-config;
#   tmux (the terminal-play test);
#   libwebsockets (and its libuv event-loop plugin), jansson, SQLite, libpq, libsodium
#   and libcurl (the server, `tavoliere serve`; libcurl sends its e-mail by SMTP);
#   python3-aiosmtpd (a real SMTP server on loopback for the e-mail test);
#   PostgreSQL (the postgresql package: initdb, pg_ctl and postgres under
#   /usr/lib/postgresql/*/bin, and psql): the tests run the server a second time on a
#   throwaway PostgreSQL (scripts/pg-throwaway.sh);
#   nginx-light (a reverse proxy in front of several server instances);
#   clang, lld, wasi-libc and libclang-rt-dev-wasm32 (the engine built for the browser,
#   WebAssembly: docs/wasm.md);
#   Node.js and npm (the web UI is TypeScript bundled with esbuild) and Chromium
#   (the browser tests drive /usr/bin/chromium with playwright-core);
# then the npm packages pinned in package-lock.json (`npm ci`).
# Installs only what is missing; uses sudo when not root.
set -e
cd "$(dirname "$0")/.."
need=""
command -v cc >/dev/null 2>&1 || need="$need gcc libc6-dev"
command -v make >/dev/null 2>&1 || need="$need make"
command -v pkg-config >/dev/null 2>&1 || need="$need pkg-config"
command -v tmux >/dev/null 2>&1 || need="$need tmux"
command -v node >/dev/null 2>&1 || need="$need nodejs"
command -v npm >/dev/null 2>&1 || need="$need npm"
[ -x /usr/bin/chromium ] || need="$need chromium"
command -v systemd-analyze >/dev/null 2>&1 || need="$need systemd"   # the unit's check (tests/server/operator.mjs)
for pkg in libwebsockets-dev libwebsockets-evlib-uv libjansson-dev libsqlite3-dev libsodium-dev \
    libpq-dev libcurl4-openssl-dev python3-aiosmtpd postgresql nginx-light wasi-libc libclang-rt-dev-wasm32 lld clang; do
    dpkg -s "$pkg" >/dev/null 2>&1 || need="$need $pkg"
done
if [ -n "$need" ]; then
    if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo"; fi
    echo "setup: installing$need"
    $SUDO apt-get update -qq
    # shellcheck disable=SC2086
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $need
fi
# The npm packages, exactly as the lockfile pins them (skipped when current).
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
    echo "setup: npm ci"
    npm ci --no-audit --no-fund --loglevel=error
fi
