/* SPDX-License-Identifier: MIT */
/*
 * The SD card model: a card's states and registers (SD Physical Layer Simplified Specification
 * 3.01) and the commands Linux's MMC core sends to initialise it, in the kernel's order
 * (drivers/mmc/core/core.c mmc_rescan_try_freq, sd.c mmc_attach_sd / mmc_sd_init_card /
 * mmc_sd_setup_card, sd_ops.c, sdio_ops.c), each as one record: what mmc_request_start and
 * mmc_request_done print for it, and the card's state after it.
 *
 * The card answers as fslab's emulated card does (web/src/vm/devices/sd-card.ts); e2e tests
 * hold the model's records equal to the real kernel's mmc events for each card type.
 */
#ifndef FSLAB_SD_H
#define FSLAB_SD_H
#include <stdint.h>

enum sd_card_type { SD_CARD_SDHC, SD_CARD_SDSC, SD_CARD_V1 };

/* R1's CURRENT_STATE numbering */
enum sd_state { SD_IDLE, SD_READY, SD_IDENT, SD_STBY, SD_TRAN, SD_DATA, SD_RCV, SD_PRG, SD_DIS };

/* R1 card status bits */
#define R1_OUT_OF_RANGE      (1u << 31)
#define R1_ADDRESS_ERROR     (1u << 30)
#define R1_BLOCK_LEN_ERROR   (1u << 29)
#define R1_ERASE_SEQ_ERROR   (1u << 28)
#define R1_ERASE_PARAM       (1u << 27)
#define R1_ILLEGAL_COMMAND   (1u << 22)
#define R1_READY_FOR_DATA    (1u << 8)
#define R1_APP_CMD           (1u << 5)

#define SD_OCR_VOLTAGES 0x00ff8000u /* 2.7-3.6 V */
#define SD_OCR_BUSY     (1u << 31)  /* set: powered up */
#define SD_OCR_CCS      (1u << 30)
#define SD_OCR_2T       (1u << 27)
#define MMC_CMD_RETRIES 3
#define SD_ACMD41_BUSY_REPLIES 1 /* answers "still busy" before ready, as the emulated card */

struct sd_card {
	enum sd_card_type type;
	uint64_t size;
	enum sd_state state;
	uint16_t rca;
	uint32_t status; /* error bits carried to the next R1 */
	uint32_t serial; /* the CID's PSN: each card its own */
	int app, op_cond_calls, ready, if_cond, bus_width;
	int inactive;    /* CMD15: answers nothing until its power is cycled */
};

/* one request as the kernel traces it */
struct sd_record {
	uint32_t opcode;
	uint32_t app;      /* an application command (after CMD55) */
	uint32_t arg;
	uint32_t retries;  /* cmd_retries as mmc_request_start printed it */
	int32_t err;       /* 0 or -110 (ETIMEDOUT: the card did not answer) */
	uint32_t resp[4];  /* as mmc_request_done prints cmd_resp */
	uint32_t bytes;    /* data transferred (bytes_xfered) */
	uint32_t state;    /* the card's state after it (enum sd_state) */
};

void sd_card_init(struct sd_card *c, enum sd_card_type type, uint64_t size, uint32_t serial);
/* One command to the card: 0 and its response in resp[], or -110 (no answer). *bytes: data. */
int sd_card_command(struct sd_card *c, uint32_t opcode, uint32_t arg, uint32_t resp[4], uint32_t *bytes);
void sd_card_cid(const struct sd_card *c, uint8_t out[16]);
void sd_card_csd(const struct sd_card *c, uint8_t out[16]);
void sd_card_scr(const struct sd_card *c, uint8_t out[8]);

/* Linux's initialisation of a card in a slot (one SDHCI host: 3.3 V, 4-bit, no UHS, no high
 * speed): the records, at most max; returns how many, or -1 if max is too small. */
int sd_attach(enum sd_card_type type, uint64_t size, uint32_t serial, struct sd_record *rec, int max);

/* The registers as Linux decodes them (mmc_decode_cid, mmc_decode_csd, mmc_decode_scr). */
struct sd_cid { uint32_t manfid, oemid, hwrev, fwrev, serial, year, month; char prod_name[6]; };
struct sd_csd { uint32_t structure, taac, tran_speed_hz, cmdclass, read_bl_len, c_size, c_size_mult; uint64_t capacity_sectors; };
struct sd_scr { uint32_t structure, sd_spec, bus_widths, security, cmds; };
void sd_decode_cid(const uint32_t resp[4], struct sd_cid *out);
void sd_decode_csd(const uint32_t resp[4], struct sd_csd *out);
void sd_decode_scr(const uint8_t raw[8], struct sd_scr *out);
/* the state named in R1's CURRENT_STATE, "idle".."dis" */
const char *sd_state_name(uint32_t state);
/* UNSTUFF_BITS: bits [start, start+size) of a 128-bit register held as Linux holds it */
uint32_t sd_unstuff(const uint32_t resp[4], int start, int size);
#endif
