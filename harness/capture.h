/* SPDX-License-Identifier: GPL-2.0 */
/* Output capture: a test's stdout/stderr go to an anonymous memory file. */
#ifndef BPFCHECK_CAPTURE_H
#define BPFCHECK_CAPTURE_H

#include <sys/types.h>

int capture_open(void);
int capture_reset(int fd);
/* Point stdout and stderr (fds 1 and 2 and their FILEs) at the capture. */
int capture_redirect(int fd);
/* Flush stdio and return the current write position of the capture. */
off_t capture_pos(int fd);
/* Bytes [start, end) of the capture (end < 0: to the end), NUL-terminated. */
char *capture_read(int fd, off_t start, off_t end);

#endif
