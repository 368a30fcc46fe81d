/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "sort.h"

#include <stdlib.h>
#include <string.h>

/*
 * The order qsort gives (glibc's is a stable merge sort), for the arrays
 * compiling makes sorted or nearly so: the kernel rules made in the order
 * of the sorted path rules, the narrow ones likewise, the protected paths
 * as the stack cache keeps them. An insertion sort that puts each element
 * after every element not greater than it: stable too, so the result is
 * the same permutation, in n - 1 comparisons when sorted (a merge sort
 * makes about n log n). Past 4n moves, qsort sorts the rest: the
 * elements the insertion sort placed kept their order among equals, so
 * the stable order is still the same.
 */
void fbac_sort_nearly(void *base, size_t n, size_t size,
		      int (*cmp)(const void *, const void *))
{
	unsigned char *b = base, tmp[64];
	size_t moves = 0;

	if (size > sizeof(tmp)) {
		qsort(base, n, size, cmp);
		return;
	}
	for (size_t i = 1; i < n; i++) {
		size_t j = i;

		while (j > 0 && cmp(b + (j - 1) * size, b + i * size) > 0)
			j--;
		if (j == i)
			continue;
		moves += i - j;
		if (moves > 4 * n) {
			qsort(base, n, size, cmp);
			return;
		}
		memcpy(tmp, b + i * size, size);
		memmove(b + (j + 1) * size, b + j * size, (i - j) * size);
		memcpy(b + j * size, tmp, size);
	}
}
