// SPDX-License-Identifier: GPL-2.0
/*
 * bench's entry point: a command of its own ("bench compare ..."), or one
 * benchmark, run by its own loop (prog-cost) or by the framework's.
 */
#include <stdarg.h>
#include <stdio.h>
#include <bpf/libbpf.h>

#include "bench.h"
#include "options.h"
#include "run.h"

static bool verbose;

static int libbpf_print(enum libbpf_print_level level __maybe_unused, const char *fmt,
			va_list ap)
{
	if (!verbose)
		return 0;
	return vfprintf(stderr, fmt, ap);
}

int main(int argc, char **argv)
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
