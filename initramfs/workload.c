// SPDX-License-Identifier: GPL-2.0
/*
 * workload: map memory of one kind, place it on a node, fill every page
 * with a pattern that encodes the word's offset in the region and a seed,
 * then serve commands read line by line from a FIFO until told to exit.
 *
 *   workload -k KIND -m MIB -n NODES -d DIR [-s SEED] [-f PATH] [-L]
 *
 * NODES is a comma-separated list: the region is cut into that many equal
 * chunks and chunk i is placed on the i-th node ("0,1,1,1" puts a quarter
 * on node 0 and the rest on node 1).
 *
 * KIND is anon, shared (MAP_SHARED|MAP_ANONYMOUS, also mapped and touched
 * by a forked child), shmem (memfd), thp (2 MiB aligned, MADV_HUGEPAGE),
 * hugetlb (MAP_HUGETLB, 2 MiB pages), or one of the unevictable or file
 * kinds:
 *   mlock    private anonymous, mlock()ed after the fill
 *   onfault  private anonymous, mlock2(MLOCK_ONFAULT) before the fill: each
 *            page is locked as it faults in
 *   shmlock  SysV shm (shmget, shmat, IPC_RMID at once, so it goes with the
 *            process), shmctl(SHM_LOCK) after the fill
 *   sysv     the same SysV shm, not locked
 *   ksm      private anonymous, madvise(MADV_MERGEABLE) after the fill: two
 *            ksm workloads of the same -s SEED hold identical pages, which
 *            ksmd merges (the pattern differs from page to page, so one
 *            workload alone has nothing to merge)
 *   ksmtwin  the same, but each odd page repeats the even page before it:
 *            ksmd merges each pair into one KSM page that this process
 *            alone maps twice, at neighbouring addresses
 *   file     MAP_SHARED mapping of the file -f PATH (required). When PATH
 *            opens O_RDWR it is truncated to MIB and filled; otherwise it is
 *            opened O_RDONLY, mapped PROT_READ and only read: its content
 *            must already be the pattern of the same -s SEED (written by a
 *            "file" workload that could write it). Either way the pages are
 *            faulted in under the node's policy, so page cache that was not
 *            cached yet lands on that node.
 *   filecow  MAP_PRIVATE, PROT_READ|PROT_WRITE mapping of the file -f PATH,
 *            opened O_RDONLY, whose content must already be the pattern of
 *            -s SEED: every page is read (page cache), then the even pages
 *            are written with the same pattern, so that they become
 *            anonymous copies (copy-on-write) and the odd ones stay the
 *            file's page cache.
 *
 * SEED (-s, default the PID) selects the pattern; the pattern depends on the
 * offset in the region, not the address, so that another process mapping
 * the same file verifies it with the same seed.
 *
 * -R GIB: also reserve GIB GiB of address space, PROT_NONE and never
 * touched (as ASan's shadow, or a Go or JVM heap, reserves it): a huge
 * address space around a small resident set.
 *
 * -L: once set up, the main thread starts a thread that serves the commands
 * and calls pthread_exit(): the group leader stays a zombie while the
 * process lives (its /proc/PID/stat says Z). DIR/info is written once the
 * leader is a zombie; "exit" ends the process (exit() from that thread).
 *
 * DIR/cmd is the command FIFO, DIR/reply the reply FIFO, DIR/info holds
 * "PID START_HEX LENGTH KIND CHILD_PID" once the memory is filled.
 * Commands, one per line, each answered by one line on DIR/reply:
 *   where               per-node page counts from move_pages(2): "N0=.. N1=.."
 *   verify              "ok PAGES" or "bad PAGES first=INDEX"
 *   mbind NODE FLAGS    mbind(MPOL_BIND) with FLAGS among move, all, strict
 *                       (comma separated); "ok" or "err ERRNO"
 *   pin N               vmsplice the first N pages into a pipe that is never
 *                       read: they hold extra references and cannot migrate
 *                       until "unpin"; "ok" or "err ERRNO"
 *   unpin               close that pipe
 *   touch               read one byte of every page (faults them all in)
 *   copy NODE           memcpy the region into a buffer on NODE with pages
 *                       of the region's size (2 MiB for thp, else 4 KiB),
 *                       reply the microseconds the memcpy took (the guest's
 *                       copy bandwidth)
 *   dumpable N          prctl(PR_SET_DUMPABLE, N): 0 makes the process
 *                       non-dumpable (only CAP_SYS_PTRACE may then open its
 *                       /proc files); "ok DUMPABLE" (read back) or "err ERRNO"
 *   mincore             "resident=N": pages resident per mincore(2) (which
 *                       counts pages still in the swap cache as resident)
 *   migrate WORDS       one write of WORDS to /proc/self/migrate (the
 *                       process moves or evicts its own memory); replies as
 *                       writefile does: "ok BYTES", "err ERRNO" or
 *                       "open err ERRNO"
 *   split               (thp) share every huge page with a forked child,
 *                       then each drops one half of it (MADV_DONTNEED: the
 *                       child the first half, this process the second), so
 *                       that each page of the huge page is mapped once but
 *                       the huge page by two processes; "ok CHILD_PID".
 *                       From then on where, verify and touch skip the
 *                       dropped halves
 *   childverify         after split: the child checks the pattern of its
 *                       halves and exits; "ok" or "bad"
 *   ptemap              (thp) mprotect() the first page of every huge
 *                       page read-only and back: its PMD mapping is split
 *                       into PTEs while the huge page stays whole (a
 *                       "split-mapped" THP); "ok HUGE_PAGES"
 *   fork                fork a child that touches nothing and waits to be
 *                       killed (at exit): private pages and swap entries
 *                       are then shared with it; "ok CHILD_PID"
 *   exit
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/shm.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "errname.h"

#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22
#endif
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif
#ifndef MLOCK_ONFAULT
#define MLOCK_ONFAULT 0x01
#endif

#define MPOL_DEFAULT 0
#define MPOL_BIND 2
#define MPOL_MF_STRICT (1 << 0)
#define MPOL_MF_MOVE (1 << 1)
#define MPOL_MF_MOVE_ALL (1 << 2)
#define MAX_NODES 64
#define HUGE_SZ (2UL << 20)

static size_t page_size;
static char *region;
static size_t length;
static int region_thp;
static int region_ro;	/* a read-only file mapping: touched, not filled */
static int region_cow;	/* filecow: touched, then even pages rewritten */
static int region_twin;	/* ksmtwin: odd pages repeat the even ones */
static int shm_id = -1;
static uint64_t seed;
static int dropped_half = -1;	/* after split: 0 first, 1 second half */
static pid_t child;

static void die(const char *what)
{
	fprintf(stderr, "workload: %s: %s\n", what, strerror(errno));
	exit(1);
}

static long sys_mbind(void *addr, size_t len, int mode, const unsigned long *mask,
		      unsigned long maxnode, unsigned int flags)
{
	return syscall(SYS_mbind, addr, len, mode, mask, maxnode, flags);
}

/*
 * The value stored at word address @p: changes with every word's offset in
 * the region and with the seed.
 */
static uint64_t pattern(const uint64_t *p)
{
	uint64_t off = (uint64_t)((const char *)p - region), x;

	if (region_twin)
		off &= ~(uint64_t)page_size;
	x = off ^ (seed * 0x9e3779b97f4a7c15ULL);

	x ^= x >> 29;
	return x * 0xbf58476d1ce4e5b9ULL;
}

static void touch_range(char *start, size_t len)
{
	volatile char sink = 0;
	size_t off;

	for (off = 0; off < len; off += page_size)
		sink += start[off];
	(void)sink;
}

/* Fill, or only fault in (read) a read-only mapping. */
static void fill(char *start, size_t len)
{
	uint64_t *w = (uint64_t *)start, *end = (uint64_t *)(start + len);

	if (region_ro || region_cow) {
		touch_range(start, len);
		if (region_ro)
			return;
	}
	for (; w < end; w++)
		if (!region_cow || (((char *)w - region) / page_size) % 2 == 0)
			*w = pattern(w);
}

/* Whether page @pg is in the half of its huge page that split dropped. */
static int page_dropped(size_t pg)
{
	return dropped_half >= 0 &&
	       (pg * page_size % HUGE_SZ >= HUGE_SZ / 2) == dropped_half;
}

/* Number of bad pages; *first is the index of the first one. */
static size_t verify(size_t *first)
{
	size_t bad = 0, pg, npages = length / page_size;

	for (pg = 0; pg < npages; pg++) {
		const uint64_t *w = (const uint64_t *)(region + pg * page_size);
		const uint64_t *end = w + page_size / sizeof(*w);

		if (page_dropped(pg))
			continue;
		for (; w < end; w++) {
			if (*w != pattern(w)) {
				if (!bad)
					*first = pg;
				bad++;
				break;
			}
		}
	}
	return bad;
}

#define MASK_LONGS (MAX_NODES / (8 * sizeof(long)) + 1)

/* Fill @mask with the node mask of @node alone. */
static void node_mask(unsigned long *mask, int node)
{
	memset(mask, 0, MASK_LONGS * sizeof(long));
	mask[node / (8 * sizeof(long))] |= 1UL << (node % (8 * sizeof(long)));
}

static int bind_range(char *start, size_t len, int node, unsigned int flags)
{
	unsigned long mask[MASK_LONGS];

	if (node < 0 || node >= MAX_NODES)
		return EINVAL;
	node_mask(mask, node);
	return sys_mbind(start, len, MPOL_BIND, mask, MAX_NODES + 1, flags) ? errno : 0;
}

/*
 * Fault chunk i of the region in (and fill it) under a task policy bound to
 * the i-th node of @list, then drop the policy: the region stays one VMA
 * with the default policy, as numa_maps and later migrations expect.
 */
static void place_and_fill(const char *list)
{
	unsigned long mask[MASK_LONGS];
	int nodes[MAX_NODES], n = 0, i;
	const char *s = list;
	char *end;
	size_t chunk;

	while (*s && n < MAX_NODES) {
		nodes[n++] = strtol(s, &end, 10);
		if (end == s || nodes[n - 1] < 0 || nodes[n - 1] >= MAX_NODES)
			break;
		s = *end == ',' ? end + 1 : end;
	}
	if (!n || *s) {
		fprintf(stderr, "workload: bad node list %s\n", list);
		exit(2);
	}
	chunk = length / n;
	if (chunk % HUGE_SZ) {
		fprintf(stderr, "workload: chunks must be multiples of 2 MiB\n");
		exit(2);
	}
	for (i = 0; i < n; i++) {
		node_mask(mask, nodes[i]);
		if (syscall(SYS_set_mempolicy, MPOL_BIND, mask, MAX_NODES + 1))
			die("set_mempolicy");
		/*
		 * One madvise faults the whole chunk in, much faster under
		 * emulation than a trap per page; where it fails (a full
		 * node), fill() faults in the rest as before.
		 */
		madvise(region + i * chunk, chunk,
			region_ro || region_cow ? MADV_POPULATE_READ :
						  MADV_POPULATE_WRITE);
		fill(region + i * chunk, chunk);
	}
	if (syscall(SYS_set_mempolicy, MPOL_DEFAULT, NULL, 0))
		die("set_mempolicy default");
}

static void where(FILE *out)
{
	size_t i, npages = length / page_size, count[MAX_NODES] = { 0 }, errs = 0;
	void **pages = calloc(npages, sizeof(*pages));
	int *status = calloc(npages, sizeof(*status));
	int n;

	if (!pages || !status)
		die("calloc");
	for (i = 0; i < npages; i++)
		pages[i] = region + i * page_size;
	if (syscall(SYS_move_pages, 0, npages, pages, NULL, status, 0))
		die("move_pages");
	for (i = 0; i < npages; i++) {
		if (page_dropped(i))
			continue;
		if (status[i] >= 0 && status[i] < MAX_NODES)
			count[status[i]]++;
		else
			errs++;
	}
	for (n = 0; n < MAX_NODES; n++)
		if (count[n])
			fprintf(out, "N%d=%zu ", n, count[n]);
	fprintf(out, "err=%zu\n", errs);
	free(pages);
	free(status);
}

static unsigned int parse_flags(const char *s)
{
	unsigned int flags = 0;

	if (strstr(s, "move"))
		flags |= MPOL_MF_MOVE;
	if (strstr(s, "all"))
		flags |= MPOL_MF_MOVE_ALL;
	if (strstr(s, "strict"))
		flags |= MPOL_MF_STRICT;
	return flags;
}

static int pipe_fds[2] = { -1, -1 };

static int pin(size_t npages)
{
	struct iovec iov = { .iov_base = region, .iov_len = npages * page_size };

	/* A pipe holds 16 pages by default, up to pipe-max-size (1 MiB). */
	if (npages > length / page_size || npages > 256)
		return EINVAL;
	if (pipe(pipe_fds))
		return errno;
	if (npages > 16 && fcntl(pipe_fds[1], F_SETPIPE_SZ, (int)(npages * page_size)) < 0)
		return errno;
	while (iov.iov_len) {
		ssize_t n = vmsplice(pipe_fds[1], &iov, 1, 0);

		if (n <= 0)
			return n ? errno : EIO;
		iov.iov_base = (char *)iov.iov_base + n;
		iov.iov_len -= n;
	}
	return 0;
}

static void unpin(void)
{
	if (pipe_fds[0] >= 0) {
		close(pipe_fds[0]);
		close(pipe_fds[1]);
		pipe_fds[0] = pipe_fds[1] = -1;
	}
}

static void touch_all(void)
{
	size_t pg;

	if (dropped_half < 0) {
		touch_range(region, length);
		return;
	}
	for (pg = 0; pg < length / page_size; pg++)
		if (!page_dropped(pg))
			touch_range(region + pg * page_size, page_size);
}

/*
 * MADV_DONTNEED one half (0 first, 1 second) of every huge page, and keep
 * khugepaged from collapsing what is left into a huge page of its own.
 */
static void drop_halves(int half)
{
	size_t off;

	if (madvise(region, length, MADV_NOHUGEPAGE))
		die("madvise MADV_NOHUGEPAGE");

	for (off = 0; off < length; off += HUGE_SZ)
		if (madvise(region + off + half * HUGE_SZ / 2, HUGE_SZ / 2,
			    MADV_DONTNEED))
			die("madvise MADV_DONTNEED");
	dropped_half = half;
}

/*
 * "split": fork a child that shares the huge pages and drops their first
 * halves, then drop the second halves here. The child waits for SIGUSR1,
 * checks its halves and exits 0 when they hold the pattern.
 */
/*
 * In a child forked while a command is served: close every fd but @keep,
 * the reply FIFO among them, whose reader waits for EOF.
 */
static void close_inherited(int keep)
{
	int fd;

	for (fd = 3; fd < 1024; fd++)
		if (fd != keep)
			close(fd);
}

static pid_t split_with_child(void)
{
	sigset_t usr1;
	int ready[2], sig;
	pid_t pid;
	char c = 0;

	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	if (pipe(ready))
		die("pipe");
	pid = fork();
	if (pid < 0)
		die("fork");
	if (!pid) {
		size_t first;

		close_inherited(ready[1]);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		sigprocmask(SIG_BLOCK, &usr1, NULL);
		drop_halves(0);
		if (write(ready[1], &c, 1) != 1 || sigwait(&usr1, &sig))
			_exit(2);
		_exit(verify(&first) ? 1 : 0);
	}
	close(ready[1]);
	if (read(ready[0], &c, 1) != 1)
		die("split child");
	close(ready[0]);
	drop_halves(1);
	return pid;
}

/*
 * "ptemap": map every huge page by PTEs, each still whole: mprotect() on
 * part of a PMD mapping splits the mapping, not the page.  Return: the
 * number of huge pages, or -errno.
 */
static long pte_map(void)
{
	size_t off;

	for (off = 0; off < length; off += HUGE_SZ) {
		if (mprotect(region + off, page_size, PROT_READ) ||
		    mprotect(region + off, page_size, PROT_READ | PROT_WRITE))
			return -errno;
	}
	return length / HUGE_SZ;
}

/* "childverify": 0 when split's child found its halves intact. */
static int child_verify(void)
{
	int status;

	if (dropped_half < 0 || kill(child, SIGUSR1) ||
	    waitpid(child, &status, 0) != child)
		return -1;
	child = 0;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

/* Pages resident per mincore(2), or -errno. */
static long resident(void)
{
	size_t i, npages = length / page_size;
	unsigned char *vec = malloc(npages);
	long n = 0;

	if (!vec)
		return -ENOMEM;
	if (mincore(region, length, vec))
		n = -errno;
	for (i = 0; n >= 0 && i < npages; i++)
		n += vec[i] & 1;
	free(vec);
	return n;
}

static long long now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

/*
 * A private anonymous mapping of @len bytes at a HUGE_SZ-aligned address,
 * advised MADV_HUGEPAGE; MAP_FAILED on failure.
 */
static char *map_huge(size_t len)
{
	char *raw = mmap(NULL, len + HUGE_SZ, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *p;
	size_t head;

	if (raw == MAP_FAILED)
		return MAP_FAILED;
	p = (char *)(((uintptr_t)raw + HUGE_SZ - 1) & ~(HUGE_SZ - 1));
	head = p - raw;
	if (head)
		munmap(raw, head);
	munmap(p + len, HUGE_SZ - head);
	if (madvise(p, len, MADV_HUGEPAGE)) {
		munmap(p, len);
		return MAP_FAILED;
	}
	return p;
}

/*
 * Time one memcpy of the region into a pre-faulted buffer on @node, made of
 * pages of the region's size: under TCG the copy's speed depends on the
 * page sizes of both sides.
 */
static long long copy_to(int node)
{
	char *buf = region_thp ? map_huge(length) :
		    mmap(NULL, length, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	long long start, us;

	if (buf == MAP_FAILED)
		return -1;
	if (!bind_range(buf, length, node, 0) &&
	    madvise(buf, length, MADV_POPULATE_WRITE))
		memset(buf, 1, length);
	start = now_us();
	memcpy(buf, region, length);
	us = now_us() - start;
	munmap(buf, length);
	return us;
}

/* One write of @words to /proc/self/migrate, answered as writefile does. */
static void migrate_self(FILE *out, const char *words)
{
	int fd = open("/proc/self/migrate", O_WRONLY);
	ssize_t n;

	if (fd < 0) {
		fprintf(out, "open err %s\n", errname(errno));
		return;
	}
	n = write(fd, words, strlen(words));
	if (n < 0)
		fprintf(out, "err %s\n", errname(errno));
	else
		fprintf(out, "ok %zd\n", n);
	close(fd);
}

/*
 * A child that shares the region and waits to be killed.  With @touch it
 * maps every page too, as the child of a "shared" workload does (a
 * MAP_SHARED page is mapped in the child only once it touches it);
 * without, it touches nothing ("fork": the parent's private pages and
 * swap entries are shared with it as fork left them).
 */
static pid_t fork_sharer(int touch)
{
	int ready[2];
	pid_t pid;
	char c = 0;

	if (pipe(ready))
		die("pipe");
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid) {
		close(ready[1]);
		if (read(ready[0], &c, 1) != 1)
			die("sharer");
		close(ready[0]);
		return pid;
	}
	close_inherited(ready[1]);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (touch)
		touch_all();
	if (write(ready[1], &c, 1) != 1)
		_exit(1);
	for (;;)
		pause();
}

static void serve(const char *dir)
{
	char cmdpath[4096], replypath[4096], line[256], arg[64];
	int node;

	snprintf(cmdpath, sizeof(cmdpath), "%s/cmd", dir);
	snprintf(replypath, sizeof(replypath), "%s/reply", dir);
	for (;;) {
		FILE *in = fopen(cmdpath, "r"), *out;

		if (!in)
			die("open cmd");
		if (!fgets(line, sizeof(line), in)) {
			fclose(in);
			continue;
		}
		fclose(in);
		out = fopen(replypath, "w");
		if (!out)
			die("open reply");
		if (!strncmp(line, "where", 5)) {
			where(out);
		} else if (!strncmp(line, "verify", 6)) {
			size_t first = 0, bad = verify(&first);

			if (bad)
				fprintf(out, "bad %zu first=%zu\n", bad, first);
			else
				fprintf(out, "ok %zu\n", length / page_size);
		} else if (sscanf(line, "mbind %d %63s", &node, arg) == 2) {
			int err = bind_range(region, length, node, parse_flags(arg));

			fprintf(out, err ? "err %s\n" : "ok\n", errname(err));
		} else if (sscanf(line, "pin %d", &node) == 1) {
			int err = node > 0 ? pin(node) : EINVAL;

			fprintf(out, err ? "err %s\n" : "ok\n", errname(err));
		} else if (!strncmp(line, "touch", 5)) {
			touch_all();
			fprintf(out, "ok\n");
		} else if (sscanf(line, "copy %d", &node) == 1) {
			fprintf(out, "ok %lld\n", copy_to(node));
		} else if (sscanf(line, "dumpable %d", &node) == 1) {
			if (prctl(PR_SET_DUMPABLE, node, 0, 0, 0))
				fprintf(out, "err %s\n", errname(errno));
			else
				fprintf(out, "ok %d\n", prctl(PR_GET_DUMPABLE, 0, 0, 0, 0));
		} else if (!strncmp(line, "mincore", 7)) {
			long n = resident();

			if (n < 0)
				fprintf(out, "err %s\n", errname(-n));
			else
				fprintf(out, "resident=%ld\n", n);
		} else if (!strncmp(line, "migrate ", 8)) {
			line[strcspn(line, "\n")] = 0;
			migrate_self(out, line + 8);
		} else if (!strncmp(line, "split", 5)) {
			if (!region_thp || child)
				fprintf(out, "err EINVAL\n");
			else
				fprintf(out, "ok %d\n", child = split_with_child());
		} else if (!strncmp(line, "ptemap", 6)) {
			long n = region_thp ? pte_map() : -EINVAL;

			if (n < 0)
				fprintf(out, "err %s\n", errname(-n));
			else
				fprintf(out, "ok %ld\n", n);
		} else if (!strncmp(line, "fork", 4)) {
			if (child)
				fprintf(out, "err EINVAL\n");
			else
				fprintf(out, "ok %d\n", child = fork_sharer(0));
		} else if (!strncmp(line, "childverify", 11)) {
			fprintf(out, child_verify() ? "bad\n" : "ok\n");
		} else if (!strncmp(line, "unpin", 5)) {
			unpin();
			fprintf(out, "ok\n");
		} else if (!strncmp(line, "exit", 4)) {
			fprintf(out, "bye\n");
			fclose(out);
			return;
		} else {
			fprintf(out, "unknown command\n");
		}
		fclose(out);
	}
}

/* A MAP_SHARED mapping of @path: read-write and sized, else read-only. */
static char *map_file(const char *path, size_t len)
{
	int fd = open(path, O_RDWR);
	char *p;

	if (fd >= 0) {
		if (ftruncate(fd, len))
			die("ftruncate");
		p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	} else {
		fd = open(path, O_RDONLY);
		if (fd < 0)
			die(path);
		region_ro = 1;
		p = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
	}
	close(fd);
	return p;
}

/* SysV shm, removed at once: it lives as long as it is attached. */
static char *map_shm(size_t len)
{
	char *p;

	shm_id = shmget(IPC_PRIVATE, len, IPC_CREAT | 0600);
	if (shm_id < 0)
		die("shmget");
	p = shmat(shm_id, NULL, 0);
	if (p == (char *)-1)
		die("shmat");
	if (shmctl(shm_id, IPC_RMID, NULL))
		die("shmctl IPC_RMID");
	return p;
}

static char *map_region(const char *kind, size_t len, const char *file)
{
	int prot = PROT_READ | PROT_WRITE;
	char *p;

	region_twin = !strcmp(kind, "ksmtwin");
	if (!strcmp(kind, "anon") || !strcmp(kind, "mlock") || !strcmp(kind, "ksm") ||
	    region_twin)
		p = mmap(NULL, len, prot, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	else if (!strcmp(kind, "onfault")) {
		p = mmap(NULL, len, prot, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p != MAP_FAILED && syscall(SYS_mlock2, p, len, MLOCK_ONFAULT))
			die("mlock2");
	} else if (!strcmp(kind, "shmlock") || !strcmp(kind, "sysv"))
		p = map_shm(len);
	else if (!strcmp(kind, "file")) {
		if (!file) {
			fprintf(stderr, "workload: kind file needs -f PATH\n");
			exit(2);
		}
		p = map_file(file, len);
	} else if (!strcmp(kind, "filecow")) {
		int fd = file ? open(file, O_RDONLY) : -1;

		if (fd < 0) {
			fprintf(stderr, "workload: kind filecow needs a readable -f PATH\n");
			exit(2);
		}
		region_cow = 1;
		p = mmap(NULL, len, prot, MAP_PRIVATE, fd, 0);
		close(fd);
	} else if (!strcmp(kind, "shared"))
		p = mmap(NULL, len, prot, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	else if (!strcmp(kind, "hugetlb"))
		p = mmap(NULL, len, prot, MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB, -1, 0);
	else if (!strcmp(kind, "shmem")) {
		int fd = memfd_create("workload", 0);

		if (fd < 0 || ftruncate(fd, len))
			die("memfd");
		p = mmap(NULL, len, prot, MAP_SHARED, fd, 0);
		close(fd);
	} else if (!strcmp(kind, "thp")) {
		p = map_huge(len);
	} else {
		fprintf(stderr, "workload: unknown kind %s\n", kind);
		exit(2);
	}
	if (p == MAP_FAILED)
		die("mmap");
	return p;
}

static void make_fifo(const char *dir, const char *name)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (mkfifo(path, 0666) && errno != EEXIST)
		die("mkfifo");
	chmod(path, 0666);
}

/* Written last, renamed into place: its presence means "ready". */
static void write_info(const char *dir, const char *kind, pid_t child)
{
	char tmp[4096], path[4096];
	FILE *info;

	snprintf(tmp, sizeof(tmp), "%s/info.tmp", dir);
	snprintf(path, sizeof(path), "%s/info", dir);
	info = fopen(tmp, "w");
	if (!info)
		die("info");
	fprintf(info, "%d %lx %zu %s %d\n", getpid(), (unsigned long)(uintptr_t)region,
		length, kind, child);
	if (fclose(info) || rename(tmp, path))
		die("info");
}

/* Lock or advise the filled region, for the kinds that do so after the fill. */
static void settle_region(const char *kind)
{
	if (!strcmp(kind, "mlock") && mlock(region, length))
		die("mlock");
	if (!strcmp(kind, "shmlock") && shmctl(shm_id, SHM_LOCK, NULL))
		die("shmctl SHM_LOCK");
	if ((!strcmp(kind, "ksm") || region_twin) &&
	    madvise(region, length, MADV_MERGEABLE))
		die("madvise MADV_MERGEABLE");
}

static const char *info_dir, *info_kind;

/* Serve until "exit", then end the whole process. */
static void *serve_and_exit(void *arg)
{
	(void)arg;
	serve(info_dir);
	if (child) {
		kill(child, SIGKILL);
		waitpid(child, NULL, 0);
	}
	exit(0);
}

/* /proc/self/stat's state: 'Z' once the group leader has exited. */
static char leader_state(void)
{
	char buf[512], *p;
	FILE *f = fopen("/proc/self/stat", "r");
	size_t n;

	if (!f)
		die("/proc/self/stat");
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	p = strrchr(buf, ')');
	return p && p[1] && p[2] ? p[2] : '?';
}

/* -L: the serving thread writes DIR/info once the leader is a zombie. */
static void *serve_leaderless(void *arg)
{
	while (leader_state() != 'Z')
		usleep(1000);
	write_info(info_dir, info_kind, child);
	return serve_and_exit(arg);
}

int main(int argc, char **argv)
{
	const char *kind = "anon", *dir = NULL, *nodes = "0", *file = NULL;
	long mib = 16, reserve_gib = 0;
	int opt, leaderless = 0;
	pthread_t thread;

	while ((opt = getopt(argc, argv, "k:m:n:d:s:f:R:L")) != -1) {
		switch (opt) {
		case 'k': kind = optarg; break;
		case 'm': mib = atol(optarg); break;
		case 'n': nodes = optarg; break;
		case 'd': dir = optarg; break;
		case 's': seed = strtoull(optarg, NULL, 0); break;
		case 'f': file = optarg; break;
		case 'R': reserve_gib = atol(optarg); break;
		case 'L': leaderless = 1; break;
		default:
			fprintf(stderr, "usage: workload -k KIND -m MIB -n NODES -d DIR "
				"[-s SEED] [-f PATH] [-R GIB] [-L]\n");
			return 2;
		}
	}
	if (!dir || mib <= 0) {
		fprintf(stderr, "workload: -d DIR and -m MIB > 0 are required\n");
		return 2;
	}
	if (!seed)
		seed = getpid();
	page_size = sysconf(_SC_PAGESIZE);
	length = (size_t)mib << 20;
	region = map_region(kind, length, file);
	region_thp = !strcmp(kind, "thp");
	if (reserve_gib > 0 &&
	    mmap(NULL, (size_t)reserve_gib << 30, PROT_NONE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0) == MAP_FAILED)
		die("mmap reserve");

	place_and_fill(nodes);
	settle_region(kind);
	if (!strcmp(kind, "shared"))
		child = fork_sharer(1);

	make_fifo(dir, "cmd");
	make_fifo(dir, "reply");
	info_dir = dir;
	info_kind = kind;
	if (leaderless) {
		if (pthread_create(&thread, NULL, serve_leaderless, NULL))
			die("pthread_create");
		pthread_exit(NULL);
	}
	write_info(dir, kind, child);
	serve_and_exit(NULL);
	return 0;
}
