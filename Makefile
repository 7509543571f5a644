# Ubik: the kernel and the testbed. Entry points:
#   make demo       install what is missing, build, run a reduced SimBed comparison (Ubik's
#                   schedulers vs NOS, experiments/demo.toml), print its table and the report
#   make test       rustfmt and clippy checks, clang-format's check of the C sources
#                   (make format-check), C built with -Werror
#                   + simulator unit tests + every firmware test on the testbed
#                   + the tree's structural rules (tests/layout/check.sh)
#                   + the RTL differential timing suite (tests/rtl/check.sh)
#                   + the RTM's Verilog against the testbed's model (tests/rtm/check.sh)
#                   + host unit tests of kernel logic + on-target kernel tests, natively
#                   and as hypervisor guests + the hypervisor's isolation and fuzz tests
#                   + the SimBed workloads checked against a host model (tests/simbed)
#                   + an experiment and its report end to end (tests/experiment)
#                   + Thread-Metric's scenarios checked under each scheduler
#                     (tests/bench/threadmetric-quick.toml)
#   make bench      testbed speed (bench/testbed.toml): out/bench/testbed.json; kernel, IPC
#                   and RTM figures (bench/{kernel,ipc,rtm}.toml): out/bench/{kernel,ipc,
#                   rtm}.json; observers' cost (bench/observe.toml): out/bench/observe.json;
#                   Thread-Metric (bench/threadmetric.toml): out/bench/threadmetric.json;
#                   Rhealstone by GPIO edges (bench/rhealstone.toml): out/bench/rhealstone.json;
#                   MiBench-like OS overhead (bench/overhead.toml): out/bench/overhead.json;
#                   the hypervisor experiment (bench/hypervisor.toml): out/bench/hypervisor.json
#                   (each run as ./ubik experiment bench/NAME.toml -o out/bench)
#   make results    rerun the experiments docs/results.md shows and regenerate its tables
#                   (scripts/results-tables.sh; about 10 minutes on 2 cores)
#   make format     rewrite the C sources as .clang-format says (scripts/format.sh)
#   make format-check  change nothing: name the C files clang-format would change (in make test)
#   make firmware   build every firmware under tests/firmware into build/firmware/
#   make sim        build sim/target/release/ubik
#   make clean      remove build/ and out/ (distclean: also the Rust build)
# Missing toolchains are installed (or named) by scripts/setup.sh. `make -j2` is safe.

SHELL  := bash
BUILD  := build
OUT    := out
CARGO  ?= $(shell command -v cargo 2>/dev/null || echo $(HOME)/.cargo/bin/cargo)
# Cargo runs its own jobs; without this it warns about make's jobserver it cannot reach.
CARGO_RUN := cd sim && MAKEFLAGS= MFLAGS= $(CARGO)
PYTHON ?= python3
UBIK   := ./ubik

# The repository's own C must build without a warning (-Wall -Wextra come from bsp/flags.mk):
# the firmware make builds, and under `make test` everything `ubik build` compiles.
FW_EXTRA_CFLAGS ?= -Werror
STRICT_C := UBIK_CFLAGS=-Werror
include bsp/bsp.mk
include tests/firmware/firmware.mk

.DEFAULT_GOAL := all
.PHONY: all setup sim firmware demo test bench results format format-check clean distclean

all: sim firmware

setup:
	@scripts/setup.sh

sim: setup
	$(CARGO_RUN) build --release

firmware: $(FW_ELFS)

# Nothing compiles before the toolchain check.
$(BSP_CRT0) $(BSP_OBJS) $(FW_OBJS): | setup

demo: sim
	$(UBIK) experiment experiments/demo.toml -o $(OUT)/demo
	@$(UBIK) report $(OUT) -o $(OUT)/report > /dev/null
	@echo "report (open in a browser): $(OUT)/report/index.html"

results: sim
	UBIK=$(abspath $(UBIK)) scripts/results-tables.sh

format:
	@scripts/setup.sh --format
	scripts/format.sh

format-check:
	@scripts/setup.sh --format
	scripts/format.sh --check

test: sim firmware
	@scripts/setup.sh --test
	scripts/format.sh --check
	$(CARGO_RUN) fmt --all --check
	$(CARGO_RUN) clippy --release --workspace --all-targets -- -D warnings
	$(CARGO_RUN) test --release --workspace
	tests/run_firmware_tests.sh
	tests/gpio/run.sh
	tests/uart/run.sh
	$(STRICT_C) tests/trace/run.sh
	$(STRICT_C) tests/trace/kevents.sh
	tests/readme/recipe.sh
	tests/readme/docs.sh
	tests/layout/check.sh
	$(STRICT_C) tests/gdb/run.sh
	tests/rtl/check.sh
	tests/rtm/check.sh
	tests/kernel/host/run.sh
	$(STRICT_C) tests/kernel/run.sh
	$(STRICT_C) tests/kernel/run.sh --guest
	$(STRICT_C) tests/hv/run.sh
	$(STRICT_C) tests/simbed/run.sh
	$(STRICT_C) tests/experiment/run.sh
	$(PYTHON) tests/bench/test_parsers.py
	$(STRICT_C) $(UBIK) experiment tests/bench/kernel-quick.toml -o $(BUILD)/bench-quick
	$(STRICT_C) $(UBIK) experiment tests/bench/ipc-quick.toml -o $(BUILD)/bench-quick
	$(STRICT_C) $(UBIK) experiment tests/bench/rtm-quick.toml -o $(BUILD)/bench-quick
	$(PYTHON) tests/bench/check_kernel_quick.py $(BUILD)/bench-quick
	$(STRICT_C) $(UBIK) experiment tests/bench/threadmetric-quick.toml -o $(BUILD)/bench-quick
	$(STRICT_C) $(UBIK) experiment tests/bench/rhealstone-quick.toml -o $(BUILD)/bench-quick
	$(STRICT_C) $(UBIK) experiment tests/bench/overhead-quick.toml -o $(BUILD)/bench-quick
	$(STRICT_C) $(UBIK) experiment tests/bench/hypervisor-quick.toml -o $(BUILD)/bench-quick

bench: sim $(FW_BUILD)/compute.elf $(FW_BUILD)/idle.elf
	@scripts/setup.sh --rtl
	@mkdir -p $(OUT)/bench
	$(UBIK) experiment bench/testbed.toml -o $(OUT)/bench
	$(UBIK) experiment bench/kernel.toml -o $(OUT)/bench
	$(UBIK) experiment bench/ipc.toml -o $(OUT)/bench
	$(UBIK) experiment bench/rtm.toml -o $(OUT)/bench
	$(UBIK) experiment bench/observe.toml -o $(OUT)/bench
	$(UBIK) experiment bench/threadmetric.toml -o $(OUT)/bench
	$(UBIK) experiment bench/rhealstone.toml -o $(OUT)/bench
	$(UBIK) experiment bench/overhead.toml -o $(OUT)/bench
	$(UBIK) experiment bench/hypervisor.toml -o $(OUT)/bench

clean:
	rm -rf $(BUILD) $(OUT)

distclean: clean
	$(CARGO_RUN) clean
