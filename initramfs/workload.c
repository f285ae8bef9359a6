// SPDX-License-Identifier: GPL-2.0
/*
 * workload: map memory of one kind, place it on a node, fill every page
 * with a pattern that encodes the page's address and a seed, then serve
 * commands read line by line from a FIFO until told to exit.
 *
 *   workload -k KIND -m MIB -n NODES -d DIR [-s SEED]
 *
 * NODES is a comma-separated list: the region is cut into that many equal
 * chunks and chunk i is placed on the i-th node ("0,1,1,1" puts a quarter
 * on node 0 and the rest on node 1).
 *
 * KIND is anon, shared (MAP_SHARED|MAP_ANONYMOUS, also mapped and touched
 * by a forked child), shmem (memfd), thp (2 MiB aligned, MADV_HUGEPAGE)
 * or hugetlb (MAP_HUGETLB, 2 MiB pages).
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
 *   exit
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "errname.h"

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
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
static uint64_t seed;

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

/* The value stored at word address @p: changes with every word and seed. */
static uint64_t pattern(const uint64_t *p)
{
	uint64_t x = (uint64_t)(uintptr_t)p ^ (seed * 0x9e3779b97f4a7c15ULL);

	x ^= x >> 29;
	return x * 0xbf58476d1ce4e5b9ULL;
}

static void fill(char *start, size_t len)
{
	uint64_t *w = (uint64_t *)start, *end = (uint64_t *)(start + len);

	for (; w < end; w++)
		*w = pattern(w);
}

/* Number of bad pages; *first is the index of the first one. */
static size_t verify(size_t *first)
{
	size_t bad = 0, pg, npages = length / page_size;

	for (pg = 0; pg < npages; pg++) {
		const uint64_t *w = (const uint64_t *)(region + pg * page_size);
		const uint64_t *end = w + page_size / sizeof(*w);

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
		madvise(region + i * chunk, chunk, MADV_POPULATE_WRITE);
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
	volatile char sink = 0;
	size_t off;

	for (off = 0; off < length; off += page_size)
		sink += region[off];
	(void)sink;
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

static char *map_region(const char *kind, size_t len)
{
	int prot = PROT_READ | PROT_WRITE;
	char *p;

	if (!strcmp(kind, "anon"))
		p = mmap(NULL, len, prot, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	else if (!strcmp(kind, "shared"))
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

/*
 * The child of a "shared" workload maps every page too (a MAP_SHARED page
 * is mapped in the child only once it touches it), then waits.
 */
static pid_t fork_sharer(void)
{
	int ready[2];
	pid_t pid;
	size_t off;
	volatile char sink = 0;
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
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	for (off = 0; off < length; off += page_size)
		sink += region[off];
	(void)sink;
	if (write(ready[1], &c, 1) != 1)
		_exit(1);
	for (;;)
		pause();
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

int main(int argc, char **argv)
{
	const char *kind = "anon", *dir = NULL, *nodes = "0";
	long mib = 16;
	int opt;
	pid_t child = 0;

	while ((opt = getopt(argc, argv, "k:m:n:d:s:")) != -1) {
		switch (opt) {
		case 'k': kind = optarg; break;
		case 'm': mib = atol(optarg); break;
		case 'n': nodes = optarg; break;
		case 'd': dir = optarg; break;
		case 's': seed = strtoull(optarg, NULL, 0); break;
		default:
			fprintf(stderr, "usage: workload -k KIND -m MIB -n NODES -d DIR [-s SEED]\n");
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
	region = map_region(kind, length);
	region_thp = !strcmp(kind, "thp");

	place_and_fill(nodes);
	if (!strcmp(kind, "shared"))
		child = fork_sharer();

	make_fifo(dir, "cmd");
	make_fifo(dir, "reply");
	write_info(dir, kind, child);
	serve(dir);
	if (child) {
		kill(child, SIGKILL);
		waitpid(child, NULL, 0);
	}
	return 0;
}
