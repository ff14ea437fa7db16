// SPDX-License-Identifier: GPL-2.0
/*
 * The parts of the kernel's test_progs API that live around a test rather
 * than in the runner: the env it reads, the directory it runs in, the
 * cleanups helpers register, the forced log, libbpf log capture.
 *
 * The kernel's test_progs runs from the directory that holds the BPF
 * objects, so its older tests open "./X.bpf.o" (or "./X.o").  bpfcheck
 * keeps the objects in bpf/ beside the test_progs binary: each test runs
 * there, and goes back afterwards (-J and --junit paths stay relative to
 * where test_progs was started, as they are written by the parent).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/libbpf.h>

#include "test_api.h"
#include "test_state.h"

#define MAX_ON_END 16

struct test_env env;

static struct {
	int cwd_fd;		/* where to go back to, or -1 */
	bool force_log;
	int n_on_end;
	void (*on_end[MAX_ON_END])(void);
} here = { .cwd_fd = -1 };

static bool read_jit_enabled(void)
{
	FILE *f = fopen("/proc/sys/net/core/bpf_jit_enable", "r");
	int v = 0;

	if (!f)
		return false;
	if (fscanf(f, "%d", &v) != 1)
		v = 0;
	fclose(f);
	return v > 0;
}

/*
 * The kernel's test_progs loads bpf_testmod.ko before its tests; here it
 * is loaded before test_progs starts (vmtest --kmod, kernel-tests), and
 * the tests that need it see it through env.has_testmod.
 */
static bool testmod_loaded(void)
{
	return access("/sys/module/bpf_testmod", F_OK) == 0;
}

/* <directory of the test_progs binary>/bpf, if there is one. */
static void enter_objects_dir(void)
{
	char exe[PATH_MAX], dir[PATH_MAX + 8];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n <= 0)
		return;
	exe[n] = '\0';
	snprintf(dir, sizeof(dir), "%s/bpf", dirname(exe));
	if (access(dir, X_OK))
		return;
	here.cwd_fd = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (here.cwd_fd >= 0 && chdir(dir)) {
		close(here.cwd_fd);
		here.cwd_fd = -1;
	}
}

/* Called before the test's output is redirected: keep the real streams. */
void test_env_enter(void)
{
	int out = dup(STDOUT_FILENO), err = dup(STDERR_FILENO);

	memset(&env, 0, sizeof(env));
	env.verbosity = (enum test_verbosity)test__verbosity();
	env.nr_cpus = libbpf_num_possible_cpus();
	env.jit_enabled = read_jit_enabled();
	env.has_testmod = testmod_loaded();
	env.stdout_saved = out >= 0 ? fdopen(out, "w") : NULL;
	env.stderr_saved = err >= 0 ? fdopen(err, "w") : NULL;
	if (out >= 0 && !env.stdout_saved)
		close(out);
	if (err >= 0 && !env.stderr_saved)
		close(err);
	here.force_log = false;
	here.n_on_end = 0;
	enter_objects_dir();
}

/* The test's whole captured output (stdout is its capture file). */
static void copy_log_out(void)
{
	char buf[4096];
	off_t off = 0;
	ssize_t n;

	fflush(stdout);
	fflush(stderr);
	while ((n = pread(STDOUT_FILENO, buf, sizeof(buf), off)) > 0) {
		fwrite(buf, 1, n, env.stderr_saved);
		off += n;
	}
	fflush(env.stderr_saved);
}

void test_env_leave(void)
{
	while (here.n_on_end > 0)
		here.on_end[--here.n_on_end]();
	if (here.force_log && env.stderr_saved)
		copy_log_out();
	if (here.cwd_fd >= 0) {
		if (fchdir(here.cwd_fd))
			perror("test_progs: cannot return to the start directory");
		close(here.cwd_fd);
		here.cwd_fd = -1;
	}
	if (env.stdout_saved)
		fclose(env.stdout_saved);
	if (env.stderr_saved)
		fclose(env.stderr_saved);
	env.stdout_saved = env.stderr_saved = NULL;
}

void test__force_log(void)
{
	here.force_log = true;
}

int test__on_end(void (*fn)(void))
{
	for (int i = 0; i < here.n_on_end; i++)
		if (here.on_end[i] == fn)
			return 0;
	if (here.n_on_end == MAX_ON_END)
		return -ENOSPC;
	here.on_end[here.n_on_end++] = fn;
	return 0;
}

/*
 * As the kernel's runner: a described subtest is shown by its description
 * (RUN_TESTS' __description), and its log says which program it is.
 */
bool test__start_subtest_with_desc(const char *name, const char *desc)
{
	if (!desc || !*desc)
		return test__start_subtest(name);
	if (!test__start_subtest_shown(name, desc))
		return false;
	printf("program: %s\n", name);
	return true;
}

/* ---- libbpf log capture ---- */

static struct {
	libbpf_print_fn_t prev;
	FILE *f;
	char *buf;
	size_t len;
} cap;

static int capture_print(enum libbpf_print_level level, const char *fmt,
			 va_list ap)
{
	va_list copy;

	va_copy(copy, ap);
	vfprintf(cap.f, fmt, copy);
	va_end(copy);
	return cap.prev ? cap.prev(level, fmt, ap) : 0;
}

int start_libbpf_log_capture(void)
{
	if (cap.f)
		return -EBUSY;
	cap.f = open_memstream(&cap.buf, &cap.len);
	if (!cap.f)
		return -errno;
	cap.prev = libbpf_set_print(capture_print);
	return 0;
}

char *stop_libbpf_log_capture(void)
{
	char *log;

	if (!cap.f)
		return NULL;
	libbpf_set_print(cap.prev);
	fclose(cap.f);
	log = cap.buf;
	memset(&cap, 0, sizeof(cap));
	return log;
}
