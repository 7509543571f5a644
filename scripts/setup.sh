#!/usr/bin/env bash
# Checks for the tools Ubik needs and installs what is missing:
#   - the Debian packages gcc-riscv64-unknown-elf (GCC, binutils, libgcc) and
#     picolibc-riscv64-unknown-elf (the C library an application links with `[build] libc =
#     "picolibc"`, docs/system.md; the kernel, the BSP and every other firmware stay
#     freestanding and -nostdlib, bsp/flags.mk), and python3 (apt-get as root; otherwise
#     prints the exact command to run and exits 1);
#   - a Rust toolchain (cargo on PATH or in ~/.cargo/bin; installed through rustup
#     when rustup is there, otherwise prints how to get it and exits 1);
#   - with --rtl (make bench): also iverilog and yosys, which simulate and synthesise the RTM's
#     Verilog (hw/rtm);
#   - with --format (make format, make format-check): also clang-format, which formats and
#     checks the C sources (scripts/format.sh, .clang-format);
#   - with --test (make test): iverilog, yosys and clang-format, chromium, which renders the
#     HTML report in a test, gdb-multiarch, which drives the GDB server in a test, and
#     cargo's rustfmt and clippy (added through rustup), which check the Rust sources.
# Idempotent, silent when everything is present, never asks questions (CI=true,
# no terminal). Messages go to stderr.
set -euo pipefail

DEB_PACKAGES=(gcc-riscv64-unknown-elf picolibc-riscv64-unknown-elf)
[[ ${1:-} == --test || ${1:-} == --rtl ]] && DEB_PACKAGES+=(iverilog yosys)
[[ ${1:-} == --test || ${1:-} == --format ]] && DEB_PACKAGES+=(clang-format)
[[ ${1:-} == --test ]] && DEB_PACKAGES+=(chromium gdb-multiarch)
status=0

say() { echo "setup: $*" >&2; }

# ---- Debian packages ---------------------------------------------------------------

deb_installed() {
    dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'
}

missing=()
if command -v dpkg-query >/dev/null 2>&1; then
    for pkg in "${DEB_PACKAGES[@]}"; do
        deb_installed "$pkg" || missing+=("$pkg")
    done
    command -v python3 >/dev/null 2>&1 || missing+=(python3)
else
    # Not a Debian system: all we can do is look for the tools themselves.
    if ! command -v riscv64-unknown-elf-gcc >/dev/null 2>&1; then
        say "riscv64-unknown-elf-gcc not found: install a RISC-V GCC cross compiler (Debian: ${DEB_PACKAGES[*]})"
        status=1
    fi
    if ! command -v python3 >/dev/null 2>&1; then
        say "python3 not found: install Python 3"
        status=1
    fi
fi

if ((${#missing[@]} > 0)); then
    if [[ $(id -u) -eq 0 ]]; then
        export DEBIAN_FRONTEND=noninteractive
        say "installing ${missing[*]}"
        apt_install() {
            apt-get install -y -q --no-install-recommends "${missing[@]}" </dev/null >&2
        }
        if ! apt_install; then
            say "apt-get install failed; updating the package lists and retrying"
            apt-get update -q </dev/null >&2
            if ! apt_install; then
                say "could not install ${missing[*]}"
                exit 1
            fi
        fi
    else
        say "missing Debian packages: ${missing[*]}; run:"
        echo "sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
        exit 1
    fi
fi

# ---- Rust toolchain ------------------------------------------------------------------

find_tool() {  # prints the path of $1 on PATH or in ~/.cargo/bin
    if command -v "$1" 2>/dev/null; then
        return 0
    elif [[ -x "$HOME/.cargo/bin/$1" ]]; then
        echo "$HOME/.cargo/bin/$1"
    else
        return 1
    fi
}

cargo=$(find_tool cargo || true)
if [[ -z "$cargo" ]] || ! "$cargo" --version >/dev/null 2>&1; then
    rustup=$(find_tool rustup || true)
    if [[ -n "$rustup" ]]; then
        say "no working cargo; installing the stable Rust toolchain with $rustup"
        "$rustup" toolchain install stable --profile minimal -c rustfmt -c clippy </dev/null >&2
        "$rustup" default stable </dev/null >&2
        cargo=$(find_tool cargo || true)
    else
        say "no Rust toolchain (cargo) found; install one with:"
        echo "curl --proto '=https' --tlsv1.2 -sSf https://sh.rustup.rs | sh -s -- -y --profile minimal" >&2
        status=1
    fi
fi

# make test runs `cargo fmt --check` and `cargo clippy -D warnings`.
if [[ ${1:-} == --test && -n "$cargo" ]]; then
    for component in rustfmt clippy; do
        sub=${component/rustfmt/fmt}
        "$cargo" "$sub" --version >/dev/null 2>&1 && continue
        rustup=$(find_tool rustup || true)
        if [[ -n "$rustup" ]]; then
            say "adding the Rust component $component with $rustup"
            "$rustup" component add "$component" </dev/null >&2
        else
            say "cargo $sub not found; install the Rust component $component (rustup component add $component)"
            status=1
        fi
    done
fi

exit "$status"
