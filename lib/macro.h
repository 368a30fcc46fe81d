/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Small helpers used everywhere: scope-bound cleanup, ownership transfer
 * and attribute shorthands. Modelled on systemd's macro.h/alloc-util.h.
 */
#ifndef FBAC_MACRO_H
#define FBAC_MACRO_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define _cleanup_(f) __attribute__((cleanup(f)))
#define _printf_(a, b) __attribute__((format(printf, a, b)))
#define _warn_unused_result_ __attribute__((warn_unused_result))
#define _unused_ __attribute__((unused))
#define _pure_ __attribute__((pure))

#define ARRAY_SIZE(x) (sizeof(x) / sizeof((x)[0]))

/* Move ownership out of a cleanup-managed variable. */
#define TAKE_PTR(p)                                                            \
	({                                                                     \
		__typeof__(p) _p_ = (p);                                       \
		(p) = NULL;                                                    \
		_p_;                                                           \
	})
#define TAKE_FD(fd)                                                            \
	({                                                                     \
		int _fd_ = (fd);                                               \
		(fd) = -1;                                                     \
		_fd_;                                                          \
	})

static inline void freep(void *p)
{
	free(*(void **)p);
}
static inline void closep(int *fd)
{
	if (*fd >= 0) {
		int saved = errno;
		close(*fd);
		errno = saved;
	}
}
static inline void fclosep(FILE **f)
{
	if (*f)
		fclose(*f);
}

#define _cleanup_free_ _cleanup_(freep)
#define _cleanup_close_ _cleanup_(closep)
#define _cleanup_fclose_ _cleanup_(fclosep)

/* Define a cleanup function for a type with a NULL-safe destructor. */
#define DEFINE_TRIVIAL_CLEANUP_FUNC(type, func)                                \
	static inline void func##p(type *p)                                    \
	{                                                                      \
		if (*p)                                                        \
			func(*p);                                              \
	}

#define streq(a, b) (strcmp((a), (b)) == 0)

#endif
