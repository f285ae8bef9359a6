#!/bin/sh
# Seeded fuzzing of /proc/PID/migrate and node0/vacate with fuzz-migrate:
# 14,000 + 6,000 generated inputs (random bytes, near-miss grammar, page
# sized and larger inputs, pwrite at other offsets, inputs split over two
# writes) against a 4 MiB workload with half its pages on each node. Every
# write returns its count or an allowed errno that agrees with the
# documented grammar, a rejected write moves nothing, an accepted one moves
# the pages where the input says, and the workload's data survives. The
# seed is fixed; FUZZ_SEED overrides it; a failure prints the seed, the
# input's index and its bytes (fuzz-migrate -i INDEX replays one input).
# topo: 2node
set -eu
. ./lib.sh
plan 10

seed=${FUZZ_SEED:-20261203}
n_proc=14000
n_vacate=6000

w=$(wl_start anon 4 0,1)
diag "seed $seed"

# field TYPE NAME: a number from the fuzzer's summary line ("NAME=N"), 0
# when there is none.
field() {
	n=$(sed -n "s/^fuzz-migrate: $1 seed=.* $2=\([0-9]*\).*/\1/p" "/tmp/fuzz.$1")
	echo "${n:-0}"
}

# fuzz TYPE COUNT: COUNT inputs to one file, three TAP lines; the
# fuzzer's failures and counts become diagnostics, its output stays in
# /tmp/fuzz.TYPE.
fuzz() {
	start=$(date +%s)
	rc=0
	fuzz-migrate -t "$1" -s "$seed" -n "$2" -p "$(wl_pid "$w")" -a "$(wl_addr "$w")" \
		-l "$(cut -d' ' -f3 "$w/info")" > "/tmp/fuzz.$1" 2>&1 || rc=$?
	expect "$1: fuzz-migrate finds nothing wrong" "$rc" 0
	grep '^# ' "/tmp/fuzz.$1" | head -n 200 || true
	grep -v '^# ' "/tmp/fuzz.$1" | sed 's/^/# /'
	diag "$1: $(($(date +%s) - start)) s"
	expect "$1: $2 inputs tried" "$(field "$1" inputs)" "$2"
	expect_match "$1: writes both accepted and rejected" \
		"$(field "$1" accepted) accepted, $(field "$1" rejected) rejected" \
		"[1-9]* accepted, [1-9]* rejected"
}

fuzz proc $n_proc
fuzz vacate $n_vacate
total=$(($(field proc inputs) + $(field vacate inputs)))
expect "at least 20000 inputs in total" "$([ "$total" -ge 20000 ] && echo yes || echo "no: $total")" yes

expect "workload's pattern intact" "$(wl_cmd "$w" verify)" "ok $(wl_pages "$w")"
expect "every workload page still mapped" "$(sum_where "$(wl_cmd "$w" where)")" "$(wl_pages "$w")"
wl_stop "$w"
expect_no_isolated

sum() { echo $(($(field proc "$1") + $(field vacate "$1"))); }
echo "# figure: fuzz: $total inputs tried (proc $(field proc inputs), vacate $(field vacate inputs))," \
	"seed $seed, accepted $(sum accepted), rejected $(sum rejected) (of $(sum writes) writes)"
