/* SPDX-License-Identifier: MIT */
/*
 * What Linux sends to a card it finds in a slot, function by function as in the kernel
 * (drivers/mmc/core/), for one SDHCI host with 3.3 V, a 4-bit bus, no UHS, no high speed:
 *
 *   mmc_rescan -> mmc_rescan_try_freq: sdio_reset (CMD52 x2), mmc_go_idle (CMD0),
 *     mmc_send_if_cond (CMD8), mmc_attach_sdio (CMD5, 3 retries), mmc_attach_sd:
 *       mmc_send_app_op_cond(0) (CMD55 + ACMD41, a query), mmc_sd_init_card:
 *         mmc_sd_get_cid: CMD0, CMD8, ACMD41 until powered up, CMD2
 *         mmc_send_relative_addr (CMD3), mmc_sd_get_csd (CMD9), mmc_select_card (CMD7)
 *         mmc_sd_setup_card: mmc_app_send_scr (ACMD51), mmc_read_ssr (ACMD13),
 *           mmc_read_switch (CMD6, SD 1.10 and later with command class 10)
 *         mmc_app_set_bus_width (ACMD6)
 *
 * Each request is a record as the kernel's mmc_request_start/done print it. After this the
 * block driver's probe reads the partition table (CMD18 + CMD12), which the model leaves out.
 */
#include <string.h>
#include "fslab/sd.h"

#define ETIMEDOUT 110
#define MMC_VDD_32_34 0x00300000u /* the host's ocr_avail at 3.3 V */

struct host {
	struct sd_card card;
	struct sd_record *rec;
	int n, max;
};

/* mmc_wait_for_cmd: the request, retried on an error as many times as asked */
static int wait_for_cmd(struct host *h, uint32_t opcode, uint32_t arg, int retries, uint32_t resp[4])
{
	int app = h->card.app;
	for (;;) {
		uint32_t r[4], bytes;
		int err = sd_card_command(&h->card, opcode, arg, r, &bytes);
		if (h->n < h->max) {
			struct sd_record *x = &h->rec[h->n];
			*x = (struct sd_record){ opcode, (uint32_t)app, arg, (uint32_t)retries, err, { r[0], r[1], r[2], r[3] }, bytes, h->card.state };
		}
		h->n++;
		if (resp)
			memcpy(resp, r, 16);
		if (!err || !retries)
			return err;
		retries--;
		app = h->card.app;
	}
}

/* mmc_wait_for_app_cmd: CMD55 to the card's RCA, then the command, each try up to 3 retries */
static int wait_for_app_cmd(struct host *h, uint32_t opcode, uint32_t arg, uint32_t resp[4])
{
	int err = -ETIMEDOUT;
	for (int i = 0; i <= MMC_CMD_RETRIES; i++) {
		uint32_t r55[4];
		err = wait_for_cmd(h, 55, (uint32_t)h->card.rca << 16, 0, r55);
		if (err)
			continue;
		if (!(r55[0] & R1_APP_CMD))
			return -95; /* EOPNOTSUPP */
		err = wait_for_cmd(h, opcode, arg, 0, resp);
		if (!err)
			break;
	}
	return err;
}

/* mmc_send_app_op_cond: ACMD41 until the card reports it is powered up (once for a query) */
static int send_app_op_cond(struct host *h, uint32_t ocr, uint32_t *rocr)
{
	uint32_t r[4] = { 0 };
	int err = -ETIMEDOUT;
	for (int tries = 0; tries < 100; tries++) {
		err = wait_for_app_cmd(h, 41, ocr, r);
		if (err)
			break;
		if (!ocr || (r[0] & SD_OCR_BUSY))
			break;
		err = -ETIMEDOUT;
	}
	if (rocr)
		*rocr = r[0];
	return err;
}

int sd_attach(enum sd_card_type type, uint64_t size, uint32_t serial, struct sd_record *rec, int max)
{
	struct host h = { .rec = rec, .max = max };
	uint32_t r[4], ocr, rocr;
	sd_card_init(&h.card, type, size, serial);

	/* mmc_rescan_try_freq */
	wait_for_cmd(&h, 52, 6u << 9, 0, r);                   /* sdio_reset: read CCCR ABORT ... */
	wait_for_cmd(&h, 52, 1u << 31 | 6u << 9 | 0x08, 0, r); /* ... and write it with RES */
	wait_for_cmd(&h, 0, 0, 0, NULL);                       /* mmc_go_idle */
	wait_for_cmd(&h, 8, 0x1aa, 0, r);                      /* mmc_send_if_cond: 2.7-3.6 V, pattern 0xaa */
	wait_for_cmd(&h, 5, 0, MMC_CMD_RETRIES, r);            /* mmc_attach_sdio: mmc_send_io_op_cond(0) */

	/* mmc_attach_sd */
	if (send_app_op_cond(&h, 0, &ocr))
		return h.n <= max ? h.n : -1;
	ocr = ocr & MMC_VDD_32_34; /* mmc_select_voltage: the host's window within the card's */

	/* mmc_sd_init_card -> mmc_sd_get_cid */
	wait_for_cmd(&h, 0, 0, 0, NULL);
	if (!wait_for_cmd(&h, 8, 0x1aa, 0, r))
		ocr |= SD_OCR_CCS | SD_OCR_2T;
	if (send_app_op_cond(&h, ocr, &rocr))
		return h.n <= max ? h.n : -1;
	wait_for_cmd(&h, 2, 0, MMC_CMD_RETRIES, r);
	wait_for_cmd(&h, 3, 0, MMC_CMD_RETRIES, r);
	uint32_t rca_arg = (uint32_t)h.card.rca << 16;
	uint32_t csd[4];
	wait_for_cmd(&h, 9, rca_arg, MMC_CMD_RETRIES, csd);
	wait_for_cmd(&h, 7, rca_arg, MMC_CMD_RETRIES, r);

	/* mmc_sd_setup_card */
	uint8_t scr_raw[8];
	struct sd_scr scr;
	struct sd_csd c;
	wait_for_app_cmd(&h, 51, 0, r);
	sd_card_scr(&h.card, scr_raw);
	sd_decode_scr(scr_raw, &scr);
	sd_decode_csd(csd, &c);
	if (c.cmdclass & (1u << 8)) /* CCC_APP_SPEC: mmc_read_ssr */
		wait_for_app_cmd(&h, 13, 0, r);
	if (scr.sd_spec >= 1 && (c.cmdclass & (1u << 10))) /* mmc_read_switch: check mode, group 1 */
		wait_for_cmd(&h, 6, 0x00fffff0, 0, r);

	/* 4-bit data when both sides can: mmc_app_set_bus_width */
	if (scr.bus_widths & 4)
		wait_for_app_cmd(&h, 6, 2, r);
	return h.n <= max ? h.n : -1;
}
