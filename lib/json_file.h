/* SPDX-License-Identifier: GPL-2.0 */
/* A JSON file read whole and parsed (json_reader.h), or refused with why. */
#ifndef BPFCHECK_JSON_FILE_H
#define BPFCHECK_JSON_FILE_H

#include <stddef.h>

#include "json_tree.h"

/* Files larger than this are refused (bench reports are far smaller). */
#define JSON_READER_MAX_FILE	(64 << 20)

/* Read and parse a file; the reason names the file's problem. */
struct json_value *json_parse_file(const char *path, char *err, size_t err_len);

#endif
