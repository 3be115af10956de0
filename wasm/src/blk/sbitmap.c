/* SPDX-License-Identifier: MIT */
/*
 * What kyber's domain tokens use of lib/sbitmap.c (Linux 7.2): sbitmap_queue_init_node()
 * (words of 1 << sbitmap_calculate_shift() bits, BITS_PER_LONG 64, not round robin, a
 * random first hint), __sbitmap_queue_get(), sbitmap_queue_clear() (a deferred clear, and
 * the hint moves to the freed bit), sbitmap_queue_resize() and sbitmap_weight().
 *
 * Which bit a get takes matters once kyber shrinks a domain: sbitmap_resize() only lowers
 * the depth, so a token still held above the new depth does not count against it, and more
 * requests than the depth can be in flight until those complete.
 *
 * One CPU: the per-cpu alloc_hint is one value, and test_and_set_bit_lock() never races.
 * Not modelled: the wait queues and their wake batch (the sim reruns the queue on every
 * completion), shallow depths (kyber's domain tokens have none).
 */
#include <string.h>
#include "fslab/blk.h"

#define BITS_PER_LONG 64u

/* get_random_u32_below(): the multiply-shift the kernel uses, from the sim's seeded stream */
static uint32_t get_random_u32_below(uint64_t *rng, uint32_t ceil)
{
	return (uint32_t)(((blk_splitmix64(rng) >> 32) * ceil) >> 32);
}

static uint32_t sbitmap_calculate_shift(uint32_t depth)
{
	uint32_t shift = 6; /* ilog2(BITS_PER_LONG) */

	/* a small map spreads over a few words (cachelines) */
	if (depth >= 4)
		while ((4u << shift) > depth)
			shift--;
	return shift;
}

static uint32_t map_depth(const struct sbitmap *sb, uint32_t index) /* __map_depth() */
{
	if (index == sb->map_nr - 1)
		return sb->depth - (index << sb->shift);
	return 1u << sb->shift;
}

static uint64_t low_mask(uint32_t bits) { return bits >= 64 ? ~0ull : (1ull << bits) - 1; }

void sbitmap_queue_init(struct sbitmap *sb, uint32_t depth, uint64_t *rng)
{
	memset(sb, 0, sizeof(*sb));
	sb->shift = sbitmap_calculate_shift(depth);
	sb->depth = depth;
	sb->map_nr = (depth + (1u << sb->shift) - 1) >> sb->shift;
	/* init_alloc_hint() */
	if (depth)
		sb->alloc_hint = get_random_u32_below(rng, depth);
}

/* sbitmap_deferred_clear(): fold the freed bits back; 1 if the word may have a free bit now */
static int sbitmap_deferred_clear(struct sbitmap_word *map, uint32_t depth, uint32_t alloc_hint, int wrap)
{
	if (!map->cleared) {
		uint64_t word_mask;

		if (depth == 0)
			return 0;
		word_mask = low_mask(depth);
		if (!wrap && alloc_hint)
			word_mask &= ~low_mask(alloc_hint);
		return (map->word & word_mask) != word_mask;
	}
	map->word &= ~map->cleared;
	map->cleared = 0;
	return 1;
}

static uint32_t find_next_zero_bit(uint64_t word, uint32_t size, uint32_t offset)
{
	for (; offset < size; offset++)
		if (!((word >> offset) & 1))
			return offset;
	return size;
}

static int __sbitmap_get_word(uint64_t *word, uint32_t depth, uint32_t hint, int wrap)
{
	uint32_t nr;

	/* don't wrap if starting from 0 */
	wrap = wrap && hint;
	for (;;) {
		nr = find_next_zero_bit(*word, depth, hint);
		if (nr >= depth) {
			if (hint && wrap) {
				hint = 0;
				continue;
			}
			return -1;
		}
		*word |= 1ull << nr; /* test_and_set_bit_lock(): one CPU, it succeeds */
		return (int)nr;
	}
}

static int sbitmap_find_bit_in_word(struct sbitmap_word *map, uint32_t depth, uint32_t alloc_hint, int wrap)
{
	int nr;

	do {
		nr = __sbitmap_get_word(&map->word, depth, alloc_hint, wrap);
		if (nr != -1)
			break;
		if (!sbitmap_deferred_clear(map, depth, alloc_hint, wrap))
			break;
	} while (1);
	return nr;
}

/* sbitmap_find_bit() with no shallow depth: the hint's word first, then the next ones */
static int sbitmap_find_bit(struct sbitmap *sb, uint32_t index, uint32_t alloc_hint, int wrap)
{
	uint32_t i;
	int nr = -1;

	for (i = 0; i < sb->map_nr; i++) {
		uint32_t depth = map_depth(sb, index);

		if (depth)
			nr = sbitmap_find_bit_in_word(&sb->map[index], depth, alloc_hint, wrap);
		if (nr != -1) {
			nr += (int)(index << sb->shift);
			break;
		}
		/* Jump to next index. */
		alloc_hint = 0;
		if (++index >= sb->map_nr)
			index = 0;
	}
	return nr;
}

/* __sbitmap_queue_get() -> sbitmap_get() */
int sbitmap_queue_get(struct sbitmap *sb, uint64_t *rng)
{
	uint32_t depth = sb->depth, hint;
	int nr;

	/* update_alloc_hint_before_get() */
	hint = sb->alloc_hint;
	if (hint >= depth) {
		hint = depth ? get_random_u32_below(rng, depth) : 0;
		sb->alloc_hint = hint;
	}
	/* __sbitmap_get(): not round robin, so the hint only picks the word, searched from bit 0 */
	nr = sbitmap_find_bit(sb, hint >> sb->shift, 0, 1);
	/* update_alloc_hint_after_get() */
	if (nr == -1) {
		sb->alloc_hint = 0; /* the map is full: a hint won't help */
	} else if ((uint32_t)nr == hint) {
		hint = (uint32_t)nr + 1;
		if (hint >= depth - 1)
			hint = 0;
		sb->alloc_hint = hint;
	}
	return nr;
}

void sbitmap_queue_clear(struct sbitmap *sb, uint32_t nr)
{
	/* sbitmap_deferred_clear_bit(): the bit is free once a get folds it back */
	sb->map[nr >> sb->shift].cleared |= 1ull << (nr & ((1u << sb->shift) - 1));
	/* sbitmap_update_cpu_hint() */
	if (nr < sb->depth)
		sb->alloc_hint = nr;
}

/* sbitmap_queue_resize() -> sbitmap_resize(): the shift stays; bits above the depth stay held */
void sbitmap_queue_resize(struct sbitmap *sb, uint32_t depth)
{
	uint32_t i;

	for (i = 0; i < sb->map_nr; i++)
		sbitmap_deferred_clear(&sb->map[i], 0, 0, 0);
	sb->depth = depth;
	sb->map_nr = (depth + (1u << sb->shift) - 1) >> sb->shift;
}

uint32_t sbitmap_weight(const struct sbitmap *sb)
{
	uint32_t i, w = 0;

	for (i = 0; i < sb->map_nr; i++) {
		uint64_t m = low_mask(map_depth(sb, i));
		w += (uint32_t)__builtin_popcountll(sb->map[i].word & m) - (uint32_t)__builtin_popcountll(sb->map[i].cleared & m);
	}
	return w;
}

uint32_t sbitmap_held(const struct sbitmap *sb)
{
	uint32_t i, w = 0;

	for (i = 0; i < SB_MAX_WORDS; i++)
		w += (uint32_t)__builtin_popcountll(sb->map[i].word & ~sb->map[i].cleared);
	return w;
}
