// SPDX-License-Identifier: GPL-2.0
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <linux/capability.h>

#include "int_file.h"
#include "privilege.h"

/* Not in older headers: CAP_PERFMON and CAP_BPF came with 5.8. */
#define CAP_PERFMON_BIT 38
#define CAP_BPF_BIT 39

/* The effective capabilities, from /proc/self/status ("CapEff:"). */
static unsigned long long effective_caps(void)
{
	unsigned long long caps = 0;
	char line[128];
	FILE *f = fopen("/proc/self/status", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "CapEff: %llx", &caps) == 1)
			break;
	fclose(f);
	return caps;
}

static bool has(unsigned long long caps, int bit)
{
	return caps & (1ULL << bit);
}

bool privilege_check(char *msg, char *reason, size_t len)
{
	unsigned long long caps = effective_caps();
	bool bpf = has(caps, CAP_BPF_BIT) || has(caps, CAP_SYS_ADMIN);
	int unpriv_off = read_int_file("/proc/sys/kernel/unprivileged_bpf_disabled");
	char missing[128] = "";

	msg[0] = reason[0] = '\0';
	if (!bpf) {
		snprintf(reason, len,
			 "needs CAP_BPF or CAP_SYS_ADMIN (running as uid %u without them)",
			 getuid());
		snprintf(msg, len,
			 "running as uid %u without CAP_BPF or CAP_SYS_ADMIN (run as root): %s",
			 getuid(), unpriv_off != 0 ?
			 "no BPF program or map can be created here, every test is skipped" :
			 "only unprivileged BPF works, tests that need more fail with EPERM");
		return unpriv_off != 0;
	}
	if (!has(caps, CAP_PERFMON_BIT) && !has(caps, CAP_SYS_ADMIN))
		strcat(missing, " CAP_PERFMON");
	if (!has(caps, CAP_NET_ADMIN))
		strcat(missing, " CAP_NET_ADMIN");
	if (missing[0])
		snprintf(msg, len,
			 "running without%s: tracing and networking tests may fail with EPERM (run as root)",
			 missing);
	return false;
}
