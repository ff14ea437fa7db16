// SPDX-License-Identifier: GPL-2.0
#include <errno.h>

#include "stream_error.h"

int stream_error(FILE *f)
{
	errno = 0;
	if (!ferror(f) && fflush(f) == 0)
		return 0;
	if (!ferror(f))
		return errno ? errno : EIO;
	/*
	 * An earlier write failed.  stdio keeps what it could not write:
	 * flushing again makes the same write, and the system says why
	 * again.  If nothing is pending, a newline asks the question (the
	 * output is already incomplete, it cannot be made worse).
	 */
	clearerr(f);
	errno = 0;
	if (fflush(f) == 0 && fputc('\n', f) != EOF)
		fflush(f);
	return errno ? errno : EIO;
}
