// SPDX-License-Identifier: GPL-2.0
/* A JSON file read whole and parsed, or refused with why (json_file.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "json_file.h"
#include "json_reader.h"

struct json_value *json_parse_file(const char *path, char *err, size_t err_len)
{
	struct json_value *v = NULL;
	char *text = NULL, reason[256];
	struct stat st;
	FILE *f;
	size_t n;

	f = fopen(path, "r");
	if (!f) {
		snprintf(err, err_len, "cannot open: %s", strerror(errno));
		return NULL;
	}
	if (fstat(fileno(f), &st) || !S_ISREG(st.st_mode)) {
		snprintf(err, err_len, "not a regular file");
		goto out;
	}
	if (st.st_size > JSON_READER_MAX_FILE) {
		snprintf(err, err_len, "larger than %d MiB", JSON_READER_MAX_FILE >> 20);
		goto out;
	}
	text = malloc(st.st_size + 1);
	if (!text) {
		snprintf(err, err_len, "out of memory");
		goto out;
	}
	n = fread(text, 1, st.st_size, f);
	if (ferror(f) || n != (size_t)st.st_size) {
		snprintf(err, err_len, "read error");
		goto out;
	}
	if (!n) {
		snprintf(err, err_len, "empty file, not JSON");
		goto out;
	}
	v = json_parse(text, n, reason, sizeof(reason));
	if (!v)
		snprintf(err, err_len, "not valid JSON: %s", reason);
out:
	free(text);
	fclose(f);
	return v;
}
