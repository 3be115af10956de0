// The bits of the card's registers (sd-card.ts): a register's fields numbered as the SD Physical
// Layer specification numbers them, the CRC7 its CID and CSD end with, and the geometry of a
// version 1 CSD.
/** READ_BL_LEN, C_SIZE and C_SIZE_MULT of a CSD version 1 for a size (bytes). */
export function csdV1Geometry(size: number): { readBlLen: number; cSize: number; cSizeMult: number } {
  // capacity = (C_SIZE + 1) x 2^(C_SIZE_MULT + 2) x 2^READ_BL_LEN, C_SIZE < 4096, C_SIZE_MULT < 8
  for (const readBlLen of [9, 10, 11])
    for (let cSizeMult = 0; cSizeMult < 8; cSizeMult++) {
      const unit = 2 ** (cSizeMult + 2 + readBlLen);
      if (size % unit === 0 && size / unit <= 4096) return { readBlLen, cSize: size / unit - 1, cSizeMult };
    }
  throw new Error(`no CSD version 1 describes ${size} bytes`);
}

/** A register's bits, numbered as the specification does: bit 0 is the last byte's lowest. */
export class BitField {
  private b: Uint8Array;
  constructor(private bits: number) {
    this.b = new Uint8Array(bits / 8);
  }
  set(start: number, width: number, value: number): void {
    for (let i = 0; i < width; i++) {
      const bit = start + i;
      const byte = this.b.length - 1 - (bit >> 3);
      const on = Math.floor(value / 2 ** i) % 2 === 1;
      if (on) this.b[byte] |= 1 << (bit & 7);
      else this.b[byte] &= ~(1 << (bit & 7));
    }
  }
  bytes(): Uint8Array {
    return this.b;
  }
}

/** The CRC7 of the SD specification (polynomial x^7 + x^3 + 1), as CID and CSD end with. */
export function crc7(data: Uint8Array): number {
  let crc = 0;
  for (const byte of data)
    for (let i = 7; i >= 0; i--) {
      const bit = ((byte >> i) & 1) ^ ((crc >> 6) & 1);
      crc = (crc << 1) & 0x7f;
      if (bit) crc ^= 0x09;
    }
  return crc;
}
