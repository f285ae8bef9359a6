# numa-migrate: a kernel patch series for shell-driven NUMA page migration,
# and the QEMU rig that builds, boots and tests it. `make help` lists targets.

SHELL := /bin/sh
S := scripts
# KVER picks the kernel tree (6.1 or 6.12): patches/$(KVER), build/$(KVER).
KVER ?= 6.1
# The trees `make bench` compares; BENCH_BUILD=0 boots their
# build/$KVER/bzImage-bench (and bzImage-bench-baseline, the unpatched
# tree, for the reserve rows) as they are (no tree update, no build).
KVERS ?= 6.1 6.12
BENCH_BUILD ?= 1
PROFILE ?= test
export KVER
INITRAMFS := build/$(KVER)/initramfs.cpio.gz
INITRAMFS_SRC := $(wildcard initramfs/* initramfs/etc/* tests/*.sh tests/selftests/*) \
	$(S)/build-initramfs.sh $(S)/build-clients.sh $(S)/kver.sh

.PHONY: all help deps lint tree kernel initramfs test test-debug test-prefixes test-baseline demo bench profile shell check export-patches clean

all: deps kernel initramfs ## build the kernel and the initramfs

help: ## list the targets
	@awk -F':.*## ' '/^[a-z-]+:.*## / { printf "  make %-15s %s\n", $$1, $$2 }' $(MAKEFILE_LIST)
	@echo "  KVER=6.12 make ...   the same on linux-source-6.12 (default: KVER=6.1)"

deps: ## install the Debian packages the rig needs (apt-get, idempotent)
	@$(S)/install-deps.sh

tree: deps ## extract build/$(KVER)/linux and apply patches/$(KVER)/series (when changed)
	@$(S)/prepare-tree.sh

kernel: tree ## build build/$(KVER)/bzImage-$(PROFILE) (ccache, incremental)
	@PROFILE=$(PROFILE) $(S)/build-kernel.sh

$(INITRAMFS): $(INITRAMFS_SRC)
	@$(S)/build-initramfs.sh

initramfs: deps tree $(INITRAMFS) ## build the busybox initramfs with tests and helpers

test: all ## build, boot every topology, run the tests: "N passed, N failed"
	@$(S)/run-tests.sh

test-debug: deps initramfs ## the same on a KASAN/kmemleak/fault-injection kernel, plus fuzz, faults, soak
	@$(S)/prepare-tree.sh
	@PROFILE=debug $(S)/build-kernel.sh
	@PROFILE=debug TIMEOUT=$${TIMEOUT:-2700} $(S)/run-tests.sh

demo: all ## show a process's memory moving between nodes, with tables
	@$(S)/run-demo.sh

bench: deps ## time vacate against its peers, and its curves, on each tree of KVERS; build/bench/compare.md
	@for v in $(KVERS); do \
		if [ "$(BENCH_BUILD)" != 0 ]; then \
			$(MAKE) -s --no-print-directory tree KVER=$$v && \
			KVER=$$v PROFILE=bench-baseline $(S)/build-kernel.sh && \
			KVER=$$v PROFILE=bench $(S)/build-kernel.sh || exit 1; \
		fi; \
		KVER=$$v PROFILE=bench $(S)/run-bench.sh || exit 1; \
	done
	@set -- $(KVERS); [ $$# -lt 2 ] || $(S)/bench-compare.sh $(KVERS)

profile: deps initramfs ## where a vacate's time goes: ftrace's function profiler on the bench kernel
	@$(S)/prepare-tree.sh
	@PROFILE=bench $(S)/build-kernel.sh
	@$(S)/run-profile.sh

shell: all ## boot the 2-node guest to a busybox prompt (exit or Ctrl-A X)
	@$(S)/boot-guest.sh shell 2node build/$(KVER)/log/shell.log

lint: deps ## shellcheck -S warning over every shell file of the rig (scripts/lint-shell.sh)
	@$(S)/lint-shell.sh

check: tree ## prove a reshape changed no code, checkpatch --strict the series, build every prefix
	@$(S)/check-fold.sh
	@$(S)/check-series.sh

test-prefixes: deps initramfs ## boot the prefixes that add a file (patches 3, 5) and run their tests
	@$(S)/test-prefixes.sh

test-baseline: all ## run the baseline tests (0*, 1*) on the unpatched kernel
	@test -f build/$(KVER)/bzImage-baseline || $(S)/check-series.sh
	@PROFILE=baseline ONLY=0,1 $(S)/run-tests.sh

export-patches: ## regenerate patches/$(KVER)/ from the commits in build/$(KVER)/linux
	@$(S)/export-patches.sh

clean: ## remove build output (keeps the extracted tree and ccache)
	rm -rf build/*/kbuild-* build/*/bzImage-* build/*/initramfs* build/*/log build/*/bench build/bench
