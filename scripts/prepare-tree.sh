#!/bin/sh
# Make build/$KVER/linux a git tree of Debian's linux-source-$KVER with
# patches/$KVER/series applied (scripts/kver.sh). Extracts only when the
# tarball changed; re-applies the series (from the baseline tag) only when
# the series changed. Refuses to throw away work.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/kver.sh"
stamp_tar=$kdir/.tarball.stamp
stamp_series=$kdir/.series.stamp

if [ ! -f "$tarball" ]; then
	echo "prepare-tree: $tarball missing (apt-get install linux-source-$KVER:" \
		"scripts/install-deps.sh)" >&2
	exit 1
fi
tar_id=$(stat -c '%n %s %Y' "$tarball")
series_id=$("$top/scripts/series-id.sh")

if [ ! -d "$tree/.git" ] || [ "$(cat "$stamp_tar" 2>/dev/null)" != "$tar_id" ]; then
	echo "==> [$KVER] extracting $tarball into ${tree#"$top"/} (about a minute)"
	rm -rf "$tree" "$stamp_series"
	mkdir -p "$tree"
	tar -xJf "$tarball" -C "$tree" --strip-components=1
	cd "$tree"
	git init -q
	git config user.name "${GIT_AUTHOR_NAME:-numa-migrate rig}"
	git config user.email "${GIT_AUTHOR_EMAIL:-rig@localhost}"
	# Debian's tarball ships a .gitignore of '/*': force-add everything.
	git add -f .
	git commit -q -m "baseline: $(basename "$tarball")"
	git tag -f baseline >/dev/null
	git tag -f applied >/dev/null
	echo "$tar_id" > "$stamp_tar"
fi

[ "$(cat "$stamp_series" 2>/dev/null)" = "$series_id" ] && exit 0

cd "$tree"
if [ -n "$(git status --porcelain)" ] ||
	[ "$(git rev-parse HEAD)" != "$(git rev-parse applied)" ]; then
	echo "${tree#"$top"/} has uncommitted changes or commits not exported;" >&2
	echo "run 'KVER=$KVER make export-patches' (or reset the tree) first." >&2
	exit 1
fi

git am --abort >/dev/null 2>&1 || true
git reset -q --hard baseline
for p in $(grep -v '^[[:space:]]*#' "$patches/series" | grep -v '^[[:space:]]*$'); do
	echo "==> [$KVER] applying $p"
	git am -q --whitespace=nowarn "$patches/$p"
done
git tag -f applied >/dev/null
echo "$series_id" > "$stamp_series"
