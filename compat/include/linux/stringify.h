/* SPDX-License-Identifier: GPL-2.0 */
/* Turn a macro's expansion into a string (tools/include <linux/stringify.h>). */
#ifndef BPFCHECK_LINUX_STRINGIFY_H
#define BPFCHECK_LINUX_STRINGIFY_H

#define __stringify_1(x...)	#x
#define __stringify(x...)	__stringify_1(x)

#endif
