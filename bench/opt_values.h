/* SPDX-License-Identifier: GPL-2.0 */
/* Usage errors, and the whole numbers options take. */
#ifndef BPFCHECK_BENCH_OPT_VALUES_H
#define BPFCHECK_BENCH_OPT_VALUES_H

#include <stdarg.h>

/* "bench: <message>" on stderr; returns BENCH_EXIT_USAGE. */
int bench_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The same for a command of bench's: "<who>: <message>". */
int bench_cmd_usage_error(const char *who, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int bench_vusage_error(const char *who, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
/* A whole number from min to max, or a usage error naming opt and what. */
int bench_parse_long(const char *opt, const char *arg, long min, long max,
		     const char *what, long *out);
/* The same into an unsigned int option (0 <= min <= max <= UINT_MAX). */
int bench_parse_uint(const char *opt, const char *arg, long min, long max,
		     const char *what, unsigned int *out);

#endif
