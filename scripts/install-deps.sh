#!/bin/sh
# Install the Debian packages the rig needs; does nothing when all are present.
set -eu

PKGS="linux-source-6.1 gcc make flex bison bc libelf-dev libssl-dev cpio \
xz-utils qemu-system-x86 busybox-static ccache perl git python3 \
libnuma-dev numactl gnuplot-nox"

missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0

echo "==> installing:$missing"
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
# shellcheck disable=SC2086
$SUDO apt-get install -y -q --no-install-recommends $missing
