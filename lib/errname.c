// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "errname.h"
#include "util.h"

const char *errname(int err)
{
	static __thread char buf[32];
	const char *name;

	if (err < 0)
		err = -err;
	if (err == ENOTSUPP)
		return "ENOTSUPP";
	name = strerrorname_np(err);
	if (name)
		return name;
	snprintf(buf, sizeof(buf), "errno %d", err);
	return buf;
}
