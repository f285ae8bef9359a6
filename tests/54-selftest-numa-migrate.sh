#!/bin/sh
# The series' own kselftest (its last patch: tools/testing/selftests/vm/
# numa_migrate.c on 6.1, .../mm/numa_migrate.c on 6.12), built static from
# the patched tree by scripts/build-clients.sh. On 6.12 it runs as the
# kernel's harness runs it, `run_vmtests.sh -t numa_migrate` (under bash);
# 6.1's run_vmtests.sh has no categories and would run every mm test, so
# there the binary runs alone. The guest has two memory nodes and swap, and
# the test runs as root: every case must pass, none skipped. The vacate
# case moves every process on the machine, so it runs only with
# NUMA_MIGRATE_VACATE=1 (set here: the guest is disposable); without it,
# it must be skipped, saying why.
# topo: 2node
set -eu
. ./lib.sh
cases="own_memory other_process bad_input swap vacate"
ncases=$(echo $cases | wc -w)
plan $((ncases + 5))
export NUMA_MIGRATE_VACATE=1

d=/tmp/selftests-mm
out=/tmp/numa_migrate.out
mkdir -p $d
cp /bin/numa_migrate /bin/run_vmtests.sh $d/
rc=0
# $out.tap: the harness's own lines (run_vmtests.sh prefixes them "# ").
case ${RIG_KVER:-6.1} in
6.1)
	(cd $d && timeout 300 ./numa_migrate) >$out 2>&1 || rc=$?
	cp $out $out.tap ;;
*)
	(cd $d && timeout 300 bash ./run_vmtests.sh -t numa_migrate) >$out 2>&1 || rc=$?
	sed 's/^# //' $out > $out.tap ;;
esac
sed 's/^/#   /' $out
for c in $cases; do
	expect "$c" "$(ksft_result $out.tap "numa_migrate.$c")" "ok"
done
expect "harness totals" "$(ksft_totals $out.tap)" \
	"pass:$ncases fail:0 xfail:0 xpass:0 skip:0 error:0"
case ${RIG_KVER:-6.1} in
6.1) expect "6.1: run_vmtests.sh runs it (one run_test line)" \
	"$(grep -c '^run_test ./numa_migrate$' $d/run_vmtests.sh || true)" "1" ;;
*) expect "run_vmtests.sh -t numa_migrate ran it, and only it" \
	"$(grep -o 'SUMMARY: .*' $out)" "SUMMARY: PASS=1 SKIP=0 FAIL=0" ;;
esac
expect "exit status" "$rc" "0"
expect "without NUMA_MIGRATE_VACATE the vacate case skips, saying why" \
	"$(cd $d && env -u NUMA_MIGRATE_VACATE timeout 300 ./numa_migrate 2>&1 |
		grep -c '^ok [0-9]* .*# SKIP moves every process off node')" "1"
expect_no_isolated
