// SPDX-License-Identifier: GPL-2.0
#include <stdint.h>

#include "utf8.h"

/* Length of the well-formed UTF-8 sequence at s, or 0 if malformed. */
int utf8_seq_len(const unsigned char *s)
{
	uint32_t cp;
	int n;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, cp = s[0] & 0x07;
	else
		return 0;
	for (int i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	/* Reject overlong forms, surrogates and values past U+10FFFF. */
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return n;
}

size_t utf8_encode(char *at, unsigned int cp)
{
	if (cp < 0x80) {
		at[0] = cp;
		return 1;
	}
	if (cp < 0x800) {
		at[0] = 0xc0 | cp >> 6;
		at[1] = 0x80 | (cp & 0x3f);
		return 2;
	}
	if (cp < 0x10000) {
		at[0] = 0xe0 | cp >> 12;
		at[1] = 0x80 | (cp >> 6 & 0x3f);
		at[2] = 0x80 | (cp & 0x3f);
		return 3;
	}
	at[0] = 0xf0 | cp >> 18;
	at[1] = 0x80 | (cp >> 12 & 0x3f);
	at[2] = 0x80 | (cp >> 6 & 0x3f);
	at[3] = 0x80 | (cp & 0x3f);
	return 4;
}
