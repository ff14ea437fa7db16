/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's older and extra check macros, beside the ASSERT_* ones of
 * asserts.h: CHECK() and friends (condition true means failure, a
 * variable "duration" in scope), string checks, ASSERT_FAIL(), and SYS()
 * to run a shell command.  Like the ASSERT_*s they mark the running
 * (sub)test failed and say where.
 */
#ifndef BPFCHECK_KERNEL_CHECKS_H
#define BPFCHECK_KERNEL_CHECKS_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asserts.h"

void test__fail(void);
int test__verbosity(void);
void test__record_failure(const char *file, int line, const char *check,
			  const char *name, int err, const char *message);

/* Failure: "<func>:FAIL:<tag> <message>"; pass, with -vv: the duration. */
#define _CHECK(condition, tag, duration, format...) ({			\
	int ___ret = !!(condition);					\
	int ___saved_errno = errno;					\
	if (___ret) {							\
		test__check_report(__FILE__, __LINE__, __func__, "CHECK",	\
				   tag, format);			\
	} else if (test__verbosity() >= 2) {				\
		printf("%s:PASS:%s %d nsec\n", __func__, tag,		\
		       (int)(duration));				\
	}								\
	errno = ___saved_errno;						\
	___ret;								\
})

#define CHECK(condition, tag, format...)				\
	_CHECK(condition, tag, duration, format)
#define CHECK_ATTR(condition, tag, format...)				\
	_CHECK(condition, tag, tattr.duration, format)
#define CHECK_OPTS(condition, tag, format...)				\
	_CHECK(condition, tag, topts.duration, format)

#define CHECK_FAIL(condition) ({					\
	int ___ret = !!(condition);					\
	if (___ret) {							\
		test__record_failure(__FILE__, __LINE__, "CHECK_FAIL",	\
				     #condition, 0, "the condition is true");\
		printf("%s:FAIL:%d\n", __func__, __LINE__);		\
	}								\
	___ret;								\
})

#define PRINT_FAIL(format...)						\
	test__check_report(__FILE__, __LINE__, __func__, "PRINT_FAIL",	\
			   NULL, format)

/* An unconditional failure with a message; evaluates to false. */
#define ASSERT_FAIL(fmt, ...) ({					\
	__ASSERT(false, "ASSERT_FAIL", "", fmt, ##__VA_ARGS__);		\
	false;								\
})

#define ASSERT_HAS_SUBSTR(str, substr, name) ({				\
	const char *___str = (str);					\
	const char *___sub = (substr);					\
	bool ___ok = ___str && ___sub && strstr(___str, ___sub);	\
	__ASSERT(___ok, "ASSERT_HAS_SUBSTR", name,			\
		 "\"%s\" is not a substring of \"%s\"",			\
		 ___sub ? ___sub : "(null)", ___str ? ___str : "(null)");\
	___ok;								\
})

/* The first len bytes of two strings are equal. */
#define ASSERT_STRNEQ(actual, expected, len, name) ({			\
	const char *___act = (actual);					\
	const char *___exp = (expected);				\
	int ___len = (len);						\
	bool ___ok = ___act && ___exp &&				\
		     strncmp(___act, ___exp, ___len) == 0;		\
	__ASSERT(___ok, "ASSERT_STRNEQ", name,				\
		 "actual \"%.*s\" != expected \"%.*s\"",		\
		 ___len, ___act ? ___act : "(null)",			\
		 ___len, ___exp ? ___exp : "(null)");			\
	___ok;								\
})

#define ALL_TO_DEV_NULL " >/dev/null 2>&1"

/* Run a shell command; when it fails, fail the test and goto label. */
#define SYS(goto_label, fmt, ...) ({					\
	char ___cmd[1024];						\
	snprintf(___cmd, sizeof(___cmd), fmt, ##__VA_ARGS__);		\
	if (!ASSERT_OK(system(___cmd), ___cmd))				\
		goto goto_label;					\
})

/* Run a shell command, output discarded; its system() status. */
#define SYS_NOFAIL(fmt, ...) ({						\
	char ___cmd[1024];						\
	int ___n = snprintf(___cmd, sizeof(___cmd), fmt, ##__VA_ARGS__);\
	if (___n >= 0 && (size_t)___n + sizeof(ALL_TO_DEV_NULL) <=	\
	    sizeof(___cmd))						\
		strcat(___cmd, ALL_TO_DEV_NULL);			\
	system(___cmd);							\
})

#endif
