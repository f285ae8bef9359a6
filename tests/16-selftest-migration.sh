#!/bin/sh
# The kernel tree's own migration selftest (6.1: tools/testing/selftests/vm/
# migration.c, 6.12: .../mm/migration.c), built static by
# scripts/build-clients.sh as selftest-migration with
# tests/selftests/migration-$KVER.patch (6.1: a case fails only after 100
# consecutive failed moves, as upstream since 2024, which 6.12 has; both:
# RUNTIME shortened by -DRUNTIME, moves reported). One thread moves a page
# between nodes 0 and 1 with move_pages(2) while the others read it. 6.1's
# cases are private_anon, shared_anon (forked readers) and private_anon_thp;
# 6.12 adds shared_anon_thp and the hugetlb cases private_anon_htlb and
# shared_anon_htlb (the guest keeps 16 huge pages per node). Every case of
# the tree (RIG_KVER, from rig.kver=) must report ok, none skipped, and the
# binary exit 0. It needs root and at least 3 CPUs and uses only what the
# tree has, so it also runs on the unpatched kernel.
# topo: 2node
set -eu
. ./lib.sh
case ${RIG_KVER:-6.1} in
6.1) cases="private_anon shared_anon private_anon_thp" ;;
*) cases="private_anon shared_anon private_anon_thp shared_anon_thp private_anon_htlb shared_anon_htlb" ;;
esac
ncases=$(echo $cases | wc -w)
plan $((ncases + 4))

out=/tmp/selftest-migration.out

# figure: each case's "# migrate: M moves, R failed moves retried" line.
figure() {
	awk -v s="$1" '
	/^# +RUN +migration\./ { split($3, x, "."); c = x[2] }
	/^# migrate: / { f = f sprintf("%s%s %d moves %d retried", f ? ", " : "", c, $3, $5) }
	END {
		if (f == "") f = "no moves reported"
		printf "# figure: selftest migration (%d s): %s\n", s, f
	}' "$out"
}

expect "root with $(nproc) CPUs (at least 3)" "$(id -u) $(($(nproc) >= 3))" "0 1"
start=$(date +%s)
rc=0
timeout 300 selftest-migration >"$out" 2>&1 || rc=$?
# A case that failed leaves its forked readers running: end them.
killall -9 selftest-migration >/dev/null 2>&1 || true
sed 's/^/#   /' "$out"
figure $(($(date +%s) - start))
for c in $cases; do
	expect "$c" "$(ksft_result "$out" "migration.$c")" "ok"
done
expect "harness totals" "$(ksft_totals "$out")" \
	"pass:$ncases fail:0 xfail:0 xpass:0 skip:0 error:0"
expect "exit status" "$rc" "0"
expect_no_isolated
