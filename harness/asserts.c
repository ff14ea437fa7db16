// SPDX-License-Identifier: GPL-2.0
/* Reporting for the ASSERT_* macros (asserts.h). */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>

#include "test_api.h"

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

void test__assert_report(bool ok, const char *file, int line,
			 const char *check, const char *name, int err,
			 const char *fmt, ...)
{
	char message[256];	/* the runner keeps REASON_MAX of it */
	va_list ap;

	if (ok) {
		if (test__verbosity() >= 2)
			printf("%s:%d: %s(%s): ok\n", base_name(file), line,
			       check, name);
		return;
	}
	va_start(ap, fmt);
	vsnprintf(message, sizeof(message), fmt, ap);
	va_end(ap);
	test__record_failure(file, line, check, name, err, message);
	/* The log keeps the whole text; the record may hold a prefix. */
	fprintf(stderr, "%s:%d: %s(%s) failed: ", base_name(file), line,
		check, name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void test__check_report(const char *file, int line, const char *func,
			const char *check, const char *tag, const char *fmt, ...)
{
	char message[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(message, sizeof(message), fmt, ap);
	va_end(ap);
	/* One line in the record: the kernel's formats end in '\n'. */
	message[strcspn(message, "\n")] = '\0';
	test__record_failure(file, line, check, tag ? tag : "", 0, message);
	if (tag)
		printf("%s:FAIL:%s ", func, tag);
	else
		printf("%s:FAIL:%d ", func, line);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
}

static void hex_window(const char *label, const unsigned char *p,
		       size_t from, size_t to)
{
	fprintf(stderr, "  %s [%zu..%zu):", label, from, to);
	for (size_t i = from; i < to; i++)
		fprintf(stderr, " %02x", p[i]);
	fputc('\n', stderr);
}

void test__assert_memeq_report(bool ok, const char *file, int line,
			       const char *name, const void *actual,
			       const void *expected, size_t len)
{
	const unsigned char *a = actual, *e = expected;
	size_t diff = 0, from, to;

	if (ok) {
		test__assert_report(true, file, line, "ASSERT_MEMEQ", name, 0,
				    "%s", "");
		return;
	}
	while (diff < len && a[diff] == e[diff])
		diff++;
	test__assert_report(false, file, line, "ASSERT_MEMEQ", name, 0,
			    "%zu bytes differ, first at offset %zu: actual 0x%02x != expected 0x%02x",
			    len, diff, a[diff], e[diff]);
	/* Show up to 16 bytes around the first difference. */
	from = diff > 8 ? diff - 8 : 0;
	to = from + 16 < len ? from + 16 : len;
	hex_window("actual  ", a, from, to);
	hex_window("expected", e, from, to);
}

/* libbpf returns NULL or an ERR_PTR-style value (-4095..-1) on error. */
long test__ptr_error(const void *ptr)
{
	uintptr_t v = (uintptr_t)ptr;

	if (!ptr)
		return -ENOENT;
	if (v >= (uintptr_t)-4095)
		return (long)v;
	return 0;
}
