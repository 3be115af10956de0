/* SPDX-License-Identifier: MIT */
/* The SD card: its registers and states, answering a command at a time. The same card as the
 * emulated one (web/src/vm/devices/sd-card.ts), which the guest's kernel talks to. */
#include <string.h>
#include "fslab/sd.h"

#define ETIMEDOUT 110
#define CLEAR_ON_READ (R1_OUT_OF_RANGE | R1_ADDRESS_ERROR | R1_BLOCK_LEN_ERROR | R1_ERASE_SEQ_ERROR | R1_ERASE_PARAM | R1_ILLEGAL_COMMAND)

void sd_card_init(struct sd_card *c, enum sd_card_type type, uint64_t size, uint32_t serial)
{
	memset(c, 0, sizeof(*c));
	c->type = type;
	c->size = size;
	c->serial = serial;
	c->state = SD_IDLE;
	c->bus_width = 1;
}

/* bit `start` of a register of `bytes` bytes, numbered as the specification does */
static void set_bits(uint8_t *b, int bytes, int start, int width, uint64_t value)
{
	for (int i = 0; i < width; i++) {
		int bit = start + i, byte = bytes - 1 - (bit >> 3);
		if ((value >> i) & 1)
			b[byte] |= 1u << (bit & 7);
		else
			b[byte] &= ~(1u << (bit & 7));
	}
}

static uint8_t crc7(const uint8_t *d, int n)
{
	uint8_t crc = 0;
	for (int k = 0; k < n; k++)
		for (int i = 7; i >= 0; i--) {
			int bit = ((d[k] >> i) & 1) ^ ((crc >> 6) & 1);
			crc = (crc << 1) & 0x7f;
			if (bit)
				crc ^= 0x09;
		}
	return crc;
}

void sd_card_cid(const struct sd_card *c, uint8_t b[16])
{
	/* MID 0x00 (no maker's ID), OID "FL", PNM "FSLAB" */
	static const uint8_t head[8] = { 0x00, 'F', 'L', 'F', 'S', 'L', 'A', 'B' };
	const uint32_t serial = c->serial;
	memcpy(b, head, 8);
	b[8] = 0x10; /* PRV 1.0 */
	b[9] = (uint8_t)(serial >> 24), b[10] = (uint8_t)(serial >> 16), b[11] = (uint8_t)(serial >> 8), b[12] = (uint8_t)serial;
	b[13] = 26 >> 4;                /* MDT: 2026 */
	b[14] = ((26 & 0xf) << 4) | 11; /* November */
	b[15] = (crc7(b, 15) << 1) | 1;
}

/* (C_SIZE + 1) x 2^(C_SIZE_MULT + 2) x 2^READ_BL_LEN bytes, with C_SIZE below 4096 */
static int csd_v1_fits(uint64_t size, int read_bl_len, int c_size_mult)
{
	uint64_t unit = 1ull << (c_size_mult + 2 + read_bl_len);

	return size % unit == 0 && size / unit <= 4096;
}

void sd_card_csd(const struct sd_card *c, uint8_t b[16])
{
	memset(b, 0, 16);
	/* classes 0, 2, 4, 5, 8 and (not on SD 1.0) 10: what the card implements (no 6, no 7) */
	uint32_t ccc = c->type == SD_CARD_V1 ? 0x135 : 0x535;
	if (c->type == SD_CARD_SDHC) {
		set_bits(b, 16, 126, 2, 1);
		set_bits(b, 16, 112, 8, 0x0e);
		set_bits(b, 16, 96, 8, 0x32);
		set_bits(b, 16, 84, 12, ccc);
		set_bits(b, 16, 80, 4, 9);
		set_bits(b, 16, 48, 22, c->size / (512 * 1024) - 1);
		set_bits(b, 16, 46, 1, 1);
		set_bits(b, 16, 39, 7, 0x7f);
		set_bits(b, 16, 26, 3, 2);
		set_bits(b, 16, 22, 4, 9);
	} else {
		/*
		 * capacity = (C_SIZE + 1) x 2^(C_SIZE_MULT + 2) x 2^READ_BL_LEN. Most sizes fit several
		 * ways; the card takes the one its serial picks among them, in this order, as the
		 * emulated card does (sd-bits.ts csdV1Geometry)
		 */
		int bl = 9, mult = 0, fits = 0, pick, k = 0;
		uint64_t csize = 0;
		for (int l = 9; l <= 11; l++)
			for (int m = 0; m < 8; m++)
				fits += csd_v1_fits(c->size, l, m);
		pick = fits ? (int)(c->serial % (uint32_t)fits) : 0;
		for (int l = 9; l <= 11; l++)
			for (int m = 0; m < 8; m++)
				if (csd_v1_fits(c->size, l, m) && k++ == pick)
					bl = l, mult = m, csize = (c->size >> (m + 2 + l)) - 1;
		set_bits(b, 16, 112, 8, 0x26);
		set_bits(b, 16, 96, 8, 0x32);
		set_bits(b, 16, 84, 12, ccc);
		set_bits(b, 16, 80, 4, bl);
		set_bits(b, 16, 79, 1, 1); /* READ_BL_PARTIAL: always 1 on SD */
		set_bits(b, 16, 62, 12, csize);
		set_bits(b, 16, 59, 3, 6);
		set_bits(b, 16, 56, 3, 6);
		set_bits(b, 16, 53, 3, 6);
		set_bits(b, 16, 50, 3, 6);
		set_bits(b, 16, 47, 3, mult);
		set_bits(b, 16, 46, 1, 1);
		set_bits(b, 16, 39, 7, 0x7f);
		set_bits(b, 16, 26, 3, 2);
		set_bits(b, 16, 22, 4, bl);
	}
	b[15] = (crc7(b, 15) << 1) | 1;
}

void sd_card_scr(const struct sd_card *c, uint8_t b[8])
{
	memset(b, 0, 8);
	set_bits(b, 8, 56, 4, c->type == SD_CARD_V1 ? 0 : 2);     /* SD_SPEC */
	set_bits(b, 8, 52, 3, c->type == SD_CARD_SDHC ? 3 : 2);   /* SD_SECURITY */
	set_bits(b, 8, 48, 4, 0x5);                               /* 1- and 4-bit bus */
}

/* the 128-bit register in Linux's cmd->resp after sdhci_read_rsp_136: the CRC byte is 0 */
static void r2(const uint8_t b[16], uint32_t resp[4])
{
	for (int i = 0; i < 4; i++)
		resp[i] = (uint32_t)b[4 * i] << 24 | (uint32_t)b[4 * i + 1] << 16 | (uint32_t)b[4 * i + 2] << 8 | (i == 3 ? 0 : b[4 * i + 3]);
}

static uint32_t r1(struct sd_card *c, enum sd_state before, int app, uint32_t extra)
{
	int ready = c->state != SD_PRG && c->state != SD_RCV;
	uint32_t v = c->status | extra | (uint32_t)before << 9 | (ready ? R1_READY_FOR_DATA : 0) | (app ? R1_APP_CMD : 0);
	c->status &= ~CLEAR_ON_READ;
	return v;
}

int sd_card_command(struct sd_card *c, uint32_t op, uint32_t arg, uint32_t resp[4], uint32_t *bytes)
{
	const int app = c->app;
	const enum sd_state before = c->state;
	const int addressed = (arg >> 16) == c->rca && c->rca;
	memset(resp, 0, 16);
	*bytes = 0;
	if (c->inactive)
		return -ETIMEDOUT; /* inactive: silent until a power cycle */
	c->app = 0;
#define ILLEGAL() do { c->status |= R1_ILLEGAL_COMMAND; return -ETIMEDOUT; } while (0)
	if (app) {
		switch (op) {
		case 6: /* SET_BUS_WIDTH */
			if (before != SD_TRAN)
				ILLEGAL();
			if ((arg & 3) != 0 && (arg & 3) != 2) { /* neither 1 nor 4 bits */
				resp[0] = r1(c, before, 1, R1_ERASE_PARAM);
				return 0;
			}
			c->bus_width = (arg & 3) == 2 ? 4 : 1;
			resp[0] = r1(c, before, 1, 0);
			return 0;
		case 22: /* SEND_NUM_WR_BLOCKS: 4 bytes (this card writes no data: 0) */
		case 23: /* SET_WR_BLK_ERASE_COUNT */
		case 42: /* SET_CLR_CARD_DETECT */
			if (before != SD_TRAN)
				ILLEGAL();
			resp[0] = r1(c, before, 1, 0);
			*bytes = op == 22 ? 4 : 0;
			return 0;
		case 13: /* SD_STATUS */
		case 51: /* SEND_SCR */
			if (before != SD_TRAN)
				ILLEGAL();
			resp[0] = r1(c, before, 1, 0);
			*bytes = op == 13 ? 64 : 8;
			c->state = SD_TRAN; /* the register is sent, the card is back in tran */
			return 0;
		case 41: /* SD_SEND_OP_COND */
			if (before != SD_IDLE)
				ILLEGAL();
			if (arg & SD_OCR_VOLTAGES) {
				int can = c->type != SD_CARD_SDHC || (c->if_cond && (arg & SD_OCR_CCS));
				if (can && c->op_cond_calls++ >= SD_ACMD41_BUSY_REPLIES)
					c->ready = 1;
			}
			resp[0] = SD_OCR_VOLTAGES | (c->ready ? SD_OCR_BUSY | (c->type == SD_CARD_SDHC ? SD_OCR_CCS : 0) : 0);
			if (c->ready)
				c->state = SD_READY;
			return 0;
		}
	}
	switch (op) {
	case 0: /* idle, with the RCA, status and bus width at their reset values */
		c->state = SD_IDLE, c->op_cond_calls = 0, c->ready = 0, c->if_cond = 0;
		c->rca = 0, c->status = 0, c->bus_width = 1;
		return 0;
	case 15: /* GO_INACTIVE_STATE: no response */
		if (before == SD_IDLE || before == SD_READY || before == SD_IDENT)
			ILLEGAL();
		if (addressed)
			c->inactive = 1;
		return -ETIMEDOUT;
	case 2:
		if (before != SD_READY)
			ILLEGAL();
		{
			uint8_t b[16];
			sd_card_cid(c, b);
			r2(b, resp);
		}
		c->state = SD_IDENT;
		return 0;
	case 3:
		if (before != SD_IDENT && before != SD_STBY)
			ILLEGAL();
		c->rca = (uint16_t)(c->rca + 0x4567) ? (uint16_t)(c->rca + 0x4567) : 0x4567;
		c->state = SD_STBY;
		{
			uint32_t s = c->status | (uint32_t)before << 9 | R1_READY_FOR_DATA;
			resp[0] = (uint32_t)c->rca << 16 | ((s >> 23) & 1) << 15 | ((s >> 22) & 1) << 14 | ((s >> 19) & 1) << 13 | (s & 0x1fff);
			c->status &= ~CLEAR_ON_READ;
		}
		return 0;
	case 6:
		if (c->type == SD_CARD_V1 || before != SD_TRAN)
			ILLEGAL();
		resp[0] = r1(c, before, app, 0);
		*bytes = 64;
		return 0;
	case 7:
		if (addressed) {
			if (before != SD_STBY)
				ILLEGAL();
			c->state = SD_TRAN;
			resp[0] = r1(c, before, app, 0);
			return 0;
		}
		if (before == SD_TRAN || before == SD_DATA)
			c->state = SD_STBY;
		return -ETIMEDOUT;
	case 8:
		if (c->type == SD_CARD_V1 || before != SD_IDLE)
			ILLEGAL();
		if (((arg >> 8) & 0xf) != 1)
			return -ETIMEDOUT;
		c->if_cond = 1;
		resp[0] = arg & 0xfff;
		return 0;
	case 9:  /* SEND_CSD */
	case 10: /* SEND_CID */
		if (before != SD_STBY)
			ILLEGAL();
		if (!addressed)
			return -ETIMEDOUT;
		{
			uint8_t b[16];
			if (op == 9)
				sd_card_csd(c, b);
			else
				sd_card_cid(c, b);
			r2(b, resp);
		}
		return 0;
	case 13:
		if (before == SD_IDLE || before == SD_READY || before == SD_IDENT)
			ILLEGAL();
		if (!addressed)
			return -ETIMEDOUT;
		resp[0] = r1(c, before, app, 0);
		return 0;
	case 55:
		if (before != SD_IDLE && !addressed)
			return -ETIMEDOUT;
		c->app = 1;
		resp[0] = r1(c, before, 1, 0);
		return 0;
	default: /* CMD5, CMD52 (SDIO's) and the rest of what a memory card does not know */
		ILLEGAL();
	}
#undef ILLEGAL
}
