# scripts/lib/deps.sh - install the Debian packages ftlsim needs, when missing.
# Sourced by scripts/test, scripts/demo, scripts/bench and scripts/reproduce.

# slurm-wlm and munge: tests/cli_sweep_slurm.sh runs a sweep on a one-node
# Slurm cluster it starts on this machine.
FTLSIM_PACKAGES="cmake pkg-config gcc make libglib2.0-dev zlib1g-dev libcunit1-dev libgsl-dev gnuplot-nox python3 parallel fio blktrace libfuse3-dev fuse3 e2fsprogs slurm-wlm munge"
# More packages on request, e.g. FTLSIM_EXTRA_PACKAGES="clang libclang-rt-14-dev"
# for the fuzz harnesses, chromium for tests/cli_report.sh's browser checks
# (CI sets both).
FTLSIM_PACKAGES="$FTLSIM_PACKAGES ${FTLSIM_EXTRA_PACKAGES:-}"

ftlsim_install_deps() {
    local missing=() pkg
    for pkg in $FTLSIM_PACKAGES; do
        dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" ||
            missing+=("$pkg")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    local sudo=""
    if [ "$(id -u)" -ne 0 ]; then
        if command -v sudo >/dev/null; then
            sudo="sudo"
        else
            echo "ftlsim: missing packages: ${missing[*]}; install them as root" >&2
            return 1
        fi
    fi
    echo "ftlsim: installing ${missing[*]}" >&2
    $sudo apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
        "${missing[@]}" >&2
}
