#!/bin/sh
# build-clients.sh DESTDIR: static binaries of real clients of the kernel's
# NUMA interfaces, for the guest (tests/16-selftest-migration.sh,
# tests/45-clients.sh), written to DESTDIR:
#   migratepages, numastat  numactl's tools, from Debian's numactl source
#                           package (the version of the installed
#                           libnuma-dev), linked with its libnuma.a
#   selftest-migration      the tree KVER's migration selftest (6.1:
#                           tools/testing/selftests/vm/migration.c, 6.12:
#                           .../mm/migration.c with thp_settings.c) with
#                           tests/selftests/migration-$KVER.patch applied to
#                           a copy (the tree is never touched), built with
#                           -DRUNTIME=$SELFTEST_RUNTIME (seconds per case,
#                           default 10; upstream: 60 in 6.1, 20 in 6.12)
#   numa_migrate            the series' own selftest (its last patch), as
#                           the tree has it, with the tree's
#                           run_vmtests.sh, which runs it (6.12: as the
#                           category numa_migrate)
# The source is fetched once with apt-get source (needs the deb-src entry
# scripts/install-deps.sh adds) into build/clients/src; later builds are
# offline. Binaries are kept in build/clients/bin and recompiled only when
# their sources, flags, compiler or libnuma.a change.
set -eu

[ $# -eq 1 ] || { echo "usage: $0 DESTDIR" >&2; exit 2; }
dest=$1
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/kver.sh"
cache=$top/build/clients
bin=$cache/bin
runtime=${SELFTEST_RUNTIME:-10}
mkdir -p "$dest" "$bin"

libnuma=$(gcc -print-file-name=libnuma.a)
if [ ! -f "$libnuma" ]; then
	echo "build-clients: libnuma.a not found (install libnuma-dev:" \
		"scripts/install-deps.sh)" >&2
	exit 1
fi

# fetch_numactl: print the extracted source directory, fetching it first
# when build/clients/src does not hold it.
fetch_numactl() {
	ver=$(dpkg-query -W -f='${Version}' libnuma-dev)
	src=$cache/src/numactl-${ver%-*}
	if [ ! -f "$src/migratepages.c" ]; then
		echo "==> initramfs: apt-get source numactl=$ver (once, into" \
			"build/clients/src)" >&2
		rm -rf "$cache/src.tmp"
		mkdir -p "$cache/src.tmp"
		if ! (cd "$cache/src.tmp" && apt-get source -q "numactl=$ver") \
			>"$cache/fetch.log" 2>&1; then
			cat "$cache/fetch.log" >&2
			echo "build-clients: apt-get source failed (deb-src entry:" \
				"scripts/install-deps.sh)" >&2
			exit 1
		fi
		rm -rf "$cache/src"
		mv "$cache/src.tmp" "$cache/src"
	fi
	echo "$src"
}

# build NAME FLAGS SOURCE...: gcc -static FLAGS SOURCE... -lnuma into
# build/clients/bin/NAME unless the cached binary was built from the same
# inputs ($deps: headers too), then copy it to DESTDIR.
build() {
	name=$1
	flags=$2
	shift 2
	# shellcheck disable=SC2086
	key=$({ gcc -dumpfullversion; echo "$flags"; cat "$@" $deps "$libnuma"; } |
		sha256sum | cut -d' ' -f1)
	if [ -x "$bin/$name" ] && [ "$(cat "$bin/$name.key" 2>/dev/null)" = "$key" ]; then
		echo "==> initramfs: $name (unchanged)"
	else
		echo "==> initramfs: cc $name"
		# The log keeps libnuma.a's getaddrinfo-in-static-binary warning
		# (its code for network interfaces, unused here) off the screen.
		# shellcheck disable=SC2086
		if ! gcc $flags -O2 -Wall -static -s -o "$bin/$name" "$@" \
			-lnuma -lpthread >"$bin/$name.log" 2>&1; then
			cat "$bin/$name.log" >&2
			exit 1
		fi
		echo "$key" > "$bin/$name.key"
	fi
	cp "$bin/$name" "$dest/$name"
}

src=$(fetch_numactl)
deps="$src/numa.h $src/numaif.h $src/util.h"
build migratepages "" "$src/migratepages.c" "$src/util.c"
build numastat "-std=gnu99" "$src/numastat.c"

# The selftest: a copy laid out like the kernel tree (it includes
# "../kselftest_harness.h"), patched.
sel=$tree/tools/testing/selftests
st=$cache/selftests-$KVER
rm -rf "$st"
case $KVER in
6.1) dir=vm; srcs=migration.c; hdrs="" ;;
*) dir=mm; srcs="migration.c thp_settings.c"; hdrs=thp_settings.h ;;
esac
mkdir -p "$st/$dir"
cp "$sel/kselftest_harness.h" "$sel/kselftest.h" "$st/"
for f in $srcs $hdrs; do
	cp "$sel/$dir/$f" "$st/$dir/"
done
patch -s --no-backup-if-mismatch -d "$st" -p4 \
	<"$top/tests/selftests/migration-$KVER.patch"
deps="$st/kselftest_harness.h $st/kselftest.h"
for f in $hdrs; do
	deps="$deps $st/$dir/$f"
done
# shellcheck disable=SC2046
build selftest-migration-$KVER "-DRUNTIME=$runtime" \
	$(for f in $srcs; do echo "$st/$dir/$f"; done)
mv "$dest/selftest-migration-$KVER" "$dest/selftest-migration"

# The series' own selftest, from the patched tree as it is.
deps="$sel/kselftest_harness.h $sel/kselftest.h"
build numa_migrate "" "$sel/$dir/numa_migrate.c"
cp "$sel/$dir/run_vmtests.sh" "$dest/run_vmtests.sh"
