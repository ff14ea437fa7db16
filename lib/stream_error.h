/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Why writing a stdio stream failed.  stdio keeps only a flag, and the
 * failed write's errno is long gone when a program checks at its end:
 * a full disk would be reported as "Input/output error".
 */
#ifndef BPFCHECK_STREAM_ERROR_H
#define BPFCHECK_STREAM_ERROR_H

#include <stdio.h>

/*
 * Flush f; 0 if everything written to it so far has been written, else
 * the errno of the failure (ENOSPC, EPIPE, EDQUOT, ...; EIO if the system
 * gave none).
 */
int stream_error(FILE *f);

#endif
