/* SPDX-License-Identifier: MIT */
/*
 * The folios a buffered write is copied into, on a file with no page cached in its range: the
 * loop of generic_perform_write() (mm/filemap.c) and the folio ext4_da_write_begin() gets from
 * __filemap_get_folio(FGP_WRITEBEGIN | fgf_set_order(len)) (ext4 caches regular files in large
 * folios since Linux 6.16). Each round:
 *   - the write asks for up to the rest of the largest folio the mapping allows, from pos;
 *   - fgf_set_order(len): the order of the largest power of two pages within len (0 below two
 *     pages), at most the mapping's largest;
 *   - __filemap_get_folio() lowers the order until the folio's index is a multiple of its
 *     size: a folio starts at a multiple of its own size in the file;
 *   - the round copies what is left of the write within that folio.
 */
#include "fslab/errno.h"
#include "fslab/ext4.h"

#define PAGE_SHIFT 12

static unsigned ilog2_u32(uint32_t v)
{
	unsigned r = 0;

	while (v >>= 1)
		r++;
	return r;
}

int ext4_write_folios(uint64_t pos, uint32_t len, unsigned max_order, uint32_t *orders, int cap)
{
	uint64_t chunk = (uint64_t)1 << (PAGE_SHIFT + max_order);
	int n = 0;

	if (max_order > 20)
		return -FSLAB_EINVAL;
	while (len) {
		uint32_t bytes = (uint32_t)(chunk - (pos & (chunk - 1)));
		uint64_t index = pos >> PAGE_SHIFT;
		unsigned shift, order;
		uint64_t size, in_folio;

		if (bytes > len)
			bytes = len;
		shift = ilog2_u32(bytes);
		order = shift <= PAGE_SHIFT ? 0 : shift - PAGE_SHIFT;
		if (order > max_order)
			order = max_order;
		while (order && (index & ((1u << order) - 1)))
			order--;
		size = (uint64_t)1 << (PAGE_SHIFT + order);
		in_folio = size - (pos & (size - 1));
		if (bytes > in_folio)
			bytes = (uint32_t)in_folio;
		if (n < cap)
			orders[n] = order;
		n++;
		pos += bytes;
		len -= bytes;
	}
	return n;
}
