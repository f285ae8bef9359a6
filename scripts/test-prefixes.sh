#!/bin/sh
# test-prefixes.sh: boot the kernel of each prefix of the series that adds
# a user-visible file, as make check kept it (build/$KVER/bzImage-prefix-N),
# on the 2node guest, and run the tests of what that prefix adds:
#   patch 3 (/proc/<pid>/migrate): the syscall, the file's inputs,
#     permissions and results, reserved address space, migration entries;
#   patch 5 (the swap method): those, and every swap test.
# Patches 6 (vacate) and 7 (the selftest) complete the series: `make test`
# covers them. Both trees number their patches alike.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/kver.sh
. "$top/scripts/kver.sh"

proc=10,20,22,58,59
fail=0
for spec in "3:$proc" "5:$proc,27,28,60,67"; do
	n=${spec%%:*}
	img=$(kernel_image "prefix-$n")
	if [ ! -f "$img" ]; then
		echo "test-prefixes: ${img#"$top"/} missing: run 'KVER=$KVER make check' first" >&2
		exit 1
	fi
	echo "==> [$KVER] prefix $n: tests ${spec#*:}"
	PROFILE="prefix-$n" ONLY="${spec#*:}" TOPOS=2node "$top/scripts/run-tests.sh" || fail=1
done
exit $fail
