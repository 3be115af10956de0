// The bits of the card's registers (sd-card.ts): a register's fields numbered as the SD Physical
// Layer specification numbers them, and the CRC7 its CID and CSD end with. (The geometry of a
// version 1 CSD is in shared/sd-card-spec.ts: the model's tests hold it too.)
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
