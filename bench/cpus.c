// SPDX-License-Identifier: GPL-2.0
/* CPU lists in the kernel's format ("0,2-3") and the online CPUs. */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdbool.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpus.h"

static int parse_cpu(const char **s, long *cpu)
{
	char *end;

	if (!isdigit((unsigned char)**s))
		return -1;
	errno = 0;
	*cpu = strtol(*s, &end, 10);
	if (errno || *cpu >= CPU_SETSIZE)
		return -1;
	*s = end;
	return 0;
}

int cpus_parse(const char *spec, cpu_set_t *set, char *err, size_t len)
{
	const char *s = spec;
	long a, b;

	CPU_ZERO(set);
	do {
		if (parse_cpu(&s, &a))
			goto bad;
		b = a;
		if (*s == '-') {
			s++;
			if (parse_cpu(&s, &b) || b < a)
				goto bad;
		}
		for (long c = a; c <= b; c++)
			CPU_SET(c, set);
	} while (*s++ == ',');
	if (s[-1] != '\0')
		goto bad;
	return 0;
bad:
	snprintf(err, len, "'%s' is not a CPU list (expected e.g. 0,2-3, CPUs below %d)",
		 spec, CPU_SETSIZE);
	return -1;
}

int cpus_online(cpu_set_t *set)
{
	char buf[256], err[128];
	FILE *f = fopen("/sys/devices/system/cpu/online", "r");
	bool ok = false;

	if (f) {
		if (fgets(buf, sizeof(buf), f)) {
			buf[strcspn(buf, "\n")] = '\0';
			ok = !cpus_parse(buf, set, err, sizeof(err));
		}
		fclose(f);
	}
	if (!ok && sched_getaffinity(0, sizeof(*set), set))
		return -errno;
	return CPU_COUNT(set) ? 0 : -ENOENT;
}

void cpus_format(const cpu_set_t *set, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (int c = 0; c < CPU_SETSIZE && off < len; c++) {
		int end = c;

		if (!CPU_ISSET(c, set))
			continue;
		while (end + 1 < CPU_SETSIZE && CPU_ISSET(end + 1, set))
			end++;
		if (end == c)
			off += snprintf(buf + off, len - off, "%s%d",
					off ? "," : "", c);
		else
			off += snprintf(buf + off, len - off, "%s%d-%d",
					off ? "," : "", c, end);
		c = end;
	}
}

int cpus_nth(const cpu_set_t *set, int n)
{
	int cnt = CPU_COUNT(set), seen = 0;

	if (!cnt)
		return -1;
	n %= cnt;
	for (int c = 0; c < CPU_SETSIZE; c++) {
		if (CPU_ISSET(c, set) && seen++ == n)
			return c;
	}
	return -1;
}
