#!/bin/sh
# scripts/setup.sh — install what building and testing Tavoliere needs on Debian:
# a C compiler (gcc, with its AddressSanitizer/UBSan runtimes), make, and tmux
# (the terminal-play test).  Does nothing when all are present.
set -e
need=""
command -v cc >/dev/null 2>&1 || need="$need gcc libc6-dev"
command -v make >/dev/null 2>&1 || need="$need make"
command -v tmux >/dev/null 2>&1 || need="$need tmux"
[ -z "$need" ] && exit 0
if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo"; fi
echo "setup: installing$need"
$SUDO apt-get update -qq
# shellcheck disable=SC2086
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $need
