/* SPDX-License-Identifier: MIT */
/* The card's registers read as Linux reads them: drivers/mmc/core/sd.c mmc_decode_cid,
 * mmc_decode_csd, mmc_decode_scr, with the kernel's UNSTUFF_BITS over cmd->resp. */
#include <string.h>
#include "fslab/sd.h"

uint32_t sd_unstuff(const uint32_t resp[4], int start, int size)
{
	const uint32_t mask = size < 32 ? (1u << size) - 1 : ~0u;
	const int off = 3 - start / 32, shft = start & 31;
	uint32_t res = resp[off] >> shft;
	if (size + shft > 32)
		res |= resp[off - 1] << ((32 - shft) % 32);
	return res & mask;
}

void sd_decode_cid(const uint32_t resp[4], struct sd_cid *o)
{
	memset(o, 0, sizeof(*o));
	o->manfid = sd_unstuff(resp, 120, 8);
	o->oemid = sd_unstuff(resp, 104, 16);
	for (int i = 0; i < 5; i++)
		o->prod_name[i] = (char)sd_unstuff(resp, 96 - 8 * i, 8);
	o->hwrev = sd_unstuff(resp, 60, 4);
	o->fwrev = sd_unstuff(resp, 56, 4);
	o->serial = sd_unstuff(resp, 24, 32);
	o->year = sd_unstuff(resp, 12, 8) + 2000;
	o->month = sd_unstuff(resp, 8, 4);
}

static const uint32_t tran_exp[] = { 10000, 100000, 1000000, 10000000, 0, 0, 0, 0 };
static const uint8_t tran_mant[] = { 0, 10, 12, 13, 15, 20, 25, 30, 35, 40, 45, 50, 55, 60, 70, 80 };

void sd_decode_csd(const uint32_t resp[4], struct sd_csd *o)
{
	memset(o, 0, sizeof(*o));
	o->structure = sd_unstuff(resp, 126, 2);
	o->taac = sd_unstuff(resp, 112, 8);
	uint32_t e = sd_unstuff(resp, 96, 3), m = sd_unstuff(resp, 99, 4);
	o->tran_speed_hz = tran_exp[e] * tran_mant[m];
	o->cmdclass = sd_unstuff(resp, 84, 12);
	o->read_bl_len = sd_unstuff(resp, 80, 4);
	if (o->structure == 0) {
		o->c_size = sd_unstuff(resp, 62, 12);
		o->c_size_mult = sd_unstuff(resp, 47, 3);
		/* (1 + C_SIZE) << (C_SIZE_MULT + 2) blocks of 2^READ_BL_LEN, in 512-byte sectors */
		o->capacity_sectors = (uint64_t)(1 + o->c_size) << (o->c_size_mult + 2) << (o->read_bl_len - 9);
	} else {
		o->c_size = sd_unstuff(resp, 48, 22);
		o->capacity_sectors = (uint64_t)(1 + o->c_size) << 10;
	}
}

void sd_decode_scr(const uint8_t raw[8], struct sd_scr *o)
{
	/* mmc_app_send_scr: two big-endian words, placed where UNSTUFF_BITS reads bits 63..0 */
	uint32_t resp[4] = { 0, 0, (uint32_t)raw[0] << 24 | raw[1] << 16 | raw[2] << 8 | raw[3], (uint32_t)raw[4] << 24 | raw[5] << 16 | raw[6] << 8 | raw[7] };
	o->structure = sd_unstuff(resp, 60, 4);
	o->sd_spec = sd_unstuff(resp, 56, 4);
	o->security = sd_unstuff(resp, 52, 3);
	o->bus_widths = sd_unstuff(resp, 48, 4);
	o->cmds = sd_unstuff(resp, 32, 4);
}

const char *sd_state_name(uint32_t s)
{
	static const char *names[] = { "idle", "ready", "ident", "stby", "tran", "data", "rcv", "prg", "dis" };
	return s < 9 ? names[s] : "?";
}
