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

/* one card driven a command at a time (the emulated card's equivalence test, sd-card-model.test.ts) */
static struct sd_card card;
static uint32_t answer[8];

void fx_sd_card_new(int type, uint32_t size_lo, uint32_t size_hi, uint32_t serial)
{
	sd_card_init(&card, (enum sd_card_type)type, (uint64_t)size_hi << 32 | size_lo, serial);
}

/* err resp[4] bytes state inactive */
const uint32_t *fx_sd_card_command(uint32_t op, uint32_t arg)
{
	uint32_t resp[4], bytes;
	answer[0] = (uint32_t)sd_card_command(&card, op, arg, resp, &bytes);
	for (int i = 0; i < 4; i++)
		answer[1 + i] = resp[i];
	answer[5] = bytes, answer[6] = card.state, answer[7] = card.inactive;
	return answer;
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
