#!/bin/sh
# Build bzImage for a profile: build/kbuild-$PROFILE from build/linux, config
# = tinyconfig + scripts/kernel.config (+ scripts/kernel-$PROFILE.config,
# preceded by the fragment it names on an "# extends: PROFILE" line).
# Fails when any requested option did not survive the merge.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
profile=${PROFILE:-test}
tree=$top/build/linux
out=$top/build/kbuild-$profile
frags="$top/scripts/kernel.config"
own=$top/scripts/kernel-$profile.config
if [ -f "$own" ]; then
	base=$(sed -n 's/^# extends: //p' "$own")
	[ -z "$base" ] || frags="$frags $top/scripts/kernel-$base.config"
	frags="$frags $own"
fi

mkdir -p "$out"
export CCACHE_DIR=${CCACHE_DIR:-$top/build/ccache}
kmake() { make -s -C "$tree" O="$out" CC="ccache gcc" -j"$(nproc)" "$@"; }

cfg_id=$(cat $frags | sha256sum | cut -d' ' -f1)
if [ "$(cat "$out/.fragment.stamp" 2>/dev/null)" != "$cfg_id" ] || [ ! -f "$out/.config" ]; then
	echo "==> [$profile] configuring: tinyconfig + $(echo $frags | sed "s|$top/||g")"
	kmake tinyconfig >/dev/null
	# merge_config.sh -m merges onto the existing .config without
	# running olddefconfig; do that ourselves.
	(cd "$out" && KCONFIG_CONFIG=.config "$tree/scripts/kconfig/merge_config.sh" \
		-m -O "$out" .config $frags >/dev/null)
	kmake olddefconfig >/dev/null
	"$top/scripts/check-config.sh" "$out/.config" $frags
	echo "$cfg_id" > "$out/.fragment.stamp"
fi

echo "==> [$profile] building bzImage (ccache, -j$(nproc))"
kmake bzImage
cp "$out/arch/x86/boot/bzImage" "$top/build/bzImage-$profile"
echo "==> [$profile] build/bzImage-$profile ready"
