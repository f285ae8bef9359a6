#!/bin/sh
# nodeN/vacate applies migrate_pages(2)'s per-process rule: the writer needs
# ptrace read access (real credentials) to each process it moves. A root
# writer that keeps only CAP_SYS_NICE may not move a root process with
# every capability (its capabilities are not a subset of the writer's) nor
# another user's, just as migrate_pages(2) refuses it (EPERM); it still
# moves a root process whose capabilities it holds. A refused process is
# skipped, and the write says so (EPERM), after moving the others.
# topo: 2node
set -eu
. ./lib.sh
plan 22

CAP_SYS_NICE=23

expect "capdrop -only $CAP_SYS_NICE: CapEff, CapPrm and CapBnd are CAP_SYS_NICE alone" \
	"$(capdrop -only $CAP_SYS_NICE awk '/^Cap(Eff|Prm|Bnd):/ { printf "%s ", $2 }' /proc/self/status)" \
	"$(printf '%016x %016x %016x ' $((1 << CAP_SYS_NICE)) $((1 << CAP_SYS_NICE)) $((1 << CAP_SYS_NICE)))"

full=$(wl_start anon 8 0)
user=$(wl_start anon 8 0 "$USER_UID")
nice=$(WL_WRAP="capdrop -only $CAP_SYS_NICE" wl_start anon 8 0)

# The syscall's answers for this writer, for comparison.
expect "migrate_pages(2), CAP_SYS_NICE alone, root process with every capability: EPERM" \
	"$(capdrop -only $CAP_SYS_NICE migrate-syscall "$(wl_pid "$full")" 0 1)" "err EPERM"
expect "migrate_pages(2), CAP_SYS_NICE alone, another user's process: EPERM" \
	"$(capdrop -only $CAP_SYS_NICE migrate-syscall "$(wl_pid "$user")" 0 1)" "err EPERM"
expect "  nothing moved" "$(wl_cmd "$full" where) $(wl_cmd "$user" where)" \
	"N0=2048 err=0 N0=2048 err=0"

# The same writer vacates node 0.
expect "vacate by a writer with CAP_SYS_NICE alone: EPERM (processes skipped)" \
	"$(settled capdrop -only $CAP_SYS_NICE writefile $V0 1)" \
	"err EPERM"
expect_placement "  root process with every capability skipped" "$full" "N0=2048"
expect_placement "  another user's process skipped" "$user" "N0=2048"
expect_placement "  root process with CAP_SYS_NICE alone moved" "$nice" "N1=2048"

# A writer with every capability moves them all.
expect "vacate by a writer with every capability" "$(node_vacate_settled 0 1)" "ok 1"
expect_placement "  root process moved" "$full" "N1=2048"
expect_placement "  user's process moved" "$user" "N1=2048"
for w in $full $user $nice; do
	wl_stop "$w"
done
expect_no_isolated
