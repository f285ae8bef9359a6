#!/bin/sh
# Build bzImage for a profile: build/kbuild-$PROFILE from build/linux, config
# = tinyconfig + scripts/kernel.config (+ scripts/kernel-$PROFILE.config).
# Fails when any requested option did not survive the merge.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
profile=${PROFILE:-test}
tree=$top/build/linux
out=$top/build/kbuild-$profile
frags="$top/scripts/kernel.config"
[ -f "$top/scripts/kernel-$profile.config" ] && frags="$frags $top/scripts/kernel-$profile.config"

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
