// The SD host controller's register map (SD Host Controller Simplified Specification 2.00,
// section 2.1), its status bits, its capabilities and its PCI configuration space: what
// sdhci.ts implements, as Linux's sdhci.c names them.
/** bus 0, device 13: a free slot whose INTA is routed to the same PIRQ as no other device of ours */
export const SDHCI_PCI_ID = 13 << 3;
/** the BAR: v86 keeps memory BARs where the device puts them; 128 KiB-aligned, free in v86's map */
export const SDHCI_BAR = 0xfea00000;
export const BAR_SIZE = 0x100;

// register offsets (SDHCI spec 2.00, section 2.1)
export const REG = {
  SDMA_ADDRESS: 0x00,
  BLOCK_SIZE: 0x04,
  BLOCK_COUNT: 0x06,
  ARGUMENT: 0x08,
  TRANSFER_MODE: 0x0c,
  COMMAND: 0x0e,
  RESPONSE: 0x10,
  BUFFER: 0x20,
  PRESENT_STATE: 0x24,
  HOST_CONTROL: 0x28,
  POWER_CONTROL: 0x29,
  BLOCK_GAP_CONTROL: 0x2a,
  WAKE_UP_CONTROL: 0x2b,
  CLOCK_CONTROL: 0x2c,
  TIMEOUT_CONTROL: 0x2e,
  SOFTWARE_RESET: 0x2f,
  INT_STATUS: 0x30,
  ERR_STATUS: 0x32,
  INT_ENABLE: 0x34,
  ERR_ENABLE: 0x36,
  SIGNAL_ENABLE: 0x38,
  ERR_SIGNAL_ENABLE: 0x3a,
  ACMD12_ERR: 0x3c,
  CAPABILITIES: 0x40,
  CAPABILITIES_1: 0x44,
  MAX_CURRENT: 0x48,
  SLOT_INT_STATUS: 0xfc,
  HOST_VERSION: 0xfe,
} as const;

// NORMAL_INT_STATUS bits
export const INT = {
  CMD_COMPLETE: 1 << 0,
  TRANSFER_COMPLETE: 1 << 1,
  BUFFER_WRITE_READY: 1 << 4,
  BUFFER_READ_READY: 1 << 5,
  CARD_INSERTION: 1 << 6,
  CARD_REMOVAL: 1 << 7,
  ERROR: 1 << 15,
} as const;
// ERROR_INT_STATUS bits
export const ERR = {
  CMD_TIMEOUT: 1 << 0,
  DATA_TIMEOUT: 1 << 4,
  DATA_END_BIT: 1 << 6,
} as const;
// PRESENT_STATE bits
export const PS = {
  CMD_INHIBIT: 1 << 0,
  DAT_INHIBIT: 1 << 1,
  DAT_ACTIVE: 1 << 2,
  WRITE_ACTIVE: 1 << 8,
  READ_ACTIVE: 1 << 9,
  SPACE_AVAILABLE: 1 << 10,
  DATA_AVAILABLE: 1 << 11,
  CARD_PRESENT: 1 << 16,
  CARD_STABLE: 1 << 17,
  CARD_DETECT_PIN: 1 << 18,
  WRITE_ENABLED: 1 << 19,
  DAT_LEVEL: 0xf << 20,
  CMD_LEVEL: 1 << 24,
};
// TRANSFER_MODE bits
export const TM = { BLOCK_COUNT_ENABLE: 1 << 1, AUTO_CMD12: 1 << 2, READ: 1 << 4, MULTI: 1 << 5 };

/**
 * CAPABILITIES: timeout clock 50 MHz, base clock 50 MHz (25 MHz at divider 2, 390 kHz at 128
 * for identification), 512-byte blocks, 3.3 V only; no SDMA, no ADMA, no high speed.
 */
export const CAPABILITIES = (50 | (1 << 7) | (50 << 8) | (0 << 16) | (1 << 24)) >>> 0;
export const BASE_CLOCK_HZ = 50_000_000;

/** The PCI configuration space: class 0x0805 (SD host, no DMA), one slot, BAR0 the registers. */
export function pciSpace(): number[] {
  const s = new Array(64 * 4).fill(0);
  const le16 = (at: number, v: number) => ((s[at] = v & 0xff), (s[at + 1] = v >> 8));
  le16(0x00, 0x1b36); // Red Hat, as QEMU's sdhci-pci
  le16(0x02, 0x0007);
  le16(0x04, 0x0006); // command: memory space, bus master (what SeaBIOS leaves on)
  s[0x08] = 0x01; // revision
  s[0x09] = 0x00; // programming interface: SD host without DMA
  s[0x0a] = 0x05; // SD host controller
  s[0x0b] = 0x08; // base system peripheral
  const bar = SDHCI_BAR; // 32-bit, non-prefetchable memory
  s[0x10] = bar & 0xff;
  s[0x11] = (bar >>> 8) & 0xff;
  s[0x12] = (bar >>> 16) & 0xff;
  s[0x13] = bar >>> 24;
  le16(0x2c, 0x1af4);
  le16(0x2e, 0x1100);
  s[0x3d] = 1; // INTA
  s[0x40] = 0x00; // sdhci-pci's PCI_SLOT_INFO: one slot, its registers in BAR0
  return s;
}
