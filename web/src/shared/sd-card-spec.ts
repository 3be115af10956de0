// What an SD card is, as the specification names it: the card types fslab has, the card's
// states, which sizes a card of a type can have, and how a version 1 CSD writes a size. Shared
// by the emulated card (vm/machine/devices/sd-card.ts) and the sd topic's model and CLI
// (topics/sd/), which may not import each other.

export type CardType = "sdhc" | "sdsc" | "v1";
export const CARD_TYPES: readonly CardType[] = ["sdhc", "sdsc", "v1"];

/** The card's states, in the specification's numbering (R1's CURRENT_STATE field). */
export const STATES = ["idle", "ready", "ident", "stby", "tran", "data", "rcv", "prg", "dis"] as const;
export type StateName = (typeof STATES)[number];

/** Parse "64M", "1G", "512K", "1048576" into bytes; null if it is not a size. */
export function parseSize(s: string): number | null {
  const m = /^(\d+)([KMG]?)(i?B)?$/i.exec(s.trim());
  if (!m) return null;
  const mul = { "": 1, K: 2 ** 10, M: 2 ** 20, G: 2 ** 30 }[m[2].toUpperCase() as "" | "K" | "M" | "G"];
  return Number(m[1]) * mul;
}

/** Why a card of this type cannot have this size (bytes) by the specification's registers, or null. */
export function cardSizeError(type: CardType, size: number): string | null {
  if (!CARD_TYPES.includes(type)) return `no card type "${type}" (sdhc, sdsc or v1)`;
  if (!Number.isSafeInteger(size) || size < 2 ** 20) return "a card holds at least 1 MiB";
  // SDHC's CSD v2 counts in 512 KiB (C_SIZE); v1's units divide 512 KiB too
  if (size % (512 * 1024)) return "a card's size is a multiple of 512 KiB";
  // SDSC's CSD v1 counts C_SIZE (12 bits) x 2^(C_SIZE_MULT+2) x READ_BL_LEN, up to 2 GiB
  if (size > 2 ** 31 && size < SDHC_MIN_BYTES) return "no SD card holds more than 2 GiB and less than 2056.5 MiB (SDSC's largest, SDHC's smallest)";
  if (type !== "sdhc" && size > 2 ** 31) return "an SDSC card holds at most 2 GiB: use an SDHC card";
  if (type === "sdhc" && size < SDHC_MIN_BYTES) return "an SDHC card holds more than 2 GiB (2056.5 MiB at least): use an SDSC card (sdsc) for a smaller one";
  return null;
}

/** The type a size with none named is: SDHC above SDSC's 2 GiB, SDSC up to it. */
export const typeForSize = (size: number): CardType => (size > 2 ** 31 ? "sdhc" : "sdsc");

/**
 * The smallest SDHC card: CSD 2.0's C_SIZE runs from 0x1010 (the Physical Layer Specification,
 * 5.3.3: SDHC covers more than 2 GB up to 32 GB), the capacity (C_SIZE + 1) x 512 KiB.
 */
export const SDHC_MIN_BYTES = (0x1010 + 1) * 512 * 1024;

/**
 * READ_BL_LEN, C_SIZE and C_SIZE_MULT of a CSD version 1 for a size (bytes). Most sizes have
 * several: a 2 GB card of one maker says READ_BL_LEN 10, another's 11. The card picks one by
 * its serial number (the same in the model, wasm/src/sd/card.c; topics/sd/sd-compare.test.ts
 * holds the two equal), so a card's geometry cannot be told from its size alone: the sd-card
 * lab asks for it read from the bits.
 */
export function csdV1Geometry(size: number, serial: number): { readBlLen: number; cSize: number; cSizeMult: number } {
  // capacity = (C_SIZE + 1) x 2^(C_SIZE_MULT + 2) x 2^READ_BL_LEN, C_SIZE < 4096, C_SIZE_MULT < 8
  const fits: Array<{ readBlLen: number; cSize: number; cSizeMult: number }> = [];
  for (const readBlLen of [9, 10, 11])
    for (let cSizeMult = 0; cSizeMult < 8; cSizeMult++) {
      const unit = 2 ** (cSizeMult + 2 + readBlLen);
      if (size % unit === 0 && size / unit <= 4096) fits.push({ readBlLen, cSize: size / unit - 1, cSizeMult });
    }
  if (!fits.length) throw new Error(`no CSD version 1 describes ${size} bytes`);
  return fits[(serial >>> 0) % fits.length];
}
