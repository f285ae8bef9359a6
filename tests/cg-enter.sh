#!/bin/sh
# cg-enter.sh GROUP CMD...: run CMD inside the cgroup v2 group GROUP (a
# path under /sys/fs/cgroup), so that every page it touches is charged
# there from the first (a task that joins later leaves its charges behind).
# Not a test: run.sh runs only the numbered files.
set -eu
echo $$ > "$1/cgroup.procs"
shift
exec "$@"
