#!/usr/bin/env bash
# cli_fuzz_smoke.sh - a short libFuzzer run of every parser harness
# (scripts/fuzz 5) when clang is installed; otherwise prints a skip line and
# exits 77, which CTest reports as skipped (SKIP_RETURN_CODE).
# Usage: bash tests/cli_fuzz_smoke.sh FTLSIM_BINARY (from the source root).
# The fuzz build lives next to the binary's build, in <build>/fuzz.
set -euo pipefail
bin=${1:?usage: cli_fuzz_smoke.sh FTLSIM_BINARY}

if ! command -v clang >/dev/null; then
    echo "cli_fuzz_smoke: SKIP: clang not installed (Debian 12: clang libclang-rt-14-dev)"
    exit 77
fi
build=$(cd "$(dirname "$bin")" && pwd)/fuzz
BUILD_DIR=$build scripts/fuzz "${FTLSIM_FUZZ_SECONDS:-5}"
