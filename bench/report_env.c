// SPDX-License-Identifier: GPL-2.0
/* The "environment" object of the bench's JSON reports. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cpus.h"
#include "env_info.h"
#include "json_writer.h"
#include "report_env.h"

static void cpu_model(char *buf, size_t len)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[256];

	snprintf(buf, len, "unknown");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (strncmp(line, "model name", 10) || !colon)
			continue;
		line[strcspn(line, "\n")] = '\0';
		snprintf(buf, len, "%s", colon + 1 + (colon[1] == ' '));
		break;
	}
	fclose(f);
}

void report_json_environment(struct json_writer *w, const struct bench_env *env)
{
	struct env_info info;
	char buf[256];

	env_info_collect(&info);
	json_key(w, "environment");
	json_begin_object(w);
	env_info_write_json(w, &info);
	cpu_model(buf, sizeof(buf));
	json_kv_string(w, "cpu_model", buf);
	json_kv_int(w, "cpus_online", env->nr_online);
	cpus_format(&env->online, buf, sizeof(buf));
	json_kv_string(w, "cpus_online_list", buf);
	json_kv_int(w, "page_size", sysconf(_SC_PAGESIZE));
	if (env->bench->family && env->bench->family->json_environment)
		env->bench->family->json_environment(env, w);
	json_end_object(w);
}
