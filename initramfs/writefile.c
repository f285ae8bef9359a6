// SPDX-License-Identifier: GPL-2.0
/*
 * writefile: one write(2) to a file, reporting the exact errno.
 *
 *   writefile [-u UID] [-o OFFSET] [-r REPEAT] [-p FIFO] PATH DATA
 *
 * Prints "ok BYTES", "err ERRNO" (the write failed) or "open err ERRNO".
 *   -u UID     open PATH in a child that dropped every id to UID (and so
 *              every capability), receive the fd over a unix socket and
 *              write as the caller: "opened unprivileged, written by root"
 *   -o OFFSET  pwrite(2) at OFFSET instead of write(2)
 *   -r REPEAT  write DATA repeated REPEAT times in one write
 *   -p FIFO    after opening, print "opened" and wait for a line on FIFO
 *              before writing (the test changes the target meanwhile)
 * DATA may contain \n and \0 escapes.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <grp.h>
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

int main(int argc, char **argv)
{
	long uid = -1, offset = -1, repeat = 1, i;
	const char *fifo = NULL;
	size_t len, total;
	char *buf;
	ssize_t n;
	int opt, fd;

	while ((opt = getopt(argc, argv, "+u:o:r:p:")) != -1) {
		switch (opt) {
		case 'u': uid = atol(optarg); break;
		case 'o': offset = atol(optarg); break;
		case 'r': repeat = atol(optarg); break;
		case 'p': fifo = optarg; break;
		default: goto usage;
		}
	}
	if (argc - optind != 2 || repeat < 1)
		goto usage;

	fd = uid >= 0 ? open_as(argv[optind], uid) : open(argv[optind], O_WRONLY);
	if (fd < 0) {
		printf("open err %s\n", errname(uid >= 0 ? -fd : errno));
		return 1;
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

	len = unescape(argv[optind + 1]);
	total = len * repeat;
	buf = malloc(total + 1);
	if (!buf)
		return 1;
	for (i = 0; i < repeat; i++)
		memcpy(buf + i * len, argv[optind + 1], len);

	n = offset >= 0 ? pwrite(fd, buf, total, offset) : write(fd, buf, total);
	if (n < 0) {
		printf("err %s\n", errname(errno));
		return 1;
	}
	printf("ok %zd\n", n);
	return 0;
usage:
	fprintf(stderr, "usage: writefile [-u UID] [-o OFFSET] [-r N] [-p FIFO] PATH DATA\n");
	return 2;
}
