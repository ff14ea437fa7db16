// SPDX-License-Identifier: GPL-2.0
/*
 * --rb-size and --pb-pages (buf_opts.h): one --help section, "Ring buffer
 * and perf buffer options", for the two families that take them.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <unistd.h>

#include "buf_opts.h"
#include "options.h"

static struct {
	unsigned long rb_size;		/* bytes */
	unsigned int pb_pages;		/* per CPU */
} args = {
	.rb_size = 512 * 1024,
	.pb_pages = 128,
};

unsigned long buf_rb_size(void)
{
	return args.rb_size;
}

unsigned int buf_pb_pages(void)
{
	return args.pb_pages;
}

static bool is_pow2(unsigned long v)
{
	return v && !(v & (v - 1));
}

/* Bytes with an optional K or M suffix; a power of two >= page size. */
static int parse_rb_size(const char *arg)
{
	long page = sysconf(_SC_PAGESIZE);
	unsigned long v, max = 1UL << 30;
	char *end;

	errno = 0;
	v = strtoul(arg, &end, 10);
	if (*end == 'K' || *end == 'k') {
		v <<= 10;
		end++;
	} else if (*end == 'M' || *end == 'm') {
		v <<= 20;
		end++;
	}
	if (errno || end == arg || *end || arg[0] == '-' || !is_pow2(v) ||
	    v < (unsigned long)page || v > max)
		return bench_usage_error(
					 "--rb-size '%s': expected a power of two from %ld (the page size) to 1G bytes, e.g. 512K",
					 arg, page);
	args.rb_size = v;
	return 0;
}

static int parse_pb_pages(const char *arg)
{
	long v;
	int ret = bench_parse_long("--pb-pages", arg, 1, 1 << 16,
				   "perf buffer pages per CPU (a power of two)", &v);

	if (!ret && !is_pow2(v))
		ret = bench_usage_error("--pb-pages '%s': expected a power of two, 1 to %d",
					arg, 1 << 16);
	if (!ret)
		args.pb_pages = v;
	return ret;
}

static const struct bench_opt buf_opts[] = {
	{ "rb-size", NULL, "BYTES", "ring buffer size, a power of two >= page size, K/M\n"
	  "                        suffixes (default 512K)", parse_rb_size, NULL },
	{ "pb-pages", NULL, "N", "perf buffer pages per CPU, a power of two (default 128)",
	  parse_pb_pages, NULL },
	{},
};

static const struct bench_opt_group buf_group = {
	.title = "Ring buffer and perf buffer options",
	.opts = buf_opts,
};
BENCH_OPTIONS(buf_group);
