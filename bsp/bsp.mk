# Building firmware for the Ubik reference MCU: compiler flags, the BSP library
# and the link step. Included by the top-level Makefile; kernel and application
# makefiles use the same variables.
#
#   $(FW_CC) $(FW_CFLAGS) -c x.c            compile (C or assembly)
#   $(call fw_link,OUT.elf,OBJS...)         link with crt0, libbsp and libgcc
#
# The flags themselves are in bsp/flags.mk (shared with `ubik build`).

# `make V=1` shows the full commands; otherwise one short line per step.
V ?= 0
ifeq ($(V),1)
Q :=
fw_msg = @:
else
Q := @
fw_msg = @printf '  %-6s %s\n' '$(1)' '$(2)'
endif

CROSS      ?= riscv64-unknown-elf-
FW_CC      := $(CROSS)gcc
FW_AR      := $(CROSS)ar
FW_OBJDUMP := $(CROSS)objdump
FW_SIZE    := $(CROSS)size
BUILD      ?= build

BSP_DIR    := bsp
BSP_BUILD  := $(BUILD)/bsp
# The board: its directory under bsp/ (include/bsp/board.h, board_reset.h, optional src/) is
# added to the code every board shares (bsp/include, bsp/src). make builds for the machine;
# `ubik build` chooses bsp/guest for a hypervisor partition the same way.
BSP_BOARD  ?= reference
BSP_BOARD_DIR := $(BSP_DIR)/$(BSP_BOARD)
BSP_INCLUDES := -I$(BSP_BOARD_DIR)/include -I$(BSP_DIR)/include

# The flags proper live in bsp/flags.mk, which `ubik build` reads too.
include $(BSP_DIR)/flags.mk
FW_OPT     ?= $(FW_OPT_DEFAULT)
# FW_EXTRA_CFLAGS: added to every C compile (the repository's Makefile sets -Werror).
FW_CFLAGS  := $(FW_ARCH) $(FW_OPT) $(FW_C_FLAGS) $(FW_EXTRA_CFLAGS) $(BSP_INCLUDES) -MMD -MP
FW_ASFLAGS := $(FW_ARCH) $(FW_AS_FLAGS) $(BSP_INCLUDES) -MMD -MP
FW_LDFLAGS := $(FW_LD_ARCH_FLAGS) \
              -T $(BSP_DIR)/link.ld -Wl,--gc-sections -Wl,--no-warn-rwx-segments
FW_LIBS    := -lgcc

BSP_CRT0   := $(BSP_BUILD)/crt0.o
# The shared sources and the board's, in file-name order wherever they live (as `ubik build`
# links them): which directory a file is in changes no address.
BSP_SRCS   := $(wildcard $(BSP_DIR)/src/*.c $(BSP_BOARD_DIR)/src/*.c)
BSP_OBJS   := $(addprefix $(BSP_BUILD)/,$(sort $(notdir $(BSP_SRCS:.c=.o))))
BSP_LIB    := $(BSP_BUILD)/libbsp.a
BSP_LDSCRIPT := $(BSP_DIR)/link.ld

# Everything a firmware link depends on besides its own objects.
BSP_LINK_DEPS := $(BSP_CRT0) $(BSP_LIB) $(BSP_LDSCRIPT)

# $(call fw_link,OUT.elf,OBJS): crt0 first (the vector table), the BSP library
# after the program so that its weak defaults yield to the program's handlers.
fw_link = $(FW_CC) $(FW_LDFLAGS) -Wl,-Map=$(basename $(1)).map -o $(1) \
          $(BSP_CRT0) $(2) $(BSP_LIB) $(FW_LIBS)

define bsp_compile
	@mkdir -p $(@D)
	$(call fw_msg,CC,$@)
	$(Q)$(FW_CC) $(FW_CFLAGS) -c $< -o $@
endef
$(BSP_BUILD)/%.o: $(BSP_DIR)/src/%.c
	$(bsp_compile)
$(BSP_BUILD)/%.o: $(BSP_BOARD_DIR)/src/%.c
	$(bsp_compile)

# GCC would turn the loops of memcpy/memset back into calls to themselves (flags.mk).
$(BSP_BUILD)/string.o: FW_CFLAGS += $(FW_STRING_C_FLAGS)

$(BSP_CRT0): $(BSP_DIR)/crt0.S
	@mkdir -p $(@D)
	$(call fw_msg,AS,$@)
	$(Q)$(FW_CC) $(FW_ASFLAGS) -c $< -o $@

$(BSP_LIB): $(BSP_OBJS)
	@rm -f $@
	$(call fw_msg,AR,$@)
	$(Q)$(FW_AR) rcs $@ $^

# Disassembly with source, for reading what the compiler made: make build/firmware/x.lst
%.lst: %.elf
	$(call fw_msg,OBJDUMP,$@)
	$(Q)$(FW_OBJDUMP) -d -S $< > $@

-include $(BSP_OBJS:.o=.d) $(BSP_CRT0:.o=.d)
