/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Sorting the arrays that compiling a policy makes sorted already, or
 * nearly: the same order as qsort's, with fewer comparisons.
 */
#ifndef FBAC_SORT_H
#define FBAC_SORT_H

#include <stddef.h>

/*
 * qsort(base, n, size, cmp), as glibc's (a stable merge sort) orders it:
 * equal elements keep their order. n - 1 comparisons when base is sorted
 * already; qsort itself when it is far from sorted.
 */
void fbac_sort_nearly(void *base, size_t n, size_t size,
		      int (*cmp)(const void *, const void *));

#endif
