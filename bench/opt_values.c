// SPDX-License-Identifier: GPL-2.0
/* Usage errors, and the whole numbers options take (opt_values.h). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"
#include "opt_values.h"

int bench_vusage_error(const char *who, const char *fmt, va_list ap)
{
	fprintf(stderr, "%s: ", who);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	return BENCH_EXIT_USAGE;
}

int bench_cmd_usage_error(const char *who, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = bench_vusage_error(who, fmt, ap);
	va_end(ap);
	return ret;
}

int bench_usage_error(const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = bench_vusage_error("bench", fmt, ap);
	va_end(ap);
	return ret;
}

int bench_parse_long(const char *opt, const char *arg, long min, long max,
		     const char *what, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (errno || end == arg || *end || v < min || v > max)
		return bench_usage_error("%s '%s': expected %s, %ld to %ld", opt, arg,
					 what, min, max);
	*out = v;
	return 0;
}

int bench_parse_uint(const char *opt, const char *arg, long min, long max,
		     const char *what, unsigned int *out)
{
	long v;
	int ret = bench_parse_long(opt, arg, min, max, what, &v);

	if (!ret)
		*out = v;
	return ret;
}
