// SPDX-License-Identifier: GPL-2.0
/*
 * timeit COMMAND...: run COMMAND with its output going to stderr, then
 * print its wall-clock time in microseconds on stdout. Exits as COMMAND.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

int main(int argc, char **argv)
{
	long long start;
	int status;
	pid_t pid;

	if (argc < 2) {
		fprintf(stderr, "usage: timeit COMMAND...\n");
		return 2;
	}
	start = now_us();
	pid = fork();
	if (pid < 0)
		return 1;
	if (!pid) {
		dup2(STDERR_FILENO, STDOUT_FILENO);
		execvp(argv[1], argv + 1);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0)
		return 1;
	printf("%lld\n", now_us() - start);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
