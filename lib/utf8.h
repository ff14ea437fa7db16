/* SPDX-License-Identifier: GPL-2.0 */
/* UTF-8 validation for writers of text formats (JSON, XML). */
#ifndef BPFCHECK_UTF8_H
#define BPFCHECK_UTF8_H

/*
 * Length (1-4) of the well-formed UTF-8 sequence at s, or 0 when it is
 * malformed: overlong, a surrogate, past U+10FFFF or cut short.
 */
int utf8_seq_len(const unsigned char *s);

#endif
