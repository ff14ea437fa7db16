/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small JSON reader (RFC 8259) for the bench's own reports: the whole
 * text is parsed into a tree, or refused with the line and column of the
 * first error.  Strings must be valid UTF-8 and may not contain U+0000;
 * numbers must fit a double; nesting is limited to JSON_READER_MAX_DEPTH.
 * In an object with a key twice, json_get() finds the first.  The tree
 * is json_tree.h's; json_file.h reads a file.
 */
#ifndef BPFCHECK_JSON_READER_H
#define BPFCHECK_JSON_READER_H

#include <stddef.h>

#include "json_tree.h"

#define JSON_READER_MAX_DEPTH	64

/*
 * Parse len bytes of text.  NULL on error, with a one-line reason ("line
 * 3, column 7: expected ',' or '}'") in err, or on allocation failure.
 */
struct json_value *json_parse(const char *text, size_t len, char *err,
			      size_t err_len);

#endif
