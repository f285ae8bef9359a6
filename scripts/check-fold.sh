#!/bin/sh
# check-fold.sh [REV]: prove that reshaping the series (folding fixes into
# the patches they fix, reordering, rewording) changed no code: the tree
# that patches/$KVER/series builds on the baseline must be identical to
# the tree that patches/$KVER/series of the rig's commit REV built.
#
# REV defaults to the commit named in patches/$KVER/fold-base, which a
# reshape records (the last commit before it); a patch that changes code
# removes that file, and then there is nothing to prove. Applies the
# patches to a scratch index of build/$KVER/linux (git apply --cached): no
# checkout, a few seconds. make check runs it.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/kver.sh
. "$top/scripts/kver.sh"

rev=${1:-}
if [ -z "$rev" ] && [ -f "$patches/fold-base" ]; then
	rev=$(sed -n 's/^\([0-9a-f]\{7,40\}\).*/\1/p' "$patches/fold-base" | head -n 1)
fi
if [ -z "$rev" ]; then
	echo "check-fold: [$KVER] no fold-base: no reshape to prove"
	exit 0
fi

rel=${patches#"$top"/}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# series_tree DIR: the tree id of the baseline with DIR/series applied.
series_tree() {
	GIT_INDEX_FILE=$scratch/index git -C "$tree" read-tree baseline
	for p in $(grep -v '^[[:space:]]*#' "$1/series" | grep -v '^[[:space:]]*$'); do
		GIT_INDEX_FILE=$scratch/index git -C "$tree" apply --cached \
			--whitespace=nowarn "$1/$p" || {
			echo "check-fold: [$KVER] $1/$p does not apply" >&2
			return 1
		}
	done
	GIT_INDEX_FILE=$scratch/index git -C "$tree" write-tree
}

mkdir "$scratch/old"
git -C "$top" show "$rev:$rel/series" > "$scratch/old/series"
for p in $(grep -v '^[[:space:]]*#' "$scratch/old/series" | grep -v '^[[:space:]]*$'); do
	git -C "$top" show "$rev:$rel/$p" > "$scratch/old/$p"
done

old=$(series_tree "$scratch/old")
new=$(series_tree "$patches")
if [ "$old" = "$new" ]; then
	echo "check-fold: [$KVER] the series builds the same tree as at $rev ($new)"
	exit 0
fi
echo "check-fold: [$KVER] the series' tree differs from the one at $rev:"
git -C "$tree" diff --stat "$old" "$new" | sed 's/^/    /'
exit 1
