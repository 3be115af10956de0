/* SPDX-License-Identifier: MIT */
/* The SD model against what the real kernel printed (mmc_request_done's cmd_resp, Linux 7.2
 * with fslab's emulated card, recorded by e2e/sd.e2e.ts's run): the sequence per card
 * type, the registers and their decoding. */
#include <string.h>
#include "fslab/sd.h"
#include "check.h"

#define MiB (1024ull * 1024)

/* an SDSC card's CSD as the kernel's cmd_resp holds it (the CRC byte 0), decoded */
static void sdsc_csd(uint64_t size, uint32_t serial, struct sd_csd *c)
{
	struct sd_card card;
	uint8_t b[16];
	uint32_t w[4];

	sd_card_init(&card, SD_CARD_SDSC, size, serial);
	sd_card_csd(&card, b);
	for (int k = 0; k < 4; k++)
		w[k] = (uint32_t)b[4 * k] << 24 | b[4 * k + 1] << 16 | b[4 * k + 2] << 8 | (k == 3 ? 0 : b[4 * k + 3]);
	sd_decode_csd(w, c);
}

static int find(const struct sd_record *r, int n, uint32_t op, int app, int nth)
{
	for (int i = 0; i < n; i++)
		if (r[i].opcode == op && (int)r[i].app == app && nth-- == 0)
			return i;
	return -1;
}

static void sequence(enum sd_card_type type, const char *expect)
{
	struct sd_record r[128];
	int n = sd_attach(type, 64 * MiB, 0x0f5ab001, r, 128);
	char got[512] = "";
	for (int i = 0; i < n; i++) {
		char one[16];
		snprintf(one, sizeof(one), "%s%u%s ", r[i].app ? "A" : "", r[i].opcode, r[i].err ? "!" : "");
		strcat(got, one);
	}
	if (strcmp(got, expect))
		fprintf(stderr, "type %d:\n  got      %s\n  expected %s\n", type, got, expect);
	CHECK(!strcmp(got, expect));
}

int main(void)
{
	/* the order the kernel sent them in (! = no answer, -110) */
	sequence(SD_CARD_SDHC, "52! 52! 0 8 5! 5! 5! 5! 55 A41 0 8 55 A41 55 A41 2 3 9 7 55 A51 55 A13 6 55 A6 ");
	sequence(SD_CARD_SDSC, "52! 52! 0 8 5! 5! 5! 5! 55 A41 0 8 55 A41 55 A41 2 3 9 7 55 A51 55 A13 6 55 A6 ");
	sequence(SD_CARD_V1, "52! 52! 0 8! 5! 5! 5! 5! 55 A41 0 8! 55 A41 55 A41 2 3 9 7 55 A51 55 A13 55 A6 ");

	struct sd_record r[128];
	int n = sd_attach(SD_CARD_SDHC, 64 * MiB, 0x0f5ab001, r, 128);
	int i41 = find(r, n, 41, 1, 2), i3 = find(r, n, 3, 0, 0), i9 = find(r, n, 9, 0, 0), i2 = find(r, n, 2, 0, 0);
	CHECK_EQ(r[find(r, n, 41, 1, 1)].arg, 0x48300000); /* HCS | HO2T | 3.2-3.4 V */
	CHECK_EQ(r[i41].resp[0], 0xc0ff8000);
	CHECK_EQ(r[i3].resp[0], 0x45670500); /* RCA 0x4567, ident, ready for data */
	CHECK_EQ(r[find(r, n, 55, 0, 0)].resp[0], 0x400120); /* CMD5's ILLEGAL_COMMAND reported */
	CHECK_EQ(r[find(r, n, 5, 0, 3)].retries, 0);
	const uint32_t cid[4] = { 0x00464c46, 0x534c4142, 0x100f5ab0, 0x101ab00 };
	const uint32_t csd_hc[4] = { 0x400e0032, 0x53590000, 0x7f7f80, 0xa400000 };
	CHECK(!memcmp(r[i2].resp, cid, 16));
	CHECK(!memcmp(r[i9].resp, csd_hc, 16));
	CHECK_EQ(r[find(r, n, 51, 1, 0)].bytes, 8);
	CHECK_EQ(r[n - 1].state, SD_TRAN);

	n = sd_attach(SD_CARD_SDSC, 64 * MiB, 0x0f5ab001, r, 128);
	const uint32_t csd_sc[4] = { 0x260032, 0x535a803f, 0xf6db7f80, 0xa800000 };
	CHECK(!memcmp(r[find(r, n, 9, 0, 0)].resp, csd_sc, 16));
	CHECK_EQ(r[find(r, n, 41, 1, 2)].resp[0], 0x80ff8000); /* no CCS: byte addressing */
	n = sd_attach(SD_CARD_V1, 64 * MiB, 0x0f5ab001, r, 128);
	CHECK_EQ(r[find(r, n, 41, 1, 1)].arg, 0x300000); /* no CMD8 answer: no HCS */
	CHECK_EQ(r[find(r, n, 9, 0, 0)].resp[1], 0x135a803f); /* no command class 10 */

	struct sd_csd c;
	sd_decode_csd(csd_hc, &c);
	CHECK_EQ(c.structure, 1);
	CHECK_EQ(c.capacity_sectors, 131072);
	CHECK_EQ(c.tran_speed_hz, 25000000);
	sd_decode_csd(csd_sc, &c);
	CHECK_EQ(c.structure, 0);
	CHECK_EQ(c.capacity_sectors, 131072);
	/* this serial's pick of the 18 ways to write 64 MiB: 1024-byte blocks, C_SIZE_MULT 6 */
	CHECK_EQ(c.read_bl_len, 10);
	CHECK_EQ(c.c_size, 255);
	CHECK_EQ(c.c_size_mult, 6);
	/* other serials pick other ways: every READ_BL_LEN a version 1 CSD may have comes up */
	{
		unsigned seen = 0;
		for (uint32_t serial = 0; serial < 18; serial++) {
			sdsc_csd(64 * MiB, serial, &c);
			CHECK_EQ(c.capacity_sectors, 131072);
			seen |= 1u << c.read_bl_len;
		}
		CHECK_EQ(seen, (1u << 9) | (1u << 10) | (1u << 11));
	}
	/* every SDSC size the card can be: C_SIZE and C_SIZE_MULT give it back */
	for (uint64_t half = 2; half <= 4096; half += 37) {
		sdsc_csd(half * 512 * 1024, 1, &c);
		CHECK_EQ(c.capacity_sectors * 512, half * 512 * 1024);
	}
	struct sd_cid id;
	sd_decode_cid(cid, &id);
	CHECK(!strcmp(id.prod_name, "FSLAB"));
	CHECK_EQ(id.serial, 0x0f5ab001);
	CHECK_EQ(id.year, 2026);
	CHECK_EQ(id.month, 11);
	struct sd_scr s;
	const uint8_t scr[8] = { 0x02, 0x35, 0, 0, 0, 0, 0, 0 };
	sd_decode_scr(scr, &s);
	CHECK_EQ(s.sd_spec, 2);
	CHECK_EQ(s.bus_widths, 5);
	CHECK_EQ(s.security, 3);
	CHECK(!strcmp(sd_state_name(SD_PRG), "prg"));
	return CHECK_DONE("test_sd");
}
