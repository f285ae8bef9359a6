#!/bin/sh
# Build build/$KVER/initramfs.cpio.gz: busybox-static, /init, /etc, the guest
# tests and the static C helpers of initramfs/. INITRAMFS=PATH writes
# elsewhere (the staging directory is PATH without .cpio.gz), so that two
# checkouts' builds need not share one file.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/kver.sh"
out=${INITRAMFS:-$default_initramfs}
root=${out%.cpio.gz}

rm -rf "$root"
mkdir -p "$(dirname "$out")" "$root/bin" "$root/etc" "$root/tests"
cp /bin/busybox "$root/bin/busybox"
# bash for the kernel's run_vmtests.sh (arrays, PIPESTATUS: not ash).
cp /bin/bash-static "$root/bin/bash"
cp "$top/initramfs/init" "$root/init"
cp "$top/initramfs/etc/"* "$root/etc/"
cp "$top/tests/"*.sh "$root/tests/"
chmod +x "$root/init" "$root/tests/"*.sh

for src in "$top"/initramfs/*.c; do
	name=$(basename "$src" .c)
	echo "==> [$KVER] initramfs: cc $name"
	gcc -std=c11 -O2 -Wall -Wextra -Werror -static -o "$root/bin/$name" "$src"
done

# numactl's migratepages and numastat, the kernel's migration selftest.
"$top/scripts/build-clients.sh" "$root/bin"

# A setuid-root copy of the workload: the tests of an open fd across exec.
install -m 4755 "$root/bin/workload" "$root/bin/workload-setuid"

(cd "$root" && find . | cpio -o -H newc --quiet) | gzip -1 > "$out"
echo "==> initramfs: $(du -h "$out" | cut -f1) ${out#"$top"/}"
