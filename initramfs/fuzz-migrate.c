// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-migrate: seeded fuzzing of /proc/PID/migrate and nodeN/vacate.
 *
 *   fuzz-migrate -t proc|vacate -p PID -a ADDR -l LEN [-s SEED] [-n COUNT]
 *                [-N NODE] [-P SAMPLES] [-i INDEX] [-x ERRNAME] [-v]
 *   fuzz-migrate -D [-t proc|vacate] [-s SEED] [-n COUNT] [-N NODE] [-v]
 *
 * Writes COUNT generated inputs to /proc/PID/migrate (-t proc) or to
 * /sys/devices/system/node/nodeNODE/vacate (-t vacate) and checks each
 * result against the contract of docs/interfaces.md:
 *
 *  - a write returns its full count or fails with an errno of the
 *    documented set that can occur for a root writer on a living target
 *    (EINVAL, EAGAIN, ENOMEM; EPERM, ESRCH, EINTR and EACCES cannot);
 *  - the verdict matches a model of the documented grammar: "FROM TO
 *    [direct|swap]" or a node list / "all" for vacate, node lists in the
 *    kernel's list format (lib/bitmap.c, bitmap_parselist(), which ends a
 *    list at a newline or NUL), one write at offset 0 shorter than a page
 *    without NUL bytes for proc; for vacate, sysfs hands the file at most
 *    a page, so a longer write acts on its first page and returns 4096
 *    (counted as "short");
 *  - a rejected write moved nothing: the placement of the target region
 *    (PID ADDR LEN, a workload's info file), sampled with move_pages(2),
 *    is the one before the write;
 *  - an accepted write moved the sampled pages where the input says (the
 *    mapping of do_migrate_pages() replayed; "swap" evicts them; vacate
 *    empties NODE), a partial one (EAGAIN, ENOMEM) each page either there
 *    or where it was; no page was lost and every sampled page's data is
 *    unchanged. The fuzzer then faults the pages back in and puts them
 *    where they were at the start, so every input meets the same layout.
 *
 * Inputs come from five generators: random bytes, near-miss grammar
 * (huge, negative and out-of-range numbers, reversed ranges, group
 * patterns, missing, extra and many tokens, odd separators, method word
 * variants, trailing garbage, embedded NUL), page-sized and larger inputs,
 * pwrite(2) at other offsets, and inputs split into two writes, the second
 * at a non-zero offset. Each input is written through a fresh fd or
 * through one kept open for the whole run. Input INDEX of SEED is always
 * the same bytes (its generator is seeded from SEED and INDEX alone):
 * "-i INDEX" replays it alone (with -v, each of its writes and results)
 * and prints it whole. A failure prints the seed, the index and a hex dump
 * of the input (its first 512 bytes); the first five failures are shown;
 * the exit status is 1 when anything failed.
 *
 *   -P SAMPLES  pages of the region whose placement and data are checked
 *               (default 16, spread evenly over it: every migration moves
 *               all of a process's pages on a node, so a few suffice)
 *   -x ERRNAME  remove ERRNAME from the allowed set (shows that the check
 *               can fail)
 *   -v          print every write and its result
 *   -D          dry run: no writes, only the model's verdicts (each with
 *               -v) and counts (nodes 0-1 online with memory assumed)
 *
 * Last lines: "fuzz-migrate: TYPE seed=S inputs=N writes=N accepted=N
 * rejected=N moved=N evicted=N short=N failures=N" (accepted and rejected
 * count writes; moved: writes after which sampled pages had moved,
 * evicted: of those, writes that evicted some), the errnos ("errno
 * EINVAL=N ..."), the inputs per generator and where the time went.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "errname.h"

/* MAX_NUMNODES of the rig's kernels: CONFIG_NODES_SHIFT=10 (scripts/kernel.config). */
#define MAX_NODES 1024
#define MPOL_MF_MOVE_ALL (1 << 2)
#define MAX_SAMPLES 1024
#define MAX_ERRNO 134
#define INPUT_MAX (65536 + 8192)
#define MAX_REPORTS 5
/* move_pages(2) status of a page that is not present (evicted to swap). */
#define ST_EVICTED (-ENOENT)
/* Prediction: any destination node of the vacate. */
#define ST_ANY_DEST (-1000)

enum iface { PROC, VACATE };
enum gen { G_RANDOM, G_GRAMMAR, G_LONG, G_OFFSET, G_SPLIT, NR_GENS };
static const char *const gen_names[NR_GENS] = { "random", "grammar", "long", "offset", "split" };

typedef struct { uint64_t w[MAX_NODES / 64]; } nodeset;

struct rng { uint64_t s; };

struct buf {
	unsigned char *p;
	size_t len;
};

/* One input: up to two writes of consecutive pieces of the bytes. */
struct part {
	size_t start, len;
	long long off;		/* pwrite(2) offset, or -1: write(2) */
	int pwrite;
	long long pos;		/* the position the write had */
};

struct input {
	enum gen gen;
	int fresh;		/* its own open(2) rather than the shared fd */
	int nparts;
	struct part part[2];
	struct buf b;
};

struct verdict {
	int err;		/* 0: valid; else the errno the grammar gives */
	size_t ret;		/* the count a valid write returns */
	int noop;		/* a valid write that cannot move anything */
	nodeset from, to;
	int evict;
};

static enum iface iface = PROC;
static int page_size = 4096;
static nodeset online, memory;
static int vnode;		/* vacate's node */
static int verbose, dry_run;
static uint64_t seed = 1;
static int allowed[MAX_ERRNO];

/* The target region and its sampled pages. */
static pid_t pid;
static int nsamples = 16;
static void *pages[MAX_SAMPLES];
static int home[MAX_SAMPLES], snap[MAX_SAMPLES], now[MAX_SAMPLES];
static uint64_t sums[MAX_SAMPLES];
static char *readbuf;

/* Tallies. */
static long inputs, writes, accepted, rejected, moved, evicted, failures, shorts;
static long per_errno[MAX_ERRNO], per_gen[NR_GENS];
/* Where the time goes, in microseconds: writes, placement queries, the
 * checks and restoring after a move (reading the data), open and close. */
static long long t_write, t_query, t_after, t_sums, t_open;

static long long now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

/* ---- PRNG: xorshift64*, each input seeded by splitmix64(SEED, INDEX) ---- */

static uint64_t splitmix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

static void rng_init(struct rng *r, uint64_t s, uint64_t index)
{
	r->s = splitmix(s ^ splitmix(index + 1));
	if (!r->s)
		r->s = 1;
}

static uint64_t rnd(struct rng *r)
{
	r->s ^= r->s >> 12;
	r->s ^= r->s << 25;
	r->s ^= r->s >> 27;
	return r->s * 0x2545f4914f6cdd1dULL;
}

static unsigned int below(struct rng *r, unsigned int n)
{
	return n ? (unsigned int)((rnd(r) >> 32) % n) : 0;
}

static int chance(struct rng *r, unsigned int pct)
{
	return below(r, 100) < pct;
}

static const char *pick(struct rng *r, const char *const *v, size_t n)
{
	return v[below(r, (unsigned int)n)];
}

#define PICK(r, v) pick(r, v, sizeof(v) / sizeof(v[0]))

/* ---- node sets ---- */

static void ns_set(nodeset *m, unsigned int n) { m->w[n / 64] |= 1ULL << (n % 64); }
static int ns_isset(const nodeset *m, unsigned int n) { return !!(m->w[n / 64] & (1ULL << (n % 64))); }

static int ns_weight(const nodeset *m)
{
	int i, w = 0;

	for (i = 0; i < MAX_NODES / 64; i++)
		w += __builtin_popcountll(m->w[i]);
	return w;
}

static int ns_subset(const nodeset *a, const nodeset *b)
{
	int i;

	for (i = 0; i < MAX_NODES / 64; i++)
		if (a->w[i] & ~b->w[i])
			return 0;
	return 1;
}

/* The position of node @n among the nodes of @m, as bitmap_pos_to_ord(). */
static int ns_ord(const nodeset *m, int n)
{
	int k, o = 0;

	for (k = 0; k < n; k++)
		o += ns_isset(m, k);
	return o;
}

/* The @nth (from 0) node of @m, as find_nth_bit(). */
static int ns_nth(const nodeset *m, int nth)
{
	int n;

	for (n = 0; n < MAX_NODES; n++)
		if (ns_isset(m, n) && nth-- == 0)
			return n;
	return MAX_NODES;
}

/* ---- the model: lib/bitmap.c's list format, the two files' rules ---- */

/* The kernel's isspace() (lib/ctype.c): 9-13, 32 and 160. */
static int kspace(unsigned char c) { return c == ' ' || (c >= 9 && c <= 13) || c == 0xa0; }
static int end_of_str(unsigned char c) { return c == '\0' || c == '\n'; }
static int region_sep(unsigned char c) { return kspace(c) || c == ','; }
static int end_of_region(unsigned char c) { return region_sep(c) || end_of_str(c); }

/* bitmap_getnum(): a decimal that fits an unsigned int, or "N"; NULL on error. */
static const unsigned char *getnum(const unsigned char *s, unsigned int *num)
{
	uint64_t n = 0;
	int digits = 0, over = 0;

	if (*s == 'N') {
		*num = MAX_NODES - 1;
		return s + 1;
	}
	for (; *s >= '0' && *s <= '9'; s++, digits++) {
		unsigned int v = *s - '0';

		if (n > (UINT64_MAX - v) / 10)
			over = 1;
		n = n * 10 + v;
	}
	if (!digits || over || n > UINT_MAX)
		return NULL;
	*num = (unsigned int)n;
	return s;
}

struct region { unsigned int start, end, off, group; };

static int is_all(const unsigned char *s)
{
	return (s[0] | 0x20) == 'a' && (s[1] | 0x20) == 'l' && (s[2] | 0x20) == 'l';
}

/* bitmap_parse_region(): the rest of the string, NULL at its end; *bad on error. */
static const unsigned char *parse_region(const unsigned char *s, struct region *r, int *bad)
{
	if (is_all(s)) {
		r->start = 0;
		r->end = MAX_NODES - 1;
		s += 3;
		goto pattern;
	}
	s = getnum(s, &r->start);
	if (!s)
		goto bad;
	if (end_of_region(*s))
		goto no_end;
	if (*s != '-')
		goto bad;
	s = getnum(s + 1, &r->end);
	if (!s)
		goto bad;
pattern:
	if (end_of_region(*s))
		goto no_pattern;
	if (*s != ':')
		goto bad;
	s = getnum(s + 1, &r->off);
	if (!s || *s != '/')
		goto bad;
	s = getnum(s + 1, &r->group);
	if (!s)
		goto bad;
	return s;
no_end:
	r->end = r->start;
no_pattern:
	r->off = r->end + 1;
	r->group = r->end + 1;
	return end_of_str(*s) ? NULL : s;
bad:
	*bad = 1;
	return NULL;
}

/* bitmap_parselist() into a MAX_NODES-bit set: 0 or -1. */
static int parselist(const unsigned char *s, nodeset *m)
{
	struct region r;
	unsigned int start;
	int bad = 0;

	memset(m, 0, sizeof(*m));
	while (s) {
		while (region_sep(*s))
			s++;
		if (end_of_str(*s))
			return 0;
		s = parse_region(s, &r, &bad);
		if (bad)
			return -1;
		if (r.start > r.end || !r.group || r.off > r.group || r.end >= MAX_NODES)
			return -1;
		/* bitmap_set_region(), unsigned int arithmetic included */
		for (start = r.start; start <= r.end; start += r.group) {
			unsigned int n = r.end - start + 1 < r.off ? r.end - start + 1 : r.off, i;

			for (i = 0; i < n; i++)
				ns_set(m, start + i);
		}
	}
	return 0;
}

/* mpol_parse_nodelist(): a non-empty list of nodes all in @state. */
static int nodelist(const unsigned char *s, nodeset *m, const nodeset *state)
{
	return parselist(s, m) || !ns_weight(m) || !ns_subset(m, state) ? -1 : 0;
}

/* The VFS's checks of a write's position (rw_verify_area, pwrite64). */
static int bad_pos(long long off, size_t len)
{
	return off < 0 || (unsigned long long)off + len > (unsigned long long)LLONG_MAX;
}

/* /proc/PID/migrate: one write at offset 0, shorter than a page, no NUL,
 * "FROM TO [direct|swap]" split at spaces, tabs and newlines. */
static void judge_proc(const unsigned char *p, size_t len, long long off, struct verdict *v)
{
	static unsigned char tmp[INPUT_MAX + 1];
	unsigned char *words[3], *s = tmp, *w;
	int n = 0;

	memset(v, 0, sizeof(*v));
	v->err = EINVAL;
	if (bad_pos(off, len) || off != 0 || len >= (size_t)page_size || memchr(p, 0, len))
		return;
	memcpy(tmp, p, len);
	tmp[len] = 0;
	while (s) {
		w = s;
		s += strcspn((char *)s, " \t\n");
		if (*s)
			*s++ = 0;
		else
			s = NULL;
		if (!*w)
			continue;
		if (n == 3)
			return;
		words[n++] = w;
	}
	if (n < 2)
		return;
	v->evict = n == 3 && !strcmp((char *)words[2], "swap");
	if (n == 3 && !v->evict && strcmp((char *)words[2], "direct"))
		return;
	if (nodelist(words[0], &v->from, &online) || nodelist(words[1], &v->to, &memory))
		return;
	v->err = 0;
	v->ret = len;
}

/* sysfs_streq(s, "all"): "all", optionally followed by one newline. */
static int streq_all(const unsigned char *s)
{
	return !strcmp((const char *)s, "all") || !strcmp((const char *)s, "all\n");
}

/* nodeN/vacate: sysfs hands the store at most a page, NUL-terminated;
 * "all" or a non-empty list of nodes with memory without N itself. */
static void judge_vacate(const unsigned char *p, size_t len, long long off, struct verdict *v)
{
	static unsigned char tmp[INPUT_MAX + 1];
	size_t n = len < (size_t)page_size ? len : (size_t)page_size;
	int i;

	memset(v, 0, sizeof(*v));
	v->err = EINVAL;
	if (bad_pos(off, len))
		return;
	memcpy(tmp, p, n);
	tmp[n] = 0;
	if (!n) {
		v->noop = 1;
	} else if (streq_all(tmp)) {
		v->to = memory;
		v->to.w[vnode / 64] &= ~(1ULL << (vnode % 64));
		if (!ns_weight(&v->to))
			return;
	} else if (nodelist(tmp, &v->to, &memory) || ns_isset(&v->to, vnode)) {
		return;
	}
	if (!ns_isset(&memory, vnode))
		v->noop = 1;
	for (i = 0; i < MAX_NODES; i++)
		if (ns_isset(&online, i))
			ns_set(&v->from, i);
	v->err = 0;
	v->ret = n;
}

static void judge(const unsigned char *p, size_t len, long long off, struct verdict *v)
{
	if (iface == PROC)
		judge_proc(p, len, off, v);
	else
		judge_vacate(p, len, off, v);
}

/*
 * Where a page on node @node goes for a valid verdict: replay
 * do_migrate_pages()'s choice of (source, dest) pairs for proc, "any
 * destination" off the vacated node. ST_EVICTED for a page "swap" evicts.
 */
static int predict(const struct verdict *v, int node)
{
	nodeset tmp = v->from;
	int cur = node, s, d, source, dest;
	int wf = ns_weight(&v->from), wt = ns_weight(&v->to);

	if (node < 0 || v->noop)
		return node;
	if (iface == VACATE)
		return node == vnode ? ST_ANY_DEST : node;
	while (ns_weight(&tmp)) {
		source = -1;
		dest = 0;
		for (s = 0; s < MAX_NODES; s++) {
			if (!ns_isset(&tmp, s))
				continue;
			if (wf != wt && ns_isset(&v->to, s))
				continue;
			/* node_remap(): the same position in @to, modulo its weight */
			d = ns_nth(&v->to, ns_ord(&v->from, s) % wt);
			if (s == d)
				continue;
			source = s;
			dest = d;
			if (!ns_isset(&tmp, dest))
				break;
		}
		if (source < 0)
			break;
		tmp.w[source / 64] &= ~(1ULL << (source % 64));
		if (cur == source) {
			if (v->evict)
				return ST_EVICTED;
			cur = dest;
		}
	}
	return cur;
}

/* ---- generators ---- */

static void put(struct buf *b, const void *s, size_t n)
{
	if (n > INPUT_MAX - b->len)
		n = INPUT_MAX - b->len;
	memcpy(b->p + b->len, s, n);
	b->len += n;
}

static void put_str(struct buf *b, const char *s) { put(b, s, strlen(s)); }

static void put_byte(struct buf *b, unsigned char c)
{
	if (b->len < INPUT_MAX)
		b->p[b->len++] = c;
}

static void put_uint(struct buf *b, unsigned long long n)
{
	char s[32];

	snprintf(s, sizeof(s), "%llu", n);
	put_str(b, s);
}

/* A random node of @m (node 0 if @m is empty). */
static int some_node(struct rng *r, const nodeset *m)
{
	int w = ns_weight(m);

	return w ? ns_nth(m, (int)below(r, (unsigned int)w)) : 0;
}

static const char *const odd_numbers[] = {
	"2", "3", "7", "63", "64", "127", "1023", "1024", "4095", "65535",
	"2147483647", "2147483648", "4294967295", "4294967296",
	"18446744073709551615", "18446744073709551616", "99999999999999999999",
	"-1", "-0", "+1", "01", "00", "0001", "0x1", "1e1", "1.0", "N", "n",
	"", "\xd9\xa1", "\xef\xbc\x91", "0\xa0", "1\r",
};

/* A node number: an existing one when @sane, often something else if not. */
static void gen_number(struct rng *r, struct buf *b, const nodeset *pool, int sane)
{
	if (sane || chance(r, iface == PROC ? 65 : 12))
		put_uint(b, (unsigned long long)some_node(r, pool));
	else if (chance(r, 10))
		put_uint(b, rnd(r) >> below(r, 64));
	else
		put_str(b, PICK(r, odd_numbers));
}

static const char *const odd_items[] = {
	"all", "ALL", "N", "0-N", "N-0", "all:1/1024", "0-1:1/2", "0-1023:1/1024",
	"0-1:0/1", "0-1:2/1", "0-1:1/0", "0-1:1", "0-1:/2", "0-1/2", "1-1",
	"0--1", "-", "--", "1-", "-1-", "0-1-1", ":", "/", "0:1/2", "1-0:1/1",
	"0-4294967295:1/4294967295", "1-5:1/4294967295",
};

/* One item of a list: a node, a range or a range with a group pattern. */
static void gen_item(struct rng *r, struct buf *b, const nodeset *pool, int sane)
{
	unsigned int form = below(r, 10);

	if (!sane && form == 9) {
		put_str(b, PICK(r, odd_items));
	} else if (form < 6) {
		gen_number(r, b, pool, sane);
	} else {
		int a = some_node(r, pool), z = some_node(r, pool), t;

		/* sane ranges are ascending; others are reversed half the time */
		if ((a > z) == (sane || chance(r, 50))) {
			t = a;
			a = z;
			z = t;
		}
		if (!sane && chance(r, 40)) {
			gen_number(r, b, pool, 0);
			put_byte(b, '-');
			gen_number(r, b, pool, 0);
		} else {
			put_uint(b, (unsigned long long)a);
			put_byte(b, '-');
			put_uint(b, (unsigned long long)z);
		}
		if (form == 8) {
			put_byte(b, ':');
			put_uint(b, sane ? 1 : below(r, 4));
			put_byte(b, '/');
			put_uint(b, sane ? 1 + below(r, 2) : below(r, 4));
		}
	}
}

static const char *const odd_commas[] = { ",,", ", ", " ,", "\t", "", ";", ",\n", "-", " " };

/* A node list; one in a hundred not-sane lists has hundreds of items. */
static void gen_list(struct rng *r, struct buf *b, const nodeset *pool, int sane)
{
	unsigned int i, items = 1 + below(r, sane ? 2 : 4);

	if (!sane && chance(r, 1))
		items = 50 + below(r, 500);
	if (!sane && chance(r, 5))
		put_byte(b, ',');
	for (i = 0; i < items; i++) {
		if (i)
			put_str(b, sane || chance(r, 80) ? "," : PICK(r, odd_commas));
		gen_item(r, b, pool, sane);
	}
	if (!sane && chance(r, 8))
		put_byte(b, chance(r, 50) ? ',' : (unsigned char)(0x21 + below(r, 0x5e)));
}

static const char *const sane_seps[] = { " ", " ", " ", "  ", "\t", " \t", "\n" };
static const char *const odd_seps[] = {
	"\r", "\v", "\f", "\xa0", ",", "", " \n ", "\n\n", "\x01", " \r ",
};

/* White space between words, or something near it (a NUL among others). */
static void gen_sep(struct rng *r, struct buf *b, int sane)
{
	if (sane || chance(r, 70))
		put_str(b, PICK(r, sane_seps));
	else if (chance(r, 20))
		put(b, " \0 ", chance(r, 50) ? 3 : 2);
	else
		put_str(b, PICK(r, odd_seps));
}

static const char *const methods[] = { "direct", "swap" };
static const char *const odd_methods[] = {
	"DIRECT", "Direct", "SWAP", "Swap", "swa", "swapp", "swap,", "directx",
	"dir", "move", "copy", "0", "1", "-", "direct,swap", "swap\x01",
	"s\xa0wap", "\xffswap", "swap\r", "direct\v", "all",
};

static const char *const odd_tails[] = {
	"\n\n", " \n", "\n ", "\nx", "\n0", "\n1", "x", " x", "\r\n", "\\n",
	"\x7f", "\xff", "\n\xff", " 1", ",", ";", "#",
};

/* The end of an input: nothing, a newline, or something that should not be there. */
static void gen_tail(struct rng *r, struct buf *b, int sane)
{
	if (sane || chance(r, 60)) {
		if (chance(r, 50))
			put_byte(b, '\n');
	} else if (chance(r, 15)) {
		put_byte(b, '\n');
		put(b, "\0", 1);
		put_str(b, "junk");
	} else {
		put_str(b, PICK(r, odd_tails));
	}
}

/* Near-miss mutations of a whole input: a NUL somewhere, a byte changed. */
static void mutate(struct rng *r, struct buf *b)
{
	if (b->len && chance(r, 8))
		b->p[below(r, (unsigned int)b->len)] = 0;
	if (b->len && chance(r, 6))
		b->p[below(r, (unsigned int)b->len)] = (unsigned char)below(r, 256);
	if (b->len && chance(r, 4))
		b->len = below(r, (unsigned int)b->len);
}

/* "FROM TO [direct|swap]" and near misses. */
static void gen_proc_words(struct rng *r, struct buf *b, int sane)
{
	unsigned int i, words = chance(r, 40) ? 3 : 2;

	if (!sane && chance(r, 25)) {
		static const unsigned int counts[] = { 0, 1, 1, 4, 5, 8 };

		words = counts[below(r, 6)];
		if (chance(r, 10))
			words = 20 + below(r, 1000);
	}
	if (!sane && chance(r, 10))
		gen_sep(r, b, 0);
	for (i = 0; i < words; i++) {
		if (i)
			gen_sep(r, b, sane);
		if (i < 2)
			gen_list(r, b, i ? &memory : &online, sane);
		else if (i == 2 || chance(r, 30))
			put_str(b, sane || chance(r, 40) ? PICK(r, methods) : PICK(r, odd_methods));
		else
			gen_list(r, b, &online, chance(r, 50));
	}
	gen_tail(r, b, sane);
	if (!sane)
		mutate(r, b);
}

static const char *const all_variants[] = {
	"ALL", "All", "al", "alll", "all ", " all", "all,1", "all1", "all:1/2",
	"all-1", "all\n\n", "all\t", "\nall", "all\r", "all\v", "all\xa0", "aLl",
};

/* The destinations of nodeN/vacate: "all" or a node list without N. */
static void gen_vacate_words(struct rng *r, struct buf *b, int sane)
{
	nodeset others = memory;

	others.w[vnode / 64] &= ~(1ULL << (vnode % 64));
	if (chance(r, 8)) {
		put_str(b, sane || chance(r, 10) ? "all" : PICK(r, all_variants));
	} else {
		/* not sane: N itself, nodes without memory, all kinds of numbers */
		gen_list(r, b, sane || chance(r, 15) ? &others : &online, sane);
		if (!sane && chance(r, 15)) {
			gen_sep(r, b, 0);
			gen_list(r, b, &others, chance(r, 50));
		}
	}
	gen_tail(r, b, sane);
	if (!sane)
		mutate(r, b);
}

static void gen_words(struct rng *r, struct buf *b, int sane)
{
	if (iface == PROC)
		gen_proc_words(r, b, sane);
	else
		gen_vacate_words(r, b, sane);
}

static const char random_chars[] = "0123456789--,,:/  \t\n\r\vNnalALdirectswp\0x+\xa0\xff";

static void gen_random(struct rng *r, struct buf *b)
{
	unsigned int i, n, ascii = chance(r, 50);

	switch (below(r, 20)) {
	case 0: n = 4090 + below(r, 12); break;
	case 1: case 2: case 3: case 4: n = below(r, 600); break;
	case 5: case 6: case 7: case 8: case 9: case 10: n = below(r, 17); break;
	default: n = below(r, 65); break;
	}
	for (i = 0; i < n; i++)
		put_byte(b, ascii ? (unsigned char)random_chars[below(r, sizeof(random_chars) - 1)] :
			 (unsigned char)below(r, 256));
}

static const unsigned int long_sizes[] = {
	4094, 4095, 4095, 4096, 4096, 4097, 4097, 5000, 8191, 8192, 65536,
};

/* An input padded to about a page or more, or made of many tokens. */
static void gen_long(struct rng *r, struct buf *b, int sane)
{
	size_t want = long_sizes[below(r, sizeof(long_sizes) / sizeof(long_sizes[0]))], split;
	static const char *const pads[] = { " ", "\n", "\t", "0", ",", "0 ", "0,", "1 ", "x" };
	const char *pad = PICK(r, pads);
	size_t padlen = strlen(pad);
	unsigned char *tail;
	size_t taillen;

	gen_words(r, b, sane);
	if (b->len >= want) {
		b->len = want;
		return;
	}
	/* pad at the end, at the start or between the words */
	split = below(r, 3) == 0 ? 0 : below(r, 2) ? b->len : b->len / 2;
	taillen = b->len - split;
	tail = malloc(taillen + 1);
	if (!tail)
		exit(3);
	memcpy(tail, b->p + split, taillen);
	b->len = split;
	while (b->len + taillen < want)
		put(b, pad, padlen < want - taillen - b->len ? padlen : want - taillen - b->len);
	put(b, tail, taillen);
	free(tail);
}

static const long long offsets[] = {
	1, 1, 2, 3, 7, 100, 4095, 4096, 4097, 65536, 1LL << 31, 1LL << 32,
	1LL << 40, LLONG_MAX - 1, LLONG_MAX, -1, -4096, LLONG_MIN, 0,
};

/*
 * How often the grammar, long, offset and split generators start from a
 * valid input. Inputs that move pages cost the most (a vacate visits every
 * process), and on a node list of two nodes near misses are often valid
 * too, so valid starts are kept rare, rarer for vacate, whose offset does
 * not count.
 */
static const unsigned int sane_pct[2][4] = { { 4, 30, 30, 30 }, { 2, 8, 4, 5 } };

/* Input @index of @s: the same bytes for the same seed and index. */
static void gen_input(uint64_t s, long index, struct input *in)
{
	struct rng r;
	unsigned int g;

	rng_init(&r, s, (uint64_t)index);
	in->b.len = 0;
	in->fresh = chance(&r, 15);
	in->nparts = 1;
	memset(in->part, 0, sizeof(in->part));
	in->part[0].off = -1;
	g = below(&r, 100);
	in->gen = g < 15 ? G_RANDOM : g < 65 ? G_GRAMMAR : g < 77 ? G_LONG : g < 89 ? G_OFFSET : G_SPLIT;
	switch (in->gen) {
	case G_RANDOM:
		gen_random(&r, &in->b);
		break;
	case G_GRAMMAR:
		gen_words(&r, &in->b, chance(&r, sane_pct[iface][0]));
		break;
	case G_LONG:
		gen_long(&r, &in->b, chance(&r, sane_pct[iface][1]));
		break;
	case G_OFFSET:
		gen_words(&r, &in->b, chance(&r, sane_pct[iface][2]));
		in->part[0].pwrite = 1;
		in->part[0].off = offsets[below(&r, sizeof(offsets) / sizeof(offsets[0]))];
		break;
	case G_SPLIT:
		gen_words(&r, &in->b, chance(&r, sane_pct[iface][3]));
		if (in->b.len < 2)
			break;
		in->nparts = 2;
		in->part[0].len = 1 + below(&r, (unsigned int)in->b.len - 1);
		/* the first piece by write(2) on a fresh fd or by pwrite at 0 */
		in->part[0].pwrite = !in->fresh || chance(&r, 50);
		in->part[0].off = in->part[0].pwrite ? 0 : -1;
		in->part[1].start = in->part[0].len;
		in->part[1].pwrite = 1;
		in->part[1].off = (long long)in->part[0].len;
		break;
	default:
		break;
	}
	if (in->nparts == 1)
		in->part[0].len = in->b.len;
	else
		in->part[1].len = in->b.len - in->part[0].len;
}

/* ---- the target region ---- */

static void die(const char *what)
{
	fprintf(stderr, "fuzz-migrate: %s: %s\n", what, strerror(errno));
	exit(3);
}

/* Statuses of the sampled pages: a node, or a negative errno. */
static void query(int *status)
{
	if (syscall(SYS_move_pages, pid, nsamples, pages, NULL, status, 0))
		die("move_pages (query)");
}

/* Put the sampled pages back on their nodes at the start (as far as they go). */
static void restore(void)
{
	static int status[MAX_SAMPLES];

	if (syscall(SYS_move_pages, pid, nsamples, pages, home, status, MPOL_MF_MOVE_ALL) < 0)
		die("move_pages (restore)");
}

/* A hash of a page, word by word (FNV-1a's constants on 64-bit words). */
static uint64_t hash(const uint64_t *p, size_t words)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	while (words--)
		h = (h ^ *p++) * 0x100000001b3ULL;
	return h;
}

/* Read every sampled page through /proc/PID/mem (faulting evicted ones
 * back in, as the kernel has no process_vm_readv here), hash each. */
static void read_sums(uint64_t *out)
{
	static int mem = -1;
	long long t0 = now_us();
	char path[64];
	int i;

	if (mem < 0) {
		snprintf(path, sizeof(path), "/proc/%d/mem", (int)pid);
		mem = open(path, O_RDONLY);
		if (mem < 0)
			die(path);
	}
	for (i = 0; i < nsamples; i++) {
		if (pread(mem, readbuf, (size_t)page_size, (off_t)(uintptr_t)pages[i]) != page_size)
			die("read /proc/PID/mem");
		out[i] = hash((const uint64_t *)readbuf, (size_t)page_size / sizeof(uint64_t));
	}
	t_sums += now_us() - t0;
}

static void setup_target(unsigned long addr, unsigned long len)
{
	unsigned long npages = len / page_size, i;

	if ((unsigned long)nsamples > npages)
		nsamples = (int)npages;
	if (nsamples < 1) {
		fprintf(stderr, "fuzz-migrate: the region is smaller than a page\n");
		exit(2);
	}
	for (i = 0; i < (unsigned long)nsamples; i++)
		pages[i] = (void *)(addr + (i * npages / nsamples) * page_size);
	readbuf = malloc((size_t)page_size);
	if (!readbuf)
		die("malloc");
	read_sums(sums);
	query(home);
	for (i = 0; i < (unsigned long)nsamples; i++) {
		if (home[i] < 0) {
			fprintf(stderr, "fuzz-migrate: page %lu of the region: %s\n", i, errname(-home[i]));
			exit(2);
		}
	}
	memcpy(snap, home, sizeof(home));
}

/* ---- reporting ---- */

/* Hex dump with repeated 16-byte lines folded into "*", as hexdump -C;
 * at most @max_lines lines. */
static void hexdump(const unsigned char *p, size_t len, int max_lines)
{
	size_t off, i;
	int folded = 0, lines = 0;

	for (off = 0; off < len; off += 16) {
		size_t n = len - off < 16 ? len - off : 16;

		if (off && n == 16 && !memcmp(p + off, p + off - 16, 16)) {
			if (!folded)
				printf("#   *\n");
			folded = 1;
			continue;
		}
		folded = 0;
		if (++lines > max_lines) {
			printf("#   ... (%zu more bytes)\n", len - off);
			return;
		}
		printf("#   %08zx ", off);
		for (i = 0; i < 16; i++)
			printf(i < n ? " %02x" : "   ", i < n ? p[off + i] : 0);
		printf("  |");
		for (i = 0; i < n; i++)
			putchar(p[off + i] >= 0x20 && p[off + i] < 0x7f ? p[off + i] : '.');
		printf("|\n");
	}
	printf("#   %08zx\n", len);
}

/* The input as a C string, shortened, for -v. */
static void show(const unsigned char *p, size_t len)
{
	size_t i;

	putchar('"');
	for (i = 0; i < len && i < 60; i++) {
		if (p[i] == '\n')
			printf("\\n");
		else if (p[i] == '\t')
			printf("\\t");
		else if (p[i] == '"' || p[i] == '\\')
			printf("\\%c", p[i]);
		else if (p[i] >= 0x20 && p[i] < 0x7f)
			putchar(p[i]);
		else
			printf("\\x%02x", p[i]);
	}
	if (len > 60)
		printf("\"...(%zu bytes)", len);
	else
		putchar('"');
}

static const char *result_name(ssize_t res)
{
	static char s[32];

	if (res >= 0)
		snprintf(s, sizeof(s), "ok %zd", res);
	else
		snprintf(s, sizeof(s), "%s", errname((int)-res));
	return s;
}

static const char *type_name(void)
{
	return iface == PROC ? "proc" : "vacate";
}

/* One failure: what went wrong, the input, how to replay it. */
static void fail(long index, const struct input *in, int part, const char *why, ssize_t res,
		 const struct verdict *v)
{
	failures++;
	if (failures > MAX_REPORTS)
		return;
	printf("# FAIL %s seed=%llu index=%ld: %s\n", type_name(), (unsigned long long)seed, index, why);
	printf("#   generator %s, %s fd, write %d of %d: %s of %zu bytes at position %lld;"
	       " result %s; grammar says %s\n",
	       gen_names[in->gen], in->fresh ? "fresh" : "shared", part + 1, in->nparts,
	       in->part[part].pwrite ? "pwrite" : "write", in->part[part].len, in->part[part].pos,
	       result_name(res), v->err ? errname(v->err) : "valid");
	printf("#   the input (%zu bytes; write %d is bytes %zu-%zu):\n", in->b.len, part + 1,
	       in->part[part].start, in->part[part].start + in->part[part].len);
	hexdump(in->b.p, in->b.len, 32);
	printf("#   replay (full dump): fuzz-migrate -t %s -s %llu -i %ld ...\n", type_name(),
	       (unsigned long long)seed, index);
}

/* List the pages whose status is not what was wanted. */
static void fail_pages(long index, const struct input *in, int part, const char *why, ssize_t res,
		       const struct verdict *v, const int *want)
{
	int i, shown = 0;

	fail(index, in, part, why, res, v);
	if (failures > MAX_REPORTS)
		return;
	for (i = 0; i < nsamples && shown < 8; i++) {
		if (now[i] != snap[i] || (want && now[i] != want[i])) {
			printf("#   page %d (%p): before %d, now %d", i, pages[i], snap[i], now[i]);
			if (want)
				printf(", expected %d", want[i]);
			printf("\n");
			shown++;
		}
	}
}

/* ---- one write and its checks ---- */

static int is_partial(int err) { return err == EAGAIN || err == ENOMEM; }

/* Is status @st what prediction @want allows? */
static int placed_as(int st, int want, const struct verdict *v)
{
	if (want == ST_ANY_DEST)
		return st >= 0 && st < MAX_NODES && ns_isset(&v->to, st);
	return st == want;
}

/* Pages moved: data unchanged, every page back in and at home again. */
static void after_move(long index, const struct input *in, int part, ssize_t res,
		       const struct verdict *v)
{
	static uint64_t cur[MAX_SAMPLES];
	long long t0 = now_us();
	int i;

	moved++;
	for (i = 0; i < nsamples; i++) {
		if (now[i] == ST_EVICTED) {
			evicted++;
			break;
		}
	}
	read_sums(cur);
	for (i = 0; i < nsamples; i++) {
		if (cur[i] != sums[i]) {
			fail(index, in, part, "a sampled page's data changed", res, v);
			if (failures <= MAX_REPORTS)
				printf("#   page %d (%p)\n", i, pages[i]);
			memcpy(sums, cur, sizeof(cur));
			break;
		}
	}
	restore();
	query(snap);
	for (i = 0; i < nsamples; i++) {
		if (snap[i] < 0) {
			fail(index, in, part, "a sampled page is gone after the write", res, v);
			break;
		}
	}
	t_after += now_us() - t0;
}

static void check(long index, const struct input *in, int part, ssize_t res, const struct verdict *v)
{
	static int want[MAX_SAMPLES];
	int err = res < 0 ? (int)-res : 0, i, same = 1, ok = 1;
	char why[128];

	for (i = 0; i < nsamples; i++)
		same &= now[i] == snap[i];
	if (res >= 0) {
		accepted++;
		if (v->err)
			fail(index, in, part, "accepted an input the grammar rejects", res, v);
		else if ((size_t)res != v->ret) {
			snprintf(why, sizeof(why), "returned %zd, not %zu", res, v->ret);
			fail(index, in, part, why, res, v);
		}
		if ((size_t)res < in->part[part].len)
			shorts++;
	} else {
		rejected++;
		if (err < MAX_ERRNO)
			per_errno[err]++;
		if (err >= MAX_ERRNO || !allowed[err]) {
			snprintf(why, sizeof(why), "%s is not an allowed errno of %s", errname(err),
				 type_name());
			fail(index, in, part, why, res, v);
		} else if (v->err && err != v->err) {
			snprintf(why, sizeof(why), "%s where the grammar says %s", errname(err),
				 errname(v->err));
			fail(index, in, part, why, res, v);
		} else if (!v->err && !is_partial(err)) {
			snprintf(why, sizeof(why), "%s for an input the grammar accepts", errname(err));
			fail(index, in, part, why, res, v);
		}
	}

	if (res < 0 && !is_partial(err)) {
		if (!same)
			fail_pages(index, in, part, "pages moved on a rejected write", res, v, NULL);
	} else if (!v->err) {
		for (i = 0; i < nsamples; i++) {
			want[i] = predict(v, snap[i]);
			if (res >= 0)
				ok &= placed_as(now[i], want[i], v);
			else
				ok &= now[i] == snap[i] || placed_as(now[i], want[i], v);
		}
		if (!ok)
			fail_pages(index, in, part, res >= 0 ? "pages are not where the input says" :
				   "pages moved elsewhere than the input says", res, v, want);
	}
	if (!same)
		after_move(index, in, part, res, v);
}

static int open_file(void)
{
	char path[64];
	int fd;

	if (iface == PROC)
		snprintf(path, sizeof(path), "/proc/%d/migrate", (int)pid);
	else
		snprintf(path, sizeof(path), "/sys/devices/system/node/node%d/vacate", vnode);
	fd = open(path, O_WRONLY);
	if (fd < 0) {
		fprintf(stderr, "fuzz-migrate: open %s: %s\n", path, errname(errno));
		printf("# FAIL %s seed=%llu: open %s: %s\n", type_name(), (unsigned long long)seed,
		       path, errname(errno));
		exit(1);
	}
	return fd;
}

static void run_input(long index, struct input *in, int shared_fd)
{
	long long t0 = now_us();
	int fd = in->fresh ? open_file() : shared_fd, p;

	t_open += now_us() - t0;
	inputs++;
	per_gen[in->gen]++;
	for (p = 0; p < in->nparts; p++) {
		struct part *pt = &in->part[p];
		const unsigned char *data = in->b.p + pt->start;
		long long pos = pt->pwrite ? pt->off : (long long)lseek(fd, 0, SEEK_CUR);
		struct verdict v;
		long long t0, t1;
		ssize_t res;

		pt->pos = pos;
		judge(data, pt->len, pos, &v);
		t0 = now_us();
		res = pt->pwrite ? pwrite(fd, data, pt->len, (off_t)pt->off) : write(fd, data, pt->len);
		if (res < 0)
			res = -errno;
		t1 = now_us();
		writes++;
		query(now);
		t_write += t1 - t0;
		t_query += now_us() - t1;
		if (verbose) {
			printf("# %ld.%d %s ", index, p, gen_names[in->gen]);
			show(data, pt->len);
			printf(" @%lld: %s (grammar: %s)\n", pos, result_name(res),
			       v.err ? errname(v.err) : "valid");
		}
		check(index, in, p, res, &v);
	}
	if (in->fresh) {
		t0 = now_us();
		close(fd);
		t_open += now_us() - t0;
	}
}

/* ---- dry run: the generators and the model only ---- */

static void dry(long index, struct input *in)
{
	int p;

	inputs++;
	per_gen[in->gen]++;
	for (p = 0; p < in->nparts; p++) {
		const struct part *pt = &in->part[p];
		long long pos = pt->pwrite ? pt->off : 0;
		struct verdict v;

		judge(in->b.p + pt->start, pt->len, pos, &v);
		writes++;
		if (v.err) {
			rejected++;
			per_errno[v.err]++;
		} else {
			accepted++;
			moved += !v.noop && (iface == VACATE ||
					     predict(&v, 0) != 0 || predict(&v, 1) != 1);
		}
		if (verbose) {
			printf("# %ld.%d %s ", index, p, gen_names[in->gen]);
			show(in->b.p + pt->start, pt->len);
			printf(" @%lld: %s\n", pos, v.err ? errname(v.err) : "valid");
		}
	}
}

/* ---- setup ---- */

static void read_nodes(const char *file, nodeset *m)
{
	char path[128];
	unsigned char line[4096] = "";
	FILE *f;

	snprintf(path, sizeof(path), "/sys/devices/system/node/%s", file);
	f = fopen(path, "r");
	if (!f || !fgets((char *)line, sizeof(line), f) || parselist(line, m))
		die(path);
	fclose(f);
}

static int errno_of(const char *name)
{
	int e;

	for (e = 1; e < MAX_ERRNO; e++)
		if (!strcmp(errname(e), name))
			return e;
	return 0;
}

static void summary(void)
{
	int e;

	printf("fuzz-migrate: %s seed=%llu inputs=%ld writes=%ld accepted=%ld rejected=%ld"
	       " moved=%ld evicted=%ld short=%ld failures=%ld\n", type_name(),
	       (unsigned long long)seed, inputs, writes, accepted, rejected, moved, evicted,
	       shorts, failures);
	printf("fuzz-migrate: %s errno", type_name());
	for (e = 1; e < MAX_ERRNO; e++)
		if (per_errno[e])
			printf(" %s=%ld", errname(e), per_errno[e]);
	printf("\nfuzz-migrate: %s generators", type_name());
	for (e = 0; e < NR_GENS; e++)
		printf(" %s=%ld", gen_names[e], per_gen[e]);
	printf("\nfuzz-migrate: %s ms write=%lld query=%lld restore=%lld (data %lld)"
	       " open=%lld\n", type_name(), t_write / 1000, t_query / 1000, t_after / 1000,
	       t_sums / 1000, t_open / 1000);
}

static void usage(void)
{
	fprintf(stderr,
		"usage: fuzz-migrate -t proc|vacate -p PID -a ADDR -l LEN [-s SEED] [-n COUNT]\n"
		"                    [-N NODE] [-P SAMPLES] [-i INDEX] [-x ERRNAME] [-v]\n"
		"       fuzz-migrate -D [-t proc|vacate] [-s SEED] [-n COUNT] [-N NODE] [-v]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	unsigned long addr = 0, len = 0;
	long count = 1000, index = -1, i;
	struct input in;
	int opt, fd = -1;

	/* Errnos the documentation lists that a root writer on a living
	 * target can get; EPERM (CAP_SYS_NICE), ESRCH (the target lives),
	 * EINTR (no fatal signal) and EACCES (open only) cannot occur. */
	allowed[EINVAL] = allowed[EAGAIN] = allowed[ENOMEM] = 1;
	while ((opt = getopt(argc, argv, "t:p:a:l:s:n:N:P:i:x:vD")) != -1) {
		switch (opt) {
		case 't':
			if (!strcmp(optarg, "proc"))
				iface = PROC;
			else if (!strcmp(optarg, "vacate"))
				iface = VACATE;
			else
				usage();
			break;
		case 'p': pid = (pid_t)atol(optarg); break;
		case 'a': addr = strtoul(optarg, NULL, 16); break;
		case 'l': len = strtoul(optarg, NULL, 0); break;
		case 's': seed = strtoull(optarg, NULL, 0); break;
		case 'n': count = atol(optarg); break;
		case 'N': vnode = atoi(optarg); break;
		case 'P': nsamples = atoi(optarg); break;
		case 'i': index = atol(optarg); break;
		case 'x':
			if (!errno_of(optarg))
				usage();
			allowed[errno_of(optarg)] = 0;
			break;
		case 'v': verbose = 1; break;
		case 'D': dry_run = 1; break;
		default: usage();
		}
	}
	if (optind != argc || count < 0 || vnode < 0 || vnode >= MAX_NODES ||
	    nsamples < 1 || nsamples > MAX_SAMPLES || (!dry_run && (!pid || !addr || !len)))
		usage();
	page_size = (int)sysconf(_SC_PAGESIZE);
	in.b.p = malloc(INPUT_MAX);
	if (!in.b.p)
		die("malloc");
	if (dry_run) {
		parselist((const unsigned char *)"0-1", &online);
		memory = online;
	} else {
		read_nodes("online", &online);
		read_nodes("has_memory", &memory);
		setup_target(addr, len);
		fd = open_file();
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	for (i = index >= 0 ? index : 0; i < (index >= 0 ? index + 1 : count); i++) {
		gen_input(seed, i, &in);
		if (index >= 0) {
			printf("# input %ld of seed %llu: %s, %zu bytes\n", i,
			       (unsigned long long)seed, gen_names[in.gen], in.b.len);
			hexdump(in.b.p, in.b.len, INT_MAX);
		}
		if (dry_run)
			dry(i, &in);
		else
			run_input(i, &in, fd);
	}
	if (!dry_run) {
		static uint64_t cur[MAX_SAMPLES];

		close(fd);
		read_sums(cur);
		if (memcmp(cur, sums, sizeof(uint64_t) * nsamples)) {
			failures++;
			printf("# FAIL %s seed=%llu: a sampled page's data changed by the end\n",
			       type_name(), (unsigned long long)seed);
		}
	}
	summary();
	return failures ? 1 : 0;
}
