# The compiler flags of every firmware build, in one place: bsp.mk includes this file and
# `ubik build` reads it (sim/crates/cli/src/build/flags.rs). Keep every line to the form
# `NAME := word word...` (no make functions, no variable references): ubik splits the value
# on white space and knows nothing else of make.

# Code generation, for C and assembly. Debian's GCC has no rv32imc_zicsr multilib: compile
# with zicsr, link with plain rv32imc so that GCC picks libgcc from its rv32im/ilp32 multilib.
FW_ARCH := -march=rv32imc_zicsr -mabi=ilp32
# The optimisation level (bsp.mk lets `make FW_OPT=...` override it).
FW_OPT_DEFAULT := -O2
# C, after FW_ARCH and the optimisation level.
FW_C_FLAGS := -g -std=c11 -ffreestanding -nostdlib -ffunction-sections -fdata-sections \
              -fno-common -Wall -Wextra -Werror=implicit-function-declaration
# Assembly, after FW_ARCH. DWARF 4, not GCC's default 5: for assembly, GNU as 2.40 writes
# a DWARF 5 unit's address ranges (.debug_rnglists) as section offsets the linker does not
# shrink when it relaxes a `call` or an `la`, so crt0's unit claimed the first bytes of the C
# function linked after it (GDB then stopped "in bsp_vector_unhandled ()" with no line). Its
# DWARF 4 ranges (.debug_ranges) and line table follow relaxation; the code is the same.
FW_AS_FLAGS := -gdwarf-4
# The link, before the linker script.
FW_LD_ARCH_FLAGS := -march=rv32imc -mabi=ilp32 -nostartfiles -nostdlib
# bsp/src/string.c, added to its C flags: GCC would turn the loops of memcpy/memset back into
# calls to themselves.
FW_STRING_C_FLAGS := -fno-tree-loop-distribute-patterns
