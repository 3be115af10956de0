/* SPDX-License-Identifier: MIT */
/* The sd core's wasm surface (web/src/topics/sd/sd-core.ts): one initialisation at a time, its
 * records kept until the next call; registers decoded into flat u32 rows. */
#include "fslab/sd.h"

#define MAX_RECORDS 128
static struct sd_record records[MAX_RECORDS];
static uint32_t decoded[16];

/* records of Linux's initialisation of a card of `type` (0 sdhc, 1 sdsc, 2 v1), size and CID serial */
int fx_sd_attach(int type, uint32_t size_lo, uint32_t size_hi, uint32_t serial)
{
	return sd_attach((enum sd_card_type)type, (uint64_t)size_hi << 32 | size_lo, serial, records, MAX_RECORDS);
}

/* each record is 11 u32: opcode app arg retries err resp[4] bytes state */
const struct sd_record *fx_sd_records(void) { return records; }

/* CSD from cmd_resp: structure taac tran_speed_hz cmdclass read_bl_len c_size c_size_mult
 * capacity_sectors(lo) capacity_sectors(hi) */
const uint32_t *fx_sd_decode_csd(const uint32_t *resp)
{
	struct sd_csd c;
	sd_decode_csd(resp, &c);
	uint32_t v[] = { c.structure, c.taac, c.tran_speed_hz, c.cmdclass, c.read_bl_len, c.c_size, c.c_size_mult, (uint32_t)c.capacity_sectors, (uint32_t)(c.capacity_sectors >> 32) };
	for (unsigned i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		decoded[i] = v[i];
	return decoded;
}

/* CID: manfid oemid hwrev fwrev serial year month, then the product name's 5 bytes */
const uint32_t *fx_sd_decode_cid(const uint32_t *resp)
{
	struct sd_cid c;
	sd_decode_cid(resp, &c);
	uint32_t v[] = { c.manfid, c.oemid, c.hwrev, c.fwrev, c.serial, c.year, c.month };
	for (unsigned i = 0; i < 7; i++)
		decoded[i] = v[i];
	for (unsigned i = 0; i < 5; i++)
		decoded[7 + i] = (uint8_t)c.prod_name[i];
	return decoded;
}

/* SCR from its 8 bytes: structure sd_spec bus_widths security cmds */
const uint32_t *fx_sd_decode_scr(const uint8_t *raw)
{
	struct sd_scr s;
	sd_decode_scr(raw, &s);
	decoded[0] = s.structure, decoded[1] = s.sd_spec, decoded[2] = s.bus_widths, decoded[3] = s.security, decoded[4] = s.cmds;
	return decoded;
}
