// SPDX-License-Identifier: GPL-2.0
/*
 * churn: a workload of one memory kind that keeps a stable region filled
 * with a pattern and, until told to stop, churns its address space while
 * other processes migrate it.
 *
 *   churn -k KIND -m MIB -n NODE [-s SEED] [-t SECONDS] [-p MS] [-r RATIO]
 *
 * KIND is anon, shared (MAP_SHARED|MAP_ANONYMOUS), shmem (memfd), thp
 * (2 MiB aligned, MADV_HUGEPAGE) or hugetlb (MAP_HUGETLB, 2 MiB pages).
 * Every region is of that kind. The stable region (MIB, a multiple of 2)
 * is faulted in on NODE and filled once; every 8-byte word holds a value
 * computed from the word's address and the seed. A second, "refill"
 * region is discarded and refilled with a new seed every round. It and the
 * scratch regions are 2 MiB (one huge page) for thp and hugetlb, 256 KiB
 * for the other kinds.
 *
 * When ready it prints "PID START_HEX LENGTH KIND" on stdout. Then each
 * round, until SIGTERM or the -t deadline, followed by a pause of -p MS or
 * of RATIO times the CPU time the round used (with its children), whichever
 * is longer, so that many churners on a slow guest leave CPU time to the
 * migrators:
 *   fork   a child verifies a quarter of the stable region (rotating) and
 *          the refill region, and exits with the result
 *   exec   a child re-executes this program (-X): for shmem it maps the
 *          inherited memfd and verifies the whole stable region in it
 *   mmap   a scratch region is mapped, filled, made read-only,
 *          verified, made writable, rewritten, madvise(MADV_DONTNEED)ed,
 *          checked (private kinds read zeros, shared kinds keep their
 *          data) and unmapped
 *   mprotect  a quarter of the stable region (rotating) goes read-only,
 *          is verified and goes back to read-write: content kept
 *   DONTNEED  the refill region is discarded, checked as above, refilled
 *          with the round's seed and verified
 * At the end it verifies every page of both regions and prints
 * "ok PAGES rounds=N" (exit 0), or one "bad round N: ..." line per failed
 * check as it happens and "bad pages=N first=INDEX failed-checks=N
 * rounds=N" (exit 1; INDEX counts the stable region's pages, then the
 * refill region's).
 *
 * "churn -X FD ADDR LENGTH SEED" is the exec'd child's mode.
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
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MPOL_DEFAULT 0
#define MPOL_BIND 2
#define MAX_NODES 64
#define HUGE_SZ (2UL << 20)
#define SMALL_SZ (256UL << 10)

struct region {
	char *p;		/* 2 MiB aligned start */
	size_t len;
	char *raw;		/* what to munmap */
	size_t raw_len;
	int fd;			/* shmem: the memfd, else -1 */
};

static const char *kind;
static int shared_kind;		/* DONTNEED keeps the data of shared kinds */
static size_t churn_sz;		/* of the scratch and refill regions */
static size_t page_size;
static volatile sig_atomic_t stop;
static unsigned long failures;

static void die(const char *what)
{
	fprintf(stderr, "churn: %s: %s\n", what, strerror(errno));
	exit(2);
}

/* The value of the word at logical address @addr for @seed. */
static uint64_t pattern(uint64_t addr, uint64_t seed)
{
	uint64_t x = addr ^ (seed * 0x9e3779b97f4a7c15ULL);

	x ^= x >> 29;
	return x * 0xbf58476d1ce4e5b9ULL;
}

static void fill(char *start, size_t len, uint64_t seed)
{
	uint64_t *w = (uint64_t *)start, *end = (uint64_t *)(start + len);

	for (; w < end; w++)
		*w = pattern((uint64_t)(uintptr_t)w, seed);
}

/*
 * Count the bad pages of [start, start + len), mapped at @start but filled
 * when it was at @logical; *first is the index of the first bad one. With
 * @zero, every word must be 0 instead.
 */
static size_t check(const char *start, size_t len, uint64_t logical,
		    uint64_t seed, int zero, size_t *first)
{
	size_t bad = 0, pg, npages = len / page_size;

	for (pg = 0; pg < npages; pg++) {
		const uint64_t *w = (const uint64_t *)(start + pg * page_size);
		uint64_t a = logical + pg * page_size;
		size_t i;

		for (i = 0; i < page_size / sizeof(*w); i++, a += sizeof(*w)) {
			if (w[i] != (zero ? 0 : pattern(a, seed))) {
				if (!bad && first)
					*first = pg;
				bad++;
				break;
			}
		}
	}
	return bad;
}

static size_t verify(const char *start, size_t len, uint64_t seed)
{
	return check(start, len, (uint64_t)(uintptr_t)start, seed, 0, NULL);
}

/* A failed check: one line now, "bad" at the end. */
static void fail(unsigned long round, const char *what, size_t bad)
{
	failures++;
	if (bad)
		printf("bad round %lu: %s (%zu pages)\n", round, what, bad);
	else
		printf("bad round %lu: %s\n", round, what);
	fflush(stdout);
}

static void map_kind(struct region *r, size_t len)
{
	int prot = PROT_READ | PROT_WRITE;
	int flags = MAP_PRIVATE | MAP_ANONYMOUS;

	r->fd = -1;
	r->len = len;
	r->raw_len = len;
	if (!strcmp(kind, "shared")) {
		flags = MAP_SHARED | MAP_ANONYMOUS;
	} else if (!strcmp(kind, "hugetlb")) {
		flags |= MAP_HUGETLB;
	} else if (!strcmp(kind, "shmem")) {
		r->fd = memfd_create("churn", 0);
		if (r->fd < 0 || ftruncate(r->fd, len))
			die("memfd");
		flags = MAP_SHARED;
	} else if (!strcmp(kind, "thp")) {
		r->raw_len = len + HUGE_SZ;
	}
	r->raw = mmap(NULL, r->raw_len, prot, flags, r->fd, 0);
	if (r->raw == MAP_FAILED)
		die("mmap");
	r->p = r->raw;
	if (!strcmp(kind, "thp")) {
		r->p = (char *)(((uintptr_t)r->raw + HUGE_SZ - 1) & ~(HUGE_SZ - 1));
		if (madvise(r->p, len, MADV_HUGEPAGE))
			die("madvise hugepage");
	}
}

static void unmap_kind(struct region *r)
{
	if (munmap(r->raw, r->raw_len))
		die("munmap");
	if (r->fd >= 0)
		close(r->fd);
}

/* Fault @r in on @node (task policy, dropped after) and fill it. */
static void place_and_fill(struct region *r, int node, uint64_t seed)
{
	unsigned long mask[MAX_NODES / (8 * sizeof(long)) + 1] = { 0 };

	mask[node / (8 * sizeof(long))] = 1UL << (node % (8 * sizeof(long)));
	if (syscall(SYS_set_mempolicy, MPOL_BIND, mask, MAX_NODES + 1))
		die("set_mempolicy");
	fill(r->p, r->len, seed);
	if (syscall(SYS_set_mempolicy, MPOL_DEFAULT, NULL, 0))
		die("set_mempolicy default");
}

static void protect(char *p, size_t len, int prot)
{
	if (mprotect(p, len, prot))
		die("mprotect");
}

static void dontneed(char *p, size_t len)
{
	if (madvise(p, len, MADV_DONTNEED))
		die("madvise dontneed");
}

/*
 * After MADV_DONTNEED a private region reads zeros, a shared one still
 * holds what it held (@seed).
 */
static size_t check_discarded(const char *p, size_t len, uint64_t seed)
{
	return check(p, len, (uint64_t)(uintptr_t)p, seed, !shared_kind, NULL);
}

/* Wait for @pid; its exit status, or -1 for a signal. */
static int reap(pid_t pid)
{
	int status;

	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			die("waitpid");
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static pid_t spawn(void)
{
	pid_t pid = fork();

	if (pid < 0)
		die("fork");
	if (!pid)
		signal(SIGTERM, SIG_DFL);
	return pid;
}

/*
 * The stable region's i-th quarter, or the whole region when a quarter is
 * not a whole number of pages (hugetlb: of 2 MiB pages).
 */
static void quarter(const struct region *r, unsigned long i, char **p, size_t *len)
{
	size_t q = r->len / 4;

	if (!q || q % (strcmp(kind, "hugetlb") ? page_size : HUGE_SZ)) {
		*p = r->p;
		*len = r->len;
		return;
	}
	*p = r->p + (i % 4) * q;
	*len = q;
}

static void round_fork(const struct region *st, const struct region *rf,
		       uint64_t seed, uint64_t rseed, unsigned long round)
{
	pid_t pid = spawn();
	char *p;
	size_t len;
	int rc;

	if (!pid) {
		quarter(st, round, &p, &len);
		_exit(verify(p, len, seed) || verify(rf->p, rf->len, rseed) ? 1 : 0);
	}
	rc = reap(pid);
	if (rc)
		fail(round, rc < 0 ? "fork child killed" : "fork child found bad pages", 0);
}

static char self[4096];

static void round_exec(const struct region *st, uint64_t seed, unsigned long round)
{
	char fd[16], addr[32], len[32], sd[32];
	pid_t pid = spawn();
	int rc;

	if (!pid) {
		snprintf(fd, sizeof(fd), "%d", st->fd);
		snprintf(addr, sizeof(addr), "%lu", (unsigned long)(uintptr_t)st->p);
		snprintf(len, sizeof(len), "%zu", st->len);
		snprintf(sd, sizeof(sd), "%llu", (unsigned long long)seed);
		execl(self, "churn", "-X", fd, addr, len, sd, (char *)NULL);
		_exit(127);
	}
	rc = reap(pid);
	if (rc)
		fail(round, rc == 127 ? "exec failed" : rc < 0 ? "exec child killed" :
		     "exec child found bad pages", 0);
}

static void round_scratch(uint64_t rseed, unsigned long round)
{
	struct region s;
	size_t bad;

	map_kind(&s, churn_sz);
	fill(s.p, s.len, rseed);
	protect(s.p, s.len, PROT_READ);
	bad = verify(s.p, s.len, rseed);
	if (bad)
		fail(round, "scratch read-only", bad);
	protect(s.p, s.len, PROT_READ | PROT_WRITE);
	fill(s.p, s.len, rseed + 1);
	dontneed(s.p, s.len);
	bad = check_discarded(s.p, s.len, rseed + 1);
	if (bad)
		fail(round, "scratch after DONTNEED", bad);
	unmap_kind(&s);
}

static void round_protect(const struct region *st, uint64_t seed, unsigned long round)
{
	char *p;
	size_t len, bad;

	quarter(st, round + 2, &p, &len);
	protect(p, len, PROT_READ);
	bad = verify(p, len, seed);
	protect(p, len, PROT_READ | PROT_WRITE);
	if (bad)
		fail(round, "stable quarter read-only", bad);
}

static void round_refill(const struct region *rf, uint64_t old, uint64_t rseed,
			 unsigned long round)
{
	size_t bad;

	dontneed(rf->p, rf->len);
	bad = check_discarded(rf->p, rf->len, old);
	if (bad)
		fail(round, "refill region after DONTNEED", bad);
	fill(rf->p, rf->len, rseed);
	bad = verify(rf->p, rf->len, rseed);
	if (bad)
		fail(round, "refill region refilled", bad);
}

/* -X FD ADDR LEN SEED: the exec'd child; a memfd is verified, else nothing. */
static int exec_child(char **argv)
{
	int fd = atoi(argv[0]);
	uint64_t addr = strtoull(argv[1], NULL, 10), seed = strtoull(argv[3], NULL, 10);
	size_t len = strtoull(argv[2], NULL, 10), bad;
	char *p;

	if (fd < 0)
		return 0;
	p = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		return 3;
	page_size = sysconf(_SC_PAGESIZE);
	bad = check(p, len, addr, seed, 0, NULL);
	munmap(p, len);
	return bad ? 1 : 0;
}

static void on_term(int sig)
{
	(void)sig;
	stop = 1;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* CPU time used by this process and its reaped children, in seconds. */
static double cpu_time(void)
{
	struct rusage self, children;

	getrusage(RUSAGE_SELF, &self);
	getrusage(RUSAGE_CHILDREN, &children);
	return self.ru_utime.tv_sec + self.ru_stime.tv_sec + children.ru_utime.tv_sec +
	       children.ru_stime.tv_sec + (self.ru_utime.tv_usec + self.ru_stime.tv_usec +
	       children.ru_utime.tv_usec + children.ru_stime.tv_usec) / 1e6;
}

static void pause_s(double s)
{
	struct timespec ts = { .tv_sec = (time_t)s, .tv_nsec = (long)((s - (time_t)s) * 1e9) };

	if (s > 0)
		nanosleep(&ts, NULL);
}

static int usage(void)
{
	fprintf(stderr, "usage: churn -k KIND -m MIB -n NODE [-s SEED] [-t SECONDS] [-p MS]"
		" [-r RATIO]\n"
		"  KIND: anon shared shmem thp hugetlb; MIB: a multiple of 2\n");
	return 2;
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_term };
	struct region st, rf;
	long mib = 4, node = 0, seconds = 0, pause = 0, ratio = 0;
	ssize_t n;
	uint64_t seed = 0, rseed;
	unsigned long round = 0;
	size_t first = 0, rfirst = 0, bad, rbad;
	double deadline, start, used;
	int opt;

	if (argc == 6 && !strcmp(argv[1], "-X"))
		return exec_child(argv + 2);
	while ((opt = getopt(argc, argv, "k:m:n:s:t:p:r:")) != -1) {
		switch (opt) {
		case 'k': kind = optarg; break;
		case 'm': mib = atol(optarg); break;
		case 'n': node = atol(optarg); break;
		case 's': seed = strtoull(optarg, NULL, 0); break;
		case 't': seconds = atol(optarg); break;
		case 'p': pause = atol(optarg); break;
		case 'r': ratio = atol(optarg); break;
		default: return usage();
		}
	}
	if (optind != argc || !kind || mib <= 0 || mib % 2 || node < 0 ||
	    node >= MAX_NODES || seconds < 0 || pause < 0 || ratio < 0)
		return usage();
	if (strcmp(kind, "anon") && strcmp(kind, "shared") && strcmp(kind, "shmem") &&
	    strcmp(kind, "thp") && strcmp(kind, "hugetlb"))
		return usage();
	shared_kind = !strcmp(kind, "shared") || !strcmp(kind, "shmem");
	churn_sz = strcmp(kind, "thp") && strcmp(kind, "hugetlb") ? SMALL_SZ : HUGE_SZ;
	page_size = sysconf(_SC_PAGESIZE);
	/* The exec'd children run this program under its own name. */
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0)
		die("readlink /proc/self/exe");
	self[n] = 0;
	if (!seed)
		seed = getpid();
	sigaction(SIGTERM, &sa, NULL);
	deadline = seconds ? now() + seconds : 0;

	map_kind(&st, (size_t)mib << 20);
	map_kind(&rf, churn_sz);
	rseed = seed + 1;
	place_and_fill(&st, node, seed);
	place_and_fill(&rf, node, rseed);
	printf("%d %lx %zu %s\n", getpid(), (unsigned long)(uintptr_t)st.p, st.len, kind);
	fflush(stdout);

	while (!stop && (!deadline || now() < deadline)) {
		uint64_t old = rseed;

		start = cpu_time();
		round++;
		rseed = seed + 1 + round;
		round_fork(&st, &rf, seed, old, round);
		round_exec(&st, seed, round);
		round_scratch(rseed, round);
		round_protect(&st, seed, round);
		round_refill(&rf, old, rseed, round);
		used = ratio * (cpu_time() - start);
		pause_s(pause / 1e3 > used ? pause / 1e3 : used);
	}

	bad = check(st.p, st.len, (uint64_t)(uintptr_t)st.p, seed, 0, &first);
	rbad = check(rf.p, rf.len, (uint64_t)(uintptr_t)rf.p, rseed, 0, &rfirst);
	if (!bad && rbad)
		first = st.len / page_size + rfirst;
	bad += rbad;
	if (bad || failures) {
		printf("bad pages=%zu first=%zu failed-checks=%lu rounds=%lu\n",
		       bad, first, failures, round);
		return 1;
	}
	printf("ok %zu rounds=%lu\n", (st.len + rf.len) / page_size, round);
	return 0;
}
