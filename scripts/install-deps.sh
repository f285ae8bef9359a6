#!/bin/sh
# Install the Debian packages the rig needs (both kernel trees' sources
# among them); does nothing when all are present. apt's output goes to
# build/log/deps.log, one progress line per step on the terminal.
# scripts/build-clients.sh fetches numactl's source once with apt-get source:
# that needs a deb-src entry for Debian's archive and its Sources index, added
# here (in /etc/apt/sources.list.d/numa-migrate-src.sources) when missing.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
log=$top/build/log/deps.log

PKGS="linux-source-6.1 linux-source-6.12 gcc make flex bison bc libelf-dev libssl-dev cpio \
xz-utils e2fsprogs qemu-system-x86 busybox-static bash-static ccache perl git python3 \
libnuma-dev numactl gnuplot-nox dpkg-dev patch socat shellcheck"
SRC_LIST=/etc/apt/sources.list.d/numa-migrate-src.sources

missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing="$missing $p"
done
no_src=0
ls /var/lib/apt/lists/*_source_Sources* >/dev/null 2>&1 || no_src=1
[ -z "$missing" ] && [ $no_src -eq 0 ] && exit 0

SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo
mkdir -p "$(dirname "$log")"
: > "$log"
# run STEP CMD...: CMD's output to the log; on failure, its tail here.
run() {
	step=$1
	shift
	echo "==> deps: $step (log: ${log#"$top"/})"
	if ! "$@" >>"$log" 2>&1; then
		tail -n 20 "$log" >&2
		echo "deps: $step failed (log: ${log#"$top"/})" >&2
		exit 1
	fi
}
if [ $no_src -eq 1 ] &&
	! grep -qs '^deb-src' /etc/apt/sources.list /etc/apt/sources.list.d/*.list &&
	! grep -qs '^Types:.*deb-src' /etc/apt/sources.list.d/*.sources; then
	echo "==> adding a deb-src entry: $SRC_LIST"
	printf '%s\n' 'Types: deb-src' 'URIs: http://deb.debian.org/debian' \
		'Suites: bookworm' 'Components: main' \
		'Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg' |
		$SUDO tee "$SRC_LIST" >/dev/null
fi

export DEBIAN_FRONTEND=noninteractive
run "apt-get update" $SUDO apt-get update -q
[ -z "$missing" ] && exit 0
# shellcheck disable=SC2086
run "apt-get install$missing (a few minutes the first time)" \
	$SUDO apt-get install -y -q --no-install-recommends $missing
echo "==> deps: installed"
