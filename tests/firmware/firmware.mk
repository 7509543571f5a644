# Firmware tests and testbed benchmarks: every tests/firmware/NAME.c or NAME.S
# becomes $(BUILD)/firmware/NAME.elf. Included by the top-level Makefile after
# bsp/bsp.mk.
#
# Per-firmware flags: NAME_CFLAGS := -DFOO=1
# Variants (the same source built with other flags):
#   FW_VARIANTS += NEW_NAME
#   NEW_NAME_SRC := source.c
#   NEW_NAME_CFLAGS := -DFOO=2
# The test runner (tests/run_firmware_tests.sh) runs every NAME.expect here.

FW_DIR   := tests/firmware
FW_BUILD := $(BUILD)/firmware
FW_OBJ   := $(FW_BUILD)/obj

FW_SRCS  := $(wildcard $(FW_DIR)/*.c $(FW_DIR)/*.S)
FW_NAMES := $(basename $(notdir $(FW_SRCS)))

# Benchmarks built small for `make test`.
FW_VARIANTS += compute_small idle_short
compute_small_SRC    := compute.c
compute_small_CFLAGS := -DCOMPUTE_ROUNDS=2
idle_short_SRC       := idle.c
idle_short_CFLAGS    := -DIDLE_MS=20

# TIMER.MTIME_HZ on three timebases (each variant has its NAME.machine.toml).
FW_VARIANTS += timer_hz_32k timer_hz_cycle
timer_hz_32k_SRC      := timer_hz.c
timer_hz_32k_CFLAGS   := -DEXPECT_HZ=32768
timer_hz_cycle_SRC    := timer_hz.c
timer_hz_cycle_CFLAGS := -DEXPECT_CYCLE=1

FW_ALL   := $(FW_NAMES) $(FW_VARIANTS)
FW_ELFS  := $(patsubst %,$(FW_BUILD)/%.elf,$(FW_ALL))
FW_OBJS  := $(patsubst %,$(FW_OBJ)/%.o,$(FW_ALL))

$(FW_OBJ)/%.o: $(FW_DIR)/%.c
	@mkdir -p $(@D)
	$(call fw_msg,CC,$@)
	$(Q)$(FW_CC) $(FW_CFLAGS) -I$(FW_DIR) $($*_CFLAGS) -c $< -o $@

$(FW_OBJ)/%.o: $(FW_DIR)/%.S
	@mkdir -p $(@D)
	$(call fw_msg,AS,$@)
	$(Q)$(FW_CC) $(FW_ASFLAGS) -I$(FW_DIR) $($*_CFLAGS) -c $< -o $@

define fw_variant_rule
$(FW_OBJ)/$(1).o: $(FW_DIR)/$($(1)_SRC)
	@mkdir -p $$(@D)
	$$(call fw_msg,CC,$$@)
	$$(Q)$$(FW_CC) $$(if $$(filter %.S,$$<),$$(FW_ASFLAGS),$$(FW_CFLAGS)) -I$(FW_DIR) \
	    $$($(basename $($(1)_SRC))_CFLAGS) $$($(1)_CFLAGS) -c $$< -o $$@
endef
$(foreach v,$(FW_VARIANTS),$(eval $(call fw_variant_rule,$(v))))

$(FW_BUILD)/%.elf: $(FW_OBJ)/%.o $(BSP_LINK_DEPS)
	$(call fw_msg,LD,$@)
	$(Q)$(call fw_link,$@,$<)

-include $(FW_OBJS:.o=.d)
