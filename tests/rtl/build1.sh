#!/bin/bash
# build1.sh SRC OUT.elf [CFLAGS...] -- build one RTL differential test program
set -e
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=$1; out=$2; shift 2
C=$here/common
riscv64-unknown-elf-gcc "$@" -march=rv32imc_zicsr_zifencei -mabi=ilp32 -mno-relax -nostartfiles \
  -nostdlib -static -I"$C" -T "$C/link.ld" -Wl,--no-relax,--no-warn-rwx-segments -o "$out" "$src" "$C/crt.S"
