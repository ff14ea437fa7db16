// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <bpf/bpf.h>

#include "skipped_runs.h"
#include "test_progs.h"

bool prog_recursion_misses(const struct bpf_program *prog, __u64 *misses)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);

	if (!ASSERT_OK(bpf_obj_get_info_by_fd(bpf_program__fd(prog), &info,
					      &len), "read recursion_misses"))
		return false;
	*misses = info.recursion_misses;
	return true;
}

bool check_count_with_skips(const char *what, __u64 counted, __u64 made,
			    __u64 skipped)
{
	char name[128];

	snprintf(name, sizeof(name), "%s: counted <= made", what);
	if (!ASSERT_LE(counted, made, name))
		return false;
	if (skipped)
		printf("%s: the kernel skipped %llu runs, %llu of %llu not counted\n",
		       what, (unsigned long long)skipped,
		       (unsigned long long)(made - counted),
		       (unsigned long long)made);
	snprintf(name, sizeof(name), "%s: not counted <= runs skipped", what);
	return ASSERT_LE(made - counted, skipped, name);
}
