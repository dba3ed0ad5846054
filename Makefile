# xdptc: native XDP vs TC ingress drop cost, measured.
#
#   make            build build/xdptc (BPF objects, skeletons, loader)
#   make plugin     the icount engine's instruction-counting qemu plugin (root once: it
#                   fetches qemu's source header into the cache; the run-* targets,
#                   matrix and test build it)
#   make run-veth   the main job: tc vs xdpdrv on a veth pair (root; installs deps)
#   make run-virtio the same in a qemu guest's virtio-net NIC (root; installs deps)
#   make matrix     XDP against TC on a list of Debian guest kernels, icount engine
#                   (KERNELS=6.1,6.18; JOBS=2; REPEAT=3; SEED; MODES, PACKETS, REPS,
#                   COUNT_REPS, OUT)
#   make check      build + the docs' numbers (build/tools/claims) + the tests that need no
#                   root (unit tests, examples, schema)
#   make test       unit + integration tests (root; installs deps)
#   make cleanup    remove anything a killed run left behind
#   make repeatability  RUNS default veth runs back to back: does each land inside the
#                   previous run's next-run interval (a benchmark, not a test)
#   make fuzz       libFuzzer targets (clang, ASan+UBSan), FUZZ_SECONDS each (default 60)
#
# Variables for run-veth, run-virtio, run-dev and sweep-veth (README.md has the table, made by
# `build/xdptc help --make-vars`): AA=1 (an A/A arm), FLAME=0, SENDER (udp|packet|xdp-live),
# MAXRATE=1 (rate search), THREADED=1 (threaded NAPI on veth), NAPI_CPU (its CPU, or
# sender), PACKETS (per trial), REPS (timing pass),
# COUNT_REPS (count and BPF-statistics passes), COUNTERS (backends to try), MODES (comma list),
# WARMUP (packets before each window), RATE (sender pace, pps), GUEST_KERNEL (a Debian
# kernel version: 6.1, 6.12, 6.18, 7.3, ...; virtio and icount), ENGINE (host, or icount: instructions per packet inside a
# qemu -icount guest), PMU_EVENTS (perf events counted by perf stat, default
# cycles,instructions), for run-dev WINDOW (seconds per trial), RATE_TOLERANCE (percent),
# ALLOW_DEFAULT_ROUTE_DEV=1, and on the command line only: CPU (sender CPU), PORT, OUT
# (results parent directory), DEV and NETNS (run-dev's device and its namespace);
# sweep-veth also SWEEP (size or sender, default sender).

CC      ?= gcc
CLANG   ?= clang
BPFTOOL ?= bpftool
ARCH    := $(shell uname -m | sed 's/x86_64/x86/; s/aarch64/arm64/')
BUILD   := build

CFLAGS  ?= -O2 -g
# -Wno-format-truncation: snprintf's truncation into fixed buffers is the intended,
# bounded behaviour wherever it is used; gcc's guesses about it are noise.
# -Wno-missing-field-initializers: the option tables (cli_table.h) give each option the
# fields it has; C zeroes the rest, which is what they mean.
CFLAGS  += -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -Wno-format-truncation \
	-Wno-missing-field-initializers
CPPFLAGS += -I$(BUILD) -Ibpf -Iprobes -Iloader -Ianalysis -Irun -Icmd
LIBS    := $(shell pkg-config --libs libbpf 2>/dev/null || echo -lbpf -lelf -lz) -ljansson -lm
BPF_CFLAGS := -O2 -g -Wall -Werror -target bpf -D__TARGET_ARCH_$(ARCH) \
	-I/usr/include/$(shell uname -m)-linux-gnu -I$(BUILD) -Ibpf -Iprobes

BPF_PROGS := bpf/xdp_drop bpf/tc_drop bpf/netkit_drop bpf/xdp_tx probes/skb_counters probes/napi_delay \
	probes/rx_time
SKELS     := $(patsubst %,$(BUILD)/%.skel.h,$(notdir $(BPF_PROGS)))
# the layers, each including only those before it: bpf/ (the programs), probes/ (the
# counters' user side), loader/ (attach, DUT, trials, senders), analysis/ (statistics,
# summary, plots), run/ (the run driver, the matrix, the topologies), cmd/ (the commands,
# the CLI); tests/unit/test_layers.c
LOADER_SRC := $(filter-out %.bpf.c,$(wildcard probes/*.c)) $(wildcard loader/*.c) \
	$(wildcard analysis/*.c) $(wildcard run/*.c) $(wildcard cmd/*.c)
LIB_SRC   := $(filter-out cmd/xdptc.c,$(LOADER_SRC))
LIB_OBJ   := $(patsubst %.c,$(BUILD)/obj/%.o,$(LIB_SRC))
UNIT_TESTS := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(wildcard tests/unit/test_*.c))
INTEG_TESTS := $(patsubst tests/integration/%.c,$(BUILD)/tests/%,$(wildcard tests/integration/test_*.c))

# A run setting counts when given on the command line (make run-veth REPS=9) or, for the
# xdptc-specific names, in the environment; generic names (CPU, PORT, OUT) are taken from
# the command line only, so a shell's unrelated $PORT or $OUT never leaks into a run.
cmdline = $(if $(filter command line,$(origin $(1))),$($(1)))
RUN_ARGS = $(strip $(if $(PACKETS),--packets $(PACKETS)) $(if $(REPS),--reps $(REPS)) \
	$(if $(COUNT_REPS),--count-reps $(COUNT_REPS)) $(if $(COUNTERS),--counters $(COUNTERS)) \
	$(if $(filter 0,$(FLAME)),--no-flame) $(if $(filter 1,$(AA)),--aa) \
	$(if $(SENDER),--sender $(SENDER)) $(if $(filter 1,$(MAXRATE)),--find-max-rate) \
	$(if $(filter 1,$(THREADED)),--threaded-napi) $(if $(NAPI_CPU),--napi-cpu $(NAPI_CPU)) \
	$(if $(ENGINE),--engine $(ENGINE)) $(if $(PMU_EVENTS),--pmu-events $(PMU_EVENTS)) \
	$(if $(MODES),--modes $(MODES)) $(if $(WARMUP),--warmup $(WARMUP)) \
	$(if $(RATE),--rate $(RATE)) $(if $(GUEST_KERNEL),--guest-kernel $(GUEST_KERNEL)) \
	$(if $(SCHEDULE),--schedule $(SCHEDULE)) $(if $(WINDOW_MS),--window-ms $(WINDOW_MS)) \
	$(if $(TIMING_BUDGET),--timing-budget $(TIMING_BUDGET)) $(if $(TARGET),--target $(TARGET)) \
	$(if $(SEGMENTS),--segments $(SEGMENTS)) \
	$(if $(WINDOWS_PER_ATTACH),--windows-per-attach $(WINDOWS_PER_ATTACH)) \
	$(if $(WINDOW),--window $(WINDOW)) $(if $(RATE_TOLERANCE),--rate-tolerance $(RATE_TOLERANCE)) \
	$(if $(filter 1,$(ALLOW_DEFAULT_ROUTE_DEV)),--allow-default-route-dev) \
	$(if $(call cmdline,DEV),--dev $(DEV)) $(if $(call cmdline,NETNS),--netns $(NETNS)) \
	$(if $(call cmdline,CPU),--cpu $(CPU)) $(if $(call cmdline,PORT),--port $(PORT)) \
	$(if $(call cmdline,OUT),--out $(OUT)))

MATRIX_ARGS = $(strip $(if $(KERNELS),--kernels $(KERNELS)) $(if $(JOBS),--jobs $(JOBS)) \
	$(if $(MODES),--modes $(MODES)) $(if $(PACKETS),--packets $(PACKETS)) \
	$(if $(REPS),--reps $(REPS)) $(if $(COUNT_REPS),--count-reps $(COUNT_REPS)) \
	$(if $(REPEAT),--repeat $(REPEAT)) $(if $(SEED),--seed $(SEED)) \
	$(if $(call cmdline,OUT),--out $(OUT)))

# AA, FLAME, MAXRATE, THREADED and ALLOW_DEFAULT_ROUTE_DEV are switches, 1 or 0: any other value (AA=yes) is a
# mistake, not "off", and stops make before anything runs
SWITCHES := AA FLAME MAXRATE THREADED ALLOW_DEFAULT_ROUTE_DEV
RUN_SWITCH_CHECK = $(foreach v,$(SWITCHES),$(if $(filter-out 0 1,$($(v))),$(error $(v)=$($(v)): \
	the switch $(v) is 1 (on) or 0 (off))))

.DEFAULT_GOAL := all

switches:
	@:$(RUN_SWITCH_CHECK)

.PHONY: switches all plugin FORCE deps docs sweep-veth matrix repeatability check test unit-test integration-test fuzz cleanup clean
.DELETE_ON_ERROR:
.SECONDARY:

all: $(BUILD)/xdptc $(BUILD)/xdptc.8 $(BUILD)/tools/claims

# Install missing Debian packages (idempotent; a no-op when everything is present).
deps:
	@sh scripts/install-deps.sh

$(BUILD)/vmlinux.h:
	@mkdir -p $(BUILD)
	$(BPFTOOL) btf dump file /sys/kernel/btf/vmlinux format c > $@

$(BUILD)/%.bpf.o: bpf/%.bpf.c bpf/*.h | $(BUILD)/vmlinux.h
	$(CLANG) $(BPF_CFLAGS) -c $< -o $@

$(BUILD)/%.bpf.o: probes/%.bpf.c probes/*.h $(BUILD)/vmlinux.h
	$(CLANG) $(BPF_CFLAGS) -c $< -o $@

$(BUILD)/%.skel.h: $(BUILD)/%.bpf.o
	$(BPFTOOL) gen skeleton $< > $@

$(BUILD)/obj/%.o: %.c $(SKELS) $(wildcard loader/*.h probes/*.h analysis/*.h run/*.h cmd/*.h bpf/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

$(BUILD)/xdptc: $(BUILD)/obj/cmd/xdptc.o $(LIB_OBJ)
	$(CC) $(CFLAGS) $^ $(LIBS) -o $@

# The repository's tools (tools/), not part of xdptc: tools/claims checks every number of
# the docs against its committed source (make check runs it), linked with the one
# product object it needs (analysis/stats.o). Nothing of the product includes them.
CLAIMS_OBJ := $(patsubst %.c,$(BUILD)/obj/%.o,$(filter-out %_main.c,$(wildcard tools/claims/*.c)))

$(BUILD)/obj/tools/claims/%.o: tools/claims/%.c tools/claims/*.h analysis/stats.h
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -Itools/claims $(CFLAGS) -c $< -o $@

$(BUILD)/tools/claims: $(BUILD)/obj/tools/claims/claims_main.o $(CLAIMS_OBJ) $(BUILD)/obj/analysis/stats.o
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $^ -ljansson -lm -o $@

$(BUILD)/tests/test_claims: private CPPFLAGS += -Itools/claims
$(BUILD)/tests/test_claims: $(CLAIMS_OBJ)

# the manual page, from the commands' option tables (cmd/cmd_*.c): man -l build/xdptc.8
$(BUILD)/xdptc.8: $(BUILD)/xdptc
	$(BUILD)/xdptc help --man > $@

# The icount engine's instruction-counting qemu plugin (plugins/insn_count.c), built
# against qemu-plugin.h of the Debian source of the installed qemu, which
# scripts/qemu-plugin-header.sh fetches into the cache once (root, network); the version
# it was built for is kept beside it, and virtio.sh refuses a plugin of another version.
# (run-veth, run-virtio and sweep-veth build it only for ENGINE=icount: the host engine
# needs no qemu source.) A stamp of the installed qemu's version, rewritten only when it
# changes, rebuilds the plugin after a qemu upgrade.
ICOUNT_PLUGIN = $(if $(filter icount,$(ENGINE)),plugin)
plugin: $(BUILD)/insn_count.so

$(BUILD)/qemu-version.stamp: FORCE
	@mkdir -p $(BUILD)
	@v=$$(dpkg-query -W -f='$${source:Version}' qemu-system-x86 2>/dev/null || echo none); \
	[ "$$(cat $@ 2>/dev/null)" = "$$v" ] || echo "$$v" > $@

FORCE:

$(BUILD)/insn_count.so: plugins/insn_count.c scripts/qemu-plugin-header.sh $(BUILD)/qemu-version.stamp
	@mkdir -p $(BUILD)
	@hdr=$$(sh scripts/qemu-plugin-header.sh) && \
	echo "$(CC) -shared -fPIC -I$$hdr $< -o $@" && \
	$(CC) -O2 -g -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -shared -fPIC -I"$$hdr" \
		$< -o $@ -lpthread && cp "$$hdr/version" $(BUILD)/insn_count.version

$(BUILD)/tests/%: tests/unit/%.c $(LIB_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $^ $(LIBS) -lcmocka -o $@

$(BUILD)/tests/%: tests/integration/%.c tests/integration/*.h $(LIB_OBJ) $(BUILD)/xdptc
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $< $(LIB_OBJ) $(LIBS) -lcmocka -o $@

# what a run needs built first (with the plugin $(1) where the run needs one), said when
# there is nothing built yet
define build_first
	@test -x $(BUILD)/xdptc || echo "make: building $(BUILD)/xdptc first (BPF objects, skeletons, the loader; about 15 s)" >&2
	@$(MAKE) --no-print-directory -s all $(1)
endef

# make run-NAME: a run on topology NAME (run-veth, run-virtio: every topology of
# run/topology.h's list; xdptc refuses a name that is none)
run-%: switches deps
	$(call build_first,$(ICOUNT_PLUGIN))
	$(strip $(BUILD)/xdptc run --topology $* $(RUN_ARGS))

# A benchmark, not a test: RUNS (default 10) default veth runs back to back (any run
# setting passed on), each run's wall time and the machine's load before it in
# wall-time.txt, then `xdptc repeatability`: how often each run's xdpdrv figure lies
# inside the previous run's next-run interval (and within-run interval), into
# results/STAMP-repeatability/ (summary.md, repeatability.json, runs/). On a machine
# others measure on too, each run waits for the run lock (flock on XDPTC_RUN_LOCK, handed
# to the run as `xdptc matrix` hands it: --held-lock) instead of failing; the wait is not
# in the run's wall time.
RUNS ?= 10
RUN_LOCK := /run/lock/xdptc-run.lock
repeatability: switches deps
	$(call build_first,$(ICOUNT_PLUGIN))
	@d=$(or $(call cmdline,OUT),results)/$$(date -u +%Y%m%dT%H%M%SZ)-repeatability; \
	mkdir -p $$d/runs /run/lock || exit 1; \
	for i in $$(seq 1 $(RUNS)); do \
		( flock -x 9 || exit 1; \
		echo "run $$i: load before: $$(cat /proc/loadavg)" >> $$d/wall-time.txt; \
		s=$$(date +%s%N); \
		$(BUILD)/xdptc run --topology veth $(RUN_ARGS) --out $$d/runs --held-lock 9 || exit 1; \
		echo "run $$i: $$(( ($$(date +%s%N) - s) / 1000000 )) ms of wall time" >> $$d/wall-time.txt \
		) 9>>$(RUN_LOCK) || exit 1; \
	done; \
	$(BUILD)/xdptc repeatability --out $$d $$(ls -d $$d/runs/*/ | sed 's,/$$,,')

# the icount engine's comparison on each of KERNELS (default one per series), side by side
matrix: deps
	$(call build_first,plugin)
	$(strip $(BUILD)/xdptc matrix $(MATRIX_ARGS))

# SWEEP=size or sender (default sender): a series of runs, side by side
sweep-veth: switches deps
	$(call build_first,$(ICOUNT_PLUGIN))
	$(strip $(BUILD)/xdptc sweep --over $(or $(SWEEP),sender) --topology veth $(RUN_ARGS))

# The integration tests run the way a freshly booted machine presents itself (each in a
# mount namespace of its own without /run/xdptc, tracefs, debugfs and bpffs, all with one
# guest-kernel cache that starts empty: tests/fresh-machine.sh), then the quick ones
# again on the machine as it is, with whatever earlier work left on it.
HERE_TESTS := $(BUILD)/tests/test_bad_input $(BUILD)/tests/test_veth_drop

# make check: build, every number of the docs against its source (build/tools/claims),
# and the tests that need no root, no apt and no namespaces (unit tests, and the
# committed examples against what this version's report computes and against run.json's
# schema); under a minute, as any user, once the packages are there.
check unit-test:
	@$(MAKE) --no-print-directory -s all $(UNIT_TESTS)
	@$(BUILD)/tools/claims
	@sh tests/run-tests.sh $(UNIT_TESTS)

# make integration-test: the tests on real devices, packets and guests (root)
integration-test: deps
	@$(MAKE) --no-print-directory -s all plugin $(INTEG_TESTS)
	@sh tests/run-tests.sh --fresh $(INTEG_TESTS) --here $(HERE_TESTS)

# make test: both, with one closing line for the whole suite
test: deps
	@$(MAKE) --no-print-directory -s all plugin $(UNIT_TESTS) $(INTEG_TESTS)
	@sh tests/run-tests.sh $(UNIT_TESTS) --fresh $(INTEG_TESTS) --here $(HERE_TESTS)

# Fuzzing (fuzz/): every source but main() again, compiled by clang with ASan, UBSan and
# libFuzzer's coverage into build/fuzz/, one binary per fuzz/fuzz_*.c; each runs for
# FUZZ_SECONDS on its seeds (fuzz/corpus/NAME, read-only), crashes in build/fuzz/crashes/.
FUZZ_SECONDS ?= 60
FUZZ_CFLAGS := -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined \
	-fno-sanitize-recover=all -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror \
	-Wno-missing-field-initializers
FUZZ_OBJ := $(patsubst %.c,$(BUILD)/fuzz/obj/%.o,$(LIB_SRC))
FUZZ_BINS := $(patsubst fuzz/%.c,$(BUILD)/fuzz/%,$(wildcard fuzz/fuzz_*.c))

$(BUILD)/fuzz/obj/%.o: %.c $(SKELS) $(wildcard loader/*.h probes/*.h analysis/*.h run/*.h cmd/*.h bpf/*.h)
	@mkdir -p $(dir $@)
	$(CLANG) $(CPPFLAGS) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c $< -o $@

$(BUILD)/fuzz/libxdptc.a: $(FUZZ_OBJ)
	rm -f $@ && ar rcs $@ $^

$(BUILD)/fuzz/fuzz_%: fuzz/fuzz_%.c $(BUILD)/fuzz/libxdptc.a
	$(CLANG) $(CPPFLAGS) $(FUZZ_CFLAGS) -fsanitize=fuzzer $^ $(LIBS) -o $@

fuzz: deps
	@$(MAKE) --no-print-directory -s $(FUZZ_BINS)
	@sh fuzz/run-fuzz.sh $(FUZZ_SECONDS) $(FUZZ_BINS)

# make docs: the docs' generated blocks again from the code's tables (README.md's make
# variables, docs/metrics.md's table, docs/cli.md's synopsis; scripts/regen-docs.sh)
docs: all
	@sh scripts/regen-docs.sh $(BUILD)/xdptc

cleanup: all
	$(BUILD)/xdptc cleanup

clean:
	rm -rf $(BUILD)
