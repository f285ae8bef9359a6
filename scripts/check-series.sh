#!/bin/sh
# make check: checkpatch --strict over every patch of the series, then build
# the kernel at the baseline and at every prefix of the series
# (bisectability), in build/linux itself so that each step is an incremental
# build. The baseline kernel is kept as build/bzImage-baseline for
# `make test-baseline`. The tree is put back on its branch afterwards.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
tree=$top/build/linux
bad=0

for p in $(grep -v '^#' "$top/patches/series"); do
	echo "==> checkpatch --strict $p"
	out=$(cd "$tree" && perl scripts/checkpatch.pl --strict --terse --no-tree \
		"$top/patches/$p" 2>&1) || true
	if [ -n "$out" ]; then
		echo "$out" | sed 's/^/    /'
		bad=1
	fi
done

cd "$tree"
if [ -n "$(git status --porcelain --untracked-files=no)" ]; then
	echo "check: build/linux has uncommitted changes; commit them first" >&2
	exit 1
fi
branch=$(git symbolic-ref --short HEAD)
trap 'git checkout -q "$branch"' EXIT
n=$(git rev-list --count baseline..HEAD)
i=0
for c in $(git rev-parse baseline) $(git rev-list --reverse baseline..HEAD); do
	echo "==> build $i/$n: $(git log -1 --format=%s "$c")"
	git checkout -q "$c"
	if ! "$top/scripts/build-kernel.sh" >"$top/build/log/check-$i.log" 2>&1; then
		echo "    build failed: build/log/check-$i.log"
		tail -n 20 "$top/build/log/check-$i.log" | sed 's/^/    /'
		bad=1
	elif grep -q 'warning:' "$top/build/log/check-$i.log"; then
		echo "    compiler warnings: build/log/check-$i.log"
		grep 'warning:' "$top/build/log/check-$i.log" | sed 's/^/    /'
		bad=1
	fi
	[ $i -gt 0 ] || cp "$top/build/bzImage-test" "$top/build/bzImage-baseline"
	i=$((i + 1))
done

if [ $bad -eq 0 ]; then
	echo "check: series is checkpatch-clean and every prefix builds ($n patches)"
else
	echo "check: FAILED"
fi
exit $bad
