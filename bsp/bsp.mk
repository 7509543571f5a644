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

# The flags proper live in bsp/flags.mk, which `ubik build` reads too.
include $(BSP_DIR)/flags.mk
FW_OPT     ?= $(FW_OPT_DEFAULT)
# FW_EXTRA_CFLAGS: added to every C compile (the repository's Makefile sets -Werror).
FW_CFLAGS  := $(FW_ARCH) $(FW_OPT) $(FW_C_FLAGS) $(FW_EXTRA_CFLAGS) -I$(BSP_DIR)/include -MMD -MP
FW_ASFLAGS := $(FW_ARCH) $(FW_AS_FLAGS) -I$(BSP_DIR)/include -MMD -MP
FW_LDFLAGS := $(FW_LD_ARCH_FLAGS) \
              -T $(BSP_DIR)/link.ld -Wl,--gc-sections -Wl,--no-warn-rwx-segments
FW_LIBS    := -lgcc

BSP_CRT0   := $(BSP_BUILD)/crt0.o
BSP_OBJS   := $(patsubst $(BSP_DIR)/src/%.c,$(BSP_BUILD)/%.o,$(wildcard $(BSP_DIR)/src/*.c))
BSP_LIB    := $(BSP_BUILD)/libbsp.a
BSP_LDSCRIPT := $(BSP_DIR)/link.ld

# Everything a firmware link depends on besides its own objects.
BSP_LINK_DEPS := $(BSP_CRT0) $(BSP_LIB) $(BSP_LDSCRIPT)

# $(call fw_link,OUT.elf,OBJS): crt0 first (the vector table), the BSP library
# after the program so that its weak defaults yield to the program's handlers.
fw_link = $(FW_CC) $(FW_LDFLAGS) -Wl,-Map=$(basename $(1)).map -o $(1) \
          $(BSP_CRT0) $(2) $(BSP_LIB) $(FW_LIBS)

$(BSP_BUILD)/%.o: $(BSP_DIR)/src/%.c
	@mkdir -p $(@D)
	$(call fw_msg,CC,$@)
	$(Q)$(FW_CC) $(FW_CFLAGS) -c $< -o $@

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
