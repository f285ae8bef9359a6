#!/bin/sh
# Build the bzImage of a profile for the tree KVER (scripts/kver.sh):
# build/$KVER/kbuild-$PROFILE from build/$KVER/linux, config = tinyconfig +
# config/kernel.config (+ config/kernel-tree-$KVER.config, then
# config/kernel-$PROFILE.config, preceded by the fragment it names on an
# "# extends: PROFILE" line, then config/kernel-$PROFILE-$KVER.config,
# options of one profile that one tree only has). Fails when any
# requested option did not survive the merge. The compiler's output goes to
# build/$KVER/log/build-$PROFILE.log; a progress line comes every 30 s and
# compiler warnings are repeated on stdout (make check fails on them).
# PROFILE P-baseline builds P's configuration from the unpatched tree: the
# baseline tag is checked out for the build (the tree must have no
# uncommitted change) and the branch put back after; ccache serves what
# the series does not touch.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/kver.sh"
profile=${PROFILE:-test}
out=$kdir/kbuild-$profile
log=$logdir/build-$profile.log
frags="$top/config/kernel.config"
# Options that only one tree has (config/kernel-tree-$KVER.config).
[ ! -f "$top/config/kernel-tree-$KVER.config" ] ||
	frags="$frags $top/config/kernel-tree-$KVER.config"
own=$top/config/kernel-${profile%-baseline}.config
if [ -f "$own" ]; then
	base=$(sed -n 's/^# extends: //p' "$own")
	[ -z "$base" ] || frags="$frags $top/config/kernel-$base.config"
	frags="$frags $own"
fi
[ ! -f "$top/config/kernel-${profile%-baseline}-$KVER.config" ] ||
	frags="$frags $top/config/kernel-${profile%-baseline}-$KVER.config"

mkdir -p "$out" "$logdir"
# back_on_branch: after a -baseline build, the tree back on its branch.
back_on_branch() { [ -z "${branch:-}" ] || git -C "$tree" checkout -q "$branch"; }
if [ "$profile" != "${profile%-baseline}" ]; then
	if [ -n "$(git -C "$tree" status --porcelain --untracked-files=no)" ]; then
		echo "build: ${tree#"$top"/} has uncommitted changes; commit them first" >&2
		exit 1
	fi
	branch=$(git -C "$tree" symbolic-ref --short HEAD)
	trap back_on_branch EXIT
	git -C "$tree" checkout -q baseline
fi
# `make -s ...` upstairs must not silence the kernel build: its "CC" lines
# are the progress count.
unset MAKEFLAGS MFLAGS
export CCACHE_DIR=${CCACHE_DIR:-$top/build/ccache}
export CCACHE_BASEDIR=$top/build
kmake() { make -C "$tree" O="$out" CC="ccache gcc" -j"$(nproc)" "$@"; }

cfg_id=$(cat $frags | sha256sum | cut -d' ' -f1)
if [ "$(cat "$out/.fragment.stamp" 2>/dev/null)" != "$cfg_id" ] || [ ! -f "$out/.config" ]; then
	echo "==> [$KVER $profile] configuring: tinyconfig + $(echo $frags | sed "s|$top/||g")"
	kmake -s tinyconfig >/dev/null
	# merge_config.sh -m merges onto the existing .config without
	# running olddefconfig; do that ourselves.
	(cd "$out" && KCONFIG_CONFIG=.config "$tree/scripts/kconfig/merge_config.sh" \
		-m -O "$out" .config $frags >/dev/null)
	kmake -s olddefconfig >/dev/null
	"$top/scripts/check-config.sh" "$out/.config" $frags
	echo "$cfg_id" > "$out/.fragment.stamp"
fi

echo "==> [$KVER $profile] building bzImage (ccache, -j$(nproc); log: ${log#"$top"/})"
start=$(date +%s)
(
	while sleep 30; do
		echo "    [$KVER $profile] $(grep -c '^ *CC ' "$log") files compiled," \
			"$(($(date +%s) - start)) s"
	done
) &
ticker=$!
trap 'kill $ticker 2>/dev/null || true; back_on_branch' EXIT
rc=0
kmake bzImage >"$log" 2>&1 || rc=$?
kill $ticker 2>/dev/null || true
grep 'warning:' "$log" || true
if [ $rc -ne 0 ]; then
	tail -n 30 "$log"
	echo "==> [$KVER $profile] build FAILED (log: ${log#"$top"/})"
	exit $rc
fi
cp "$out/arch/x86/boot/bzImage" "$(kernel_image "$profile")"
echo "==> [$KVER $profile] $(kernel_image "$profile" | sed "s|$top/||") ready," \
	"$(($(date +%s) - start)) s"
