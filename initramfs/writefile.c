// SPDX-License-Identifier: GPL-2.0
/*
 * writefile: one write(2) to a file, reporting the exact errno.
 *
 *   writefile [-u UID] [-o OFFSET] [-r REPEAT] [-p FIFO] [-s SIG | -S SIG]
 *             [-n NICE] [-t THREADS [-i ITERATIONS]] PATH DATA [DATA...]
 *
 * Prints "ok BYTES", "err ERRNO" (the write failed) or "open err ERRNO".
 *   -u UID     open PATH in a child that dropped every id to UID (and so
 *              every capability), receive the fd over a unix socket and
 *              write as the caller: "opened unprivileged, written by root"
 *   -o OFFSET  pwrite(2) at OFFSET instead of write(2)
 *   -r REPEAT  write DATA repeated REPEAT times in one write
 *   -p FIFO    after opening, print "opened" and wait for a line on FIFO
 *              before writing (the test changes the target meanwhile)
 *   -t THREADS THREADS threads write to the one open fd at once, each
 *              ITERATIONS times (-i, default 1); write I of thread T sends
 *              the (T + I) % N-th of the N DATA arguments. Prints the
 *              results of all the writes on one line:
 *              "writes=TOTAL ok=FULL [short=N] [ERRNO=N]..."
 *              (write(2)s on one fd wait for each other on the file
 *              position lock; with -o they are pwrite(2)s, truly at once)
 *   -s SIG     catch signal number SIG with a handler that does nothing,
 *              installed without SA_RESTART (as bash's SIGINT handler), and
 *              add " sig=N" to the result: how many were caught
 *   -S SIG     the same with SA_RESTART (as bash's SIGCHLD handler)
 *   -n NICE    write at nice NICE (setpriority(2); busybox has no nice)
 * DATA may contain \n and \0 escapes.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <grp.h>
#include <pthread.h>
#include <sys/resource.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "errname.h"

static int send_fd(int sock, int fd)
{
	char dummy = 0, cbuf[CMSG_SPACE(sizeof(int))] = { 0 };
	struct iovec iov = { .iov_base = &dummy, .iov_len = 1 };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1,
			      .msg_control = cbuf, .msg_controllen = sizeof(cbuf) };
	struct cmsghdr *c = CMSG_FIRSTHDR(&msg);

	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &fd, sizeof(int));
	return sendmsg(sock, &msg, 0) == 1 ? 0 : -1;
}

/* Returns the fd, or -errno of the child's open. */
static int recv_fd(int sock)
{
	char dummy, cbuf[CMSG_SPACE(sizeof(int))];
	struct iovec iov = { .iov_base = &dummy, .iov_len = 1 };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1,
			      .msg_control = cbuf, .msg_controllen = sizeof(cbuf) };
	struct cmsghdr *c;
	int fd;

	if (recvmsg(sock, &msg, 0) != 1)
		return -EIO;
	c = CMSG_FIRSTHDR(&msg);
	if (!c || c->cmsg_type != SCM_RIGHTS)
		return -(int)(unsigned char)dummy;
	memcpy(&fd, CMSG_DATA(c), sizeof(int));
	return fd;
}

/* Open @path as @uid in a child; the fd comes back over a socket pair. */
static int open_as(const char *path, uid_t uid)
{
	int sv[2], fd;
	pid_t pid;

	if (socketpair(AF_UNIX, SOCK_DGRAM, 0, sv))
		return -errno;
	pid = fork();
	if (pid < 0)
		return -errno;
	if (!pid) {
		char code;

		if (setgroups(0, NULL) || setresgid(uid, uid, uid) ||
		    setresuid(uid, uid, uid))
			_exit(1);
		fd = open(path, O_WRONLY);
		if (fd >= 0)
			_exit(send_fd(sv[1], fd) ? 1 : 0);
		code = (char)errno;
		_exit(send(sv[1], &code, 1, 0) == 1 ? 0 : 1);
	}
	fd = recv_fd(sv[0]);
	waitpid(pid, NULL, 0);
	close(sv[0]);
	close(sv[1]);
	return fd;
}

/* Expand \n and \0 escapes in place; returns the length. */
static size_t unescape(char *s)
{
	char *r = s, *w = s;

	while (*r) {
		if (r[0] == '\\' && (r[1] == 'n' || r[1] == '0')) {
			*w++ = r[1] == 'n' ? '\n' : '\0';
			r += 2;
		} else {
			*w++ = *r++;
		}
	}
	return w - s;
}

/* DATA unescaped and repeated: one buffer per DATA argument. */
struct payload {
	char *buf;
	size_t len;
};

static int make_payload(struct payload *p, char *data, long repeat)
{
	size_t len = unescape(data);
	long i;

	p->len = len * repeat;
	p->buf = malloc(p->len + 1);
	if (!p->buf)
		return -1;
	for (i = 0; i < repeat; i++)
		memcpy(p->buf + i * len, data, len);
	return 0;
}

static volatile sig_atomic_t caught;

static void count_signal(int sig)
{
	(void)sig;
	caught++;
}

/* -s, -S: catch @sig, with or without SA_RESTART. */
static int catch_signal(int sig, int flags)
{
	struct sigaction sa = { .sa_handler = count_signal, .sa_flags = flags };

	sigemptyset(&sa.sa_mask);
	return sigaction(sig, &sa, NULL);
}

static ssize_t write_one(int fd, const struct payload *p, long offset)
{
	return offset >= 0 ? pwrite(fd, p->buf, p->len, offset) : write(fd, p->buf, p->len);
}

#define MAX_ERRNO 4096

struct writer {
	pthread_t thread;
	pthread_barrier_t *start;
	const struct payload *payloads;
	int npayloads, fd, index;
	long iterations, offset;
	long ok, shortw, errs[MAX_ERRNO];
};

static void *writer_run(void *arg)
{
	struct writer *w = arg;
	long i;

	pthread_barrier_wait(w->start);
	for (i = 0; i < w->iterations; i++) {
		const struct payload *p = &w->payloads[(w->index + i) % w->npayloads];
		ssize_t n = write_one(w->fd, p, w->offset);

		if (n == (ssize_t)p->len)
			w->ok++;
		else if (n >= 0)
			w->shortw++;
		else
			w->errs[errno > 0 && errno < MAX_ERRNO ? errno : 0]++;
	}
	return NULL;
}

/* -t: @nthreads writers on @fd at once; prints the sum of their results. */
static int write_threads(int fd, const struct payload *payloads, int npayloads,
			 long nthreads, long iterations, long offset)
{
	struct writer *w = calloc(nthreads, sizeof(*w));
	long t, ok = 0, shortw = 0, e, sum;
	pthread_barrier_t start;
	int failed = 0;

	if (!w || pthread_barrier_init(&start, NULL, nthreads))
		return 1;
	for (t = 0; t < nthreads; t++) {
		w[t] = (struct writer){ .start = &start, .payloads = payloads,
					.npayloads = npayloads, .fd = fd, .index = t,
					.iterations = iterations, .offset = offset };
		if (pthread_create(&w[t].thread, NULL, writer_run, &w[t])) {
			fprintf(stderr, "writefile: pthread_create failed\n");
			exit(1);
		}
	}
	for (t = 0; t < nthreads; t++) {
		pthread_join(w[t].thread, NULL);
		ok += w[t].ok;
		shortw += w[t].shortw;
	}
	printf("writes=%ld ok=%ld", nthreads * iterations, ok);
	if (shortw)
		printf(" short=%ld", shortw);
	for (e = 0; e < MAX_ERRNO; e++) {
		for (sum = 0, t = 0; t < nthreads; t++)
			sum += w[t].errs[e];
		if (sum)
			printf(" %s=%ld", e ? errname(e) : "EUNKNOWN", sum);
		failed |= sum != 0;
	}
	printf("\n");
	free(w);
	return failed || shortw;
}

int main(int argc, char **argv)
{
	long uid = -1, offset = -1, repeat = 1, threads = 0, iterations = 1, i;
	int catch_sig = 0, catch_flags = 0, nice = 0, set_nice = 0;
	struct payload *payloads;
	const char *fifo = NULL;
	int opt, fd, ndata;
	ssize_t n;

	while ((opt = getopt(argc, argv, "+u:o:r:p:t:i:s:S:n:")) != -1) {
		switch (opt) {
		case 'u': uid = atol(optarg); break;
		case 'o': offset = atol(optarg); break;
		case 'r': repeat = atol(optarg); break;
		case 'p': fifo = optarg; break;
		case 't': threads = atol(optarg); break;
		case 'i': iterations = atol(optarg); break;
		case 'S': catch_flags = SA_RESTART; /* fall through */
		case 's': catch_sig = atoi(optarg); break;
		case 'n': nice = atoi(optarg); set_nice = 1; break;
		default: goto usage;
		}
	}
	ndata = argc - optind - 1;
	if (ndata < 1 || ((ndata > 1 || iterations != 1) && !threads) ||
	    repeat < 1 || threads < 0 || threads > 1024 || iterations < 1)
		goto usage;

	fd = uid >= 0 ? open_as(argv[optind], uid) : open(argv[optind], O_WRONLY);
	if (fd < 0) {
		printf("open err %s\n", errname(uid >= 0 ? -fd : errno));
		return 1;
	}
	if (set_nice && setpriority(PRIO_PROCESS, 0, nice)) {
		perror("writefile: setpriority");
		return 2;
	}
	if (catch_sig && catch_signal(catch_sig, catch_flags)) {
		perror("writefile: sigaction");
		return 2;
	}
	if (fifo) {
		char line[16];
		FILE *f;

		printf("opened\n");
		fflush(stdout);
		f = fopen(fifo, "r");
		if (!f || !fgets(line, sizeof(line), f))
			return 1;
		fclose(f);
	}

	payloads = calloc(ndata, sizeof(*payloads));
	if (!payloads)
		return 1;
	for (i = 0; i < ndata; i++)
		if (make_payload(&payloads[i], argv[optind + 1 + i], repeat))
			return 1;
	if (threads)
		return write_threads(fd, payloads, ndata, threads, iterations, offset);

	n = write_one(fd, &payloads[0], offset);
	if (n < 0)
		printf("err %s", errname(errno));
	else
		printf("ok %zd", n);
	if (catch_sig)
		printf(" sig=%d", (int)caught);
	printf("\n");
	return n < 0;
usage:
	fprintf(stderr, "usage: writefile [-u UID] [-o OFFSET] [-r N] [-p FIFO] "
		"[-s SIG | -S SIG] [-n NICE] [-t THREADS [-i ITERATIONS]] PATH DATA [DATA...]\n");
	return 2;
}
