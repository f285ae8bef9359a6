#!/bin/sh
# make check: checkpatch --strict over every patch of patches/$KVER, then
# build the kernel at the baseline and at every prefix of the series
# (bisectability), in build/$KVER/linux itself so that each step is an
# incremental build. The baseline kernel is kept as
# build/$KVER/bzImage-baseline for `make test-baseline`, and each prefix's
# as build/$KVER/bzImage-prefix-N for `make test-prefixes`. The tree is
# put back on its branch afterwards.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/kver.sh"
bad=0
mkdir -p "$logdir"

# A new file makes checkpatch ask whether MAINTAINERS needs updating; the
# series adds files only where an F: line already covers them (the
# selftest in tools/testing/selftests/mm/), so that question is not asked.
ignore="--ignore FILE_PATH_CHANGES"
for p in $(grep -v '^#' "$patches/series"); do
	echo "==> [$KVER] checkpatch --strict $p"
	out=$(cd "$tree" && perl scripts/checkpatch.pl --strict --terse --no-tree $ignore \
		"$patches/$p" 2>&1) || true
	if [ -n "$out" ]; then
		echo "$out" | sed 's/^/    /'
		bad=1
	fi
done

cd "$tree"
if [ -n "$(git status --porcelain --untracked-files=no)" ]; then
	echo "check: ${tree#"$top"/} has uncommitted changes; commit them first" >&2
	exit 1
fi
branch=$(git symbolic-ref --short HEAD)
trap 'git checkout -q "$branch"' EXIT
n=$(git rev-list --count baseline..HEAD)
i=0
for c in $(git rev-parse baseline) $(git rev-list --reverse baseline..HEAD); do
	log=$logdir/check-$i.log
	echo "==> [$KVER] build $i/$n: $(git log -1 --format=%s "$c") (log: ${log#"$top"/})"
	git checkout -q "$c"
	if ! PROFILE="test" "$top/scripts/build-kernel.sh" >"$log" 2>&1; then
		echo "    build failed: ${log#"$top"/}"
		tail -n 20 "$log" | sed 's/^/    /'
		bad=1
	elif grep -q 'warning:' "$log"; then
		echo "    compiler warnings: ${log#"$top"/}"
		grep 'warning:' "$log" | sed 's/^/    /'
		bad=1
	fi
	if [ $i -eq 0 ]; then
		cp "$(kernel_image test)" "$(kernel_image baseline)"
	else
		cp "$(kernel_image test)" "$(kernel_image "prefix-$i")"
	fi
	i=$((i + 1))
done

if [ $bad -eq 0 ]; then
	echo "check: [$KVER] series is checkpatch-clean and every prefix builds ($n patches)"
else
	echo "check: [$KVER] FAILED"
fi
exit $bad
