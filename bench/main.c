// SPDX-License-Identifier: GPL-2.0
/*
 * bench's entry point: a command of its own ("bench compare ..."), or one
 * benchmark, run by its own loop (prog-cost) or by the framework's.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <bpf/libbpf.h>

#include "bench.h"
#include "options.h"
#include "run.h"
#include "stream_error.h"

static bool verbose;

static int libbpf_print(enum libbpf_print_level level __maybe_unused, const char *fmt,
			va_list ap)
{
	if (!verbose)
		return 0;
	return vfprintf(stderr, fmt, ap);
}

/*
 * The summary on stdout is the result: a full disk or /dev/full must not
 * exit 0 with it lost.
 */
static int check_stdout(int ret)
{
	int err = stream_error(stdout);

	if (!err)
		return ret;
	fprintf(stderr, "bench: cannot write to stdout: %s\n", strerror(err));
	return ret ? ret : BENCH_EXIT_FAIL;
}

static int bench_main(int argc, char **argv)
{
	const struct bench_command *cmd = bench_find_command(argc, argv);
	struct bench_env env;
	int ret;

	if (cmd)
		return cmd->main(argc - 1, argv + 1);
	ret = bench_parse_args(argc, argv, &env);
	if (ret >= 0)
		return ret;
	verbose = env.verbose;
	libbpf_set_print(libbpf_print);
	bench_install_signals();
	if (env.bench->run)
		return env.bench->run(&env);
	return bench_run(&env);
}

int main(int argc, char **argv)
{
	return check_stdout(bench_main(argc, argv));
}
