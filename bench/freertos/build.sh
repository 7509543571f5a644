#!/usr/bin/env bash
# Build an application written on the Thread-Metric portability layer
# (bench/threadmetric/tm_port.h) for FreeRTOS:
#     bench/freertos/build.sh APPDIR OUT.elf
# APPDIR's *.c (and its headers, e.g. tm_config.h) + bench/freertos (the adapter: config,
# vector glue, tm_freertos.c) + FreeRTOS-Kernel from the checkout FREERTOS_KERNEL_PATH names
# (tasks.c, queue.c, list.c, heap_4.c, the GCC/RISC-V port) + the BSP (crt0, console,
# link.ld), with the compiler flags of every firmware build (bsp/flags.mk). The project
# holds only the adapter; FreeRTOS's own files are compiled from the checkout, where they
# are, without -Werror (they are not ours). Objects go to OUT.elf's directory (obj/).
# Extra C flags for the application and the adapter: TM_CFLAGS (e.g. -DTM_FREERTOS_FREE_LIST).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
here="$root/bench/freertos"
how="get FreeRTOS-Kernel V11.1.0 with: git clone -b V11.1.0 https://github.com/FreeRTOS/FreeRTOS-Kernel, then set FREERTOS_KERNEL_PATH to that directory"
die() { echo "freertos build: $*" >&2; exit 2; }

[[ $# -eq 2 ]] || die "usage: build.sh APPDIR OUT.elf"
app=$1 out=$2
[[ -d $app ]] || die "$app: not a directory"
fk=${FREERTOS_KERNEL_PATH:-}
[[ -n $fk ]] || die "FREERTOS_KERNEL_PATH is not set; $how"
for f in tasks.c queue.c list.c include/FreeRTOS.h portable/MemMang/heap_4.c \
         portable/GCC/RISC-V/port.c portable/GCC/RISC-V/portASM.S \
         portable/GCC/RISC-V/chip_specific_extensions/RISCV_MTIME_CLINT_no_extensions/freertos_risc_v_chip_specific_extensions.h; do
    [[ -f $fk/$f ]] || die "FREERTOS_KERNEL_PATH=$fk is not a FreeRTOS-Kernel checkout ($f missing); $how"
done
command -v riscv64-unknown-elf-gcc >/dev/null || die "riscv64-unknown-elf-gcc not found (run make setup)"

# The flags of bsp/flags.mk (lines NAME := words).
flag() { sed -n "s/^$1 *:= *//p" "$root/bsp/flags.mk" | tr -d '\\'; }
arch=$(flag FW_ARCH) opt=$(flag FW_OPT_DEFAULT) cflags=$(flag FW_C_FLAGS) asflags=$(flag FW_AS_FLAGS)
ldarch=$(flag FW_LD_ARCH_FLAGS) strflags=$(flag FW_STRING_C_FLAGS)
[[ -n $arch && -n $cflags ]] || die "could not read the flags from bsp/flags.mk"

obj=$(dirname "$out")/obj
rm -rf "$obj"
mkdir -p "$obj"
cc=riscv64-unknown-elf-gcc
port="$fk/portable/GCC/RISC-V"
inc=(-I"$here" -I"$here/include" -I"$fk/include" -I"$port"
     -I"$port/chip_specific_extensions/RISCV_MTIME_CLINT_no_extensions"
     -I"$root/bsp/reference/include" -I"$root/bsp/include" -I"$root/bench/threadmetric" -I"$app")
objs=()
compile() { # SRC OBJ EXTRA...
    local src=$1 o=$2
    shift 2
    # shellcheck disable=SC2086
    $cc $arch "$@" "${inc[@]}" -c "$src" -o "$o" || die "compile failed: $src"
    objs+=("$o")
}
# FreeRTOS (not ours: its own warnings are not errors here).
for f in tasks.c queue.c list.c portable/MemMang/heap_4.c portable/GCC/RISC-V/port.c; do
    # shellcheck disable=SC2086
    compile "$fk/$f" "$obj/fr_$(basename "${f%.c}").o" $opt $cflags -w
done
# shellcheck disable=SC2086
compile "$port/portASM.S" "$obj/fr_portASM.o" $asflags
# The adapter and the application (ours: UBIK_CFLAGS, e.g. -Werror from make test, applies).
# shellcheck disable=SC2086
compile "$here/vectors.S" "$obj/vectors.o" $asflags
for f in "$here/tm_freertos.c" "$app"/*.c; do
    # shellcheck disable=SC2086
    compile "$f" "$obj/app_$(basename "${f%.c}").o" $opt $cflags ${UBIK_CFLAGS:-} ${TM_CFLAGS:-}
done
# The BSP.
# shellcheck disable=SC2086
compile "$root/bsp/crt0.S" "$obj/crt0.o" $asflags
for f in "$root"/bsp/src/*.c; do
    extra=()
    [[ $(basename "$f") == string.c ]] && read -ra extra <<<"$strflags"
    # shellcheck disable=SC2086
    compile "$f" "$obj/bsp_$(basename "${f%.c}").o" $opt $cflags "${extra[@]}"
done
# crt0 first (the vector table at the reset address).
crt0="$obj/crt0.o"
rest=()
for o in "${objs[@]}"; do [[ $o == "$crt0" ]] || rest+=("$o"); done
# shellcheck disable=SC2086
$cc $ldarch -T "$root/bsp/link.ld" -Wl,--gc-sections -Wl,--no-warn-rwx-segments \
    -Wl,-Map="${out%.elf}.map" -o "$out" "$crt0" "${rest[@]}" -lgcc || die "link failed"
