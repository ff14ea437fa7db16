// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>

#include "int_file.h"

int read_int_file(const char *path)
{
	FILE *f = fopen(path, "r");
	int v = -1;

	if (!f)
		return -1;
	if (fscanf(f, "%d", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

int write_int_file(const char *path, int v)
{
	FILE *f = fopen(path, "w");
	int err;

	if (!f)
		return -errno;
	err = fprintf(f, "%d\n", v) < 0 ? -EIO : 0;
	if (fclose(f) && !err)
		err = -errno;
	return err;
}
