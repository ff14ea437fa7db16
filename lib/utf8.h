/* SPDX-License-Identifier: GPL-2.0 */
/* UTF-8 for readers and writers of text formats (JSON, XML). */
#ifndef BPFCHECK_UTF8_H
#define BPFCHECK_UTF8_H

#include <stddef.h>

/*
 * Length (1-4) of the well-formed UTF-8 sequence at s, or 0 when it is
 * malformed: overlong, a surrogate, past U+10FFFF or cut short.
 */
int utf8_seq_len(const unsigned char *s);
/* Code point cp (at most U+10FFFF) as UTF-8 at at: 1-4 bytes, how many. */
size_t utf8_encode(char *at, unsigned int cp);

#endif
