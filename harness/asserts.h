/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ASSERT_* checks.  Each evaluates its arguments once, returns whether the
 * check held and, when it did not, marks the running (sub)test failed and
 * prints file:line, the check, its name, and actual vs expected.
 */
#ifndef BPFCHECK_ASSERTS_H
#define BPFCHECK_ASSERTS_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <errno.h>

/* err: the errno the check saw (0 if it looks at none), for the record. */
void test__assert_report(bool ok, const char *file, int line,
			 const char *check, const char *name, int err,
			 const char *fmt, ...)
	__attribute__((format(printf, 7, 8)));
/*
 * The kernel's CHECK() family: "func:FAIL:tag " (tag NULL: the line) and
 * the message on stdout, and the record.
 */
void test__check_report(const char *file, int line, const char *func,
			const char *check, const char *tag, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));
void test__assert_memeq_report(bool ok, const char *file, int line,
			       const char *name, const void *actual,
			       const void *expected, size_t len);
long test__ptr_error(const void *ptr);

#define __ASSERT_ERRNO(ok, check, name, err, fmt, ...)			\
	test__assert_report((ok), __FILE__, __LINE__, check, name,	\
			    err, fmt, ##__VA_ARGS__)
#define __ASSERT(ok, check, name, fmt, ...)				\
	__ASSERT_ERRNO(ok, check, name, 0, fmt, ##__VA_ARGS__)

#define ASSERT_TRUE(actual, name) ({					\
	bool ___ok = !!(actual);					\
	__ASSERT(___ok, "ASSERT_TRUE", name,				\
		 "%s is false, expected true", #actual);		\
	___ok;								\
})

#define ASSERT_FALSE(actual, name) ({					\
	bool ___ok = !(actual);						\
	__ASSERT(___ok, "ASSERT_FALSE", name,				\
		 "%s is true, expected false", #actual);		\
	___ok;								\
})

/* Integer comparisons print both sides as signed and as hex. */
#define __ASSERT_CMP(check, actual, op, expected, name) ({		\
	typeof(actual) ___act = (actual);				\
	typeof(expected) ___exp = (expected);				\
	bool ___ok;							\
	/* Literals are ints: mixed signedness is the common case. */	\
	_Pragma("GCC diagnostic push")					\
	_Pragma("GCC diagnostic ignored \"-Wsign-compare\"")		\
	___ok = ___act op ___exp;					\
	_Pragma("GCC diagnostic pop")					\
	__ASSERT(___ok, check, name,					\
		 "actual %lld (0x%llx), expected " #op " %lld (0x%llx)",\
		 (long long)___act, (unsigned long long)___act,		\
		 (long long)___exp, (unsigned long long)___exp);	\
	___ok;								\
})

#define ASSERT_EQ(a, e, name)  __ASSERT_CMP("ASSERT_EQ", a, ==, e, name)
#define ASSERT_NEQ(a, e, name) __ASSERT_CMP("ASSERT_NEQ", a, !=, e, name)
#define ASSERT_LT(a, e, name)  __ASSERT_CMP("ASSERT_LT", a, <, e, name)
#define ASSERT_LE(a, e, name)  __ASSERT_CMP("ASSERT_LE", a, <=, e, name)
#define ASSERT_GT(a, e, name)  __ASSERT_CMP("ASSERT_GT", a, >, e, name)
#define ASSERT_GE(a, e, name)  __ASSERT_CMP("ASSERT_GE", a, >=, e, name)

#define ASSERT_STREQ(actual, expected, name) ({				\
	const char *___act = (actual);					\
	const char *___exp = (expected);				\
	bool ___ok = ___act && ___exp && strcmp(___act, ___exp) == 0;	\
	__ASSERT(___ok, "ASSERT_STREQ", name,				\
		 "actual \"%s\" != expected \"%s\"",			\
		 ___act ? ___act : "(null)",				\
		 ___exp ? ___exp : "(null)");				\
	___ok;								\
})

#define ASSERT_MEMEQ(actual, expected, len, name) ({			\
	const void *___act = (actual);					\
	const void *___exp = (expected);				\
	size_t ___len = (len);						\
	bool ___ok = memcmp(___act, ___exp, ___len) == 0;		\
	test__assert_memeq_report(___ok, __FILE__, __LINE__, name,	\
				  ___act, ___exp, ___len);		\
	___ok;								\
})

/* 0 is success; anything else is an error code (errno is shown too). */
#define ASSERT_OK(res, name) ({						\
	long long ___res = (res);					\
	int ___errno = errno;						\
	bool ___ok = ___res == 0;					\
	__ASSERT_ERRNO(___ok, "ASSERT_OK", name, ___errno,		\
		 "unexpected error %lld (errno %d: %s)", ___res,	\
		 ___errno, strerror(___errno));				\
	___ok;								\
})

#define ASSERT_ERR(res, name) ({					\
	long long ___res = (res);					\
	bool ___ok = ___res < 0;					\
	__ASSERT(___ok, "ASSERT_ERR", name,				\
		 "unexpected success: %lld, expected an error", ___res);\
	___ok;								\
})

#define ASSERT_NULL(ptr, name) ({					\
	const void *___ptr = (ptr);					\
	bool ___ok = !___ptr;						\
	__ASSERT(___ok, "ASSERT_NULL", name,				\
		 "unexpected pointer %p, expected NULL", ___ptr);	\
	___ok;								\
})

/* Non-NULL and not an ERR_PTR-style encoded error (libbpf's convention). */
#define ASSERT_OK_PTR(ptr, name) ({					\
	const void *___ptr = (ptr);					\
	int ___errno = errno;						\
	long ___err = test__ptr_error(___ptr);				\
	bool ___ok = ___err == 0;					\
	__ASSERT_ERRNO(___ok, "ASSERT_OK_PTR", name, ___errno,		\
		 "unexpected error pointer %p: %ld (errno %d: %s)",	\
		 ___ptr, ___err, ___errno, strerror(___errno));		\
	___ok;								\
})

#define ASSERT_ERR_PTR(ptr, name) ({					\
	const void *___ptr = (ptr);					\
	bool ___ok = test__ptr_error(___ptr) != 0;			\
	__ASSERT(___ok, "ASSERT_ERR_PTR", name,				\
		 "unexpected valid pointer %p, expected an error",	\
		 ___ptr);						\
	___ok;								\
})

#define ASSERT_OK_FD(fd, name) ({					\
	int ___fd = (fd);						\
	int ___errno = errno;						\
	bool ___ok = ___fd >= 0;					\
	__ASSERT_ERRNO(___ok, "ASSERT_OK_FD", name, ___errno,		\
		 "invalid fd %d (errno %d: %s)", ___fd, ___errno,	\
		 strerror(___errno));					\
	___ok;								\
})

#define ASSERT_ERR_FD(fd, name) ({					\
	int ___fd = (fd);						\
	bool ___ok = ___fd < 0;						\
	__ASSERT(___ok, "ASSERT_ERR_FD", name,				\
		 "unexpected valid fd %d, expected an error", ___fd);	\
	___ok;								\
})

#endif
