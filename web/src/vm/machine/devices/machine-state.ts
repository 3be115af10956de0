// A machine's saved state with the devices we add beside v86: v86's own state (it checks its
// length, so ours cannot go inside it), then the SD host's, then a footer that says so.
//
//   [ v86 state ][ SD host JSON ][ card image pages ][ u32 json bytes | u32 image bytes, low | u32 image bytes, high | "FSLABSD2" ]
//
// The image's length takes 64 bits: a card of 4 GiB written whole has 4 GiB of pages.
// "FSLABSD1" (a u32 image length, no high word) is still read. A state without the footer
// (dist/state.bin, saved before a card was ever attached, and snapshots from before the SD host
// existed) is v86's alone: the host starts empty. The page's part (its trace and terminal) may
// follow it all, with a footer of its own (page-part.ts).
import { SdhciDevice, type CheckedState, type SdhciSnapshot } from "./sdhci";

const MAGIC = "FSLABSD2";
const MAGIC_V1 = "FSLABSD1";
const FOOTER = 12 + MAGIC.length;
const FOOTER_V1 = 8 + MAGIC_V1.length;

export interface DeviceState {
  sdhci: SdhciSnapshot;
  image: Uint8Array;
}

/** A footer: little-endian u32s, then the magic that says what they are. */
export function magicFooter(words: number[], magic: string): Uint8Array {
  const footer = new Uint8Array(4 * words.length + magic.length);
  const f = new DataView(footer.buffer);
  words.forEach((w, i) => f.setUint32(4 * i, w, true));
  for (let i = 0; i < magic.length; i++) f.setUint8(4 * words.length + i, magic.charCodeAt(i));
  return footer;
}

/** A saved machine's pieces in order, each copied once when joined (with the page's part after: page-part.ts). */
export function machinePieces(v86: ArrayBuffer, dev: DeviceState): Uint8Array[] {
  const json = new TextEncoder().encode(JSON.stringify(dev.sdhci));
  const footer = magicFooter([json.length, dev.image.length % 2 ** 32, Math.floor(dev.image.length / 2 ** 32)], MAGIC);
  return [new Uint8Array(v86), json, dev.image, footer];
}

/** Pieces one after another, in one buffer. */
export function joinPieces(pieces: Uint8Array[]): ArrayBuffer {
  const out = new Uint8Array(pieces.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of pieces) {
    out.set(p, at);
    at += p.length;
  }
  return out.buffer;
}

export function joinMachineState(v86: ArrayBuffer, dev: DeviceState): ArrayBuffer {
  return joinPieces(machinePieces(v86, dev));
}

/** Whether the state's last bytes (of its first `length`) are this magic. */
export function endsWith(state: ArrayBuffer, length: number, magic: string): boolean {
  if (length < magic.length) return false;
  const tail = new Uint8Array(state, length - magic.length);
  for (let i = 0; i < magic.length; i++) if (tail[i] !== magic.charCodeAt(i)) return false;
  return true;
}

/**
 * v86's part and ours, of the state's first `length` bytes (what follows is the page's part:
 * page-part.ts); throws a clear error for a damaged footer.
 */
export function splitMachineState(state: ArrayBuffer, length = state.byteLength): { v86: ArrayBuffer; devices: DeviceState | null } {
  const v2 = length >= FOOTER && endsWith(state, length, MAGIC);
  if (!v2 && !(length >= FOOTER_V1 && endsWith(state, length, MAGIC_V1))) return { v86: length === state.byteLength ? state : state.slice(0, length), devices: null };
  const footer = v2 ? FOOTER : FOOTER_V1;
  const f = new DataView(state, length - footer);
  const jsonLen = f.getUint32(0, true);
  const imageLen = f.getUint32(4, true) + (v2 ? f.getUint32(8, true) * 2 ** 32 : 0);
  const v86Len = length - footer - jsonLen - imageLen;
  if (v86Len < 0) throw new Error("the saved machine's SD card part is damaged: its lengths run past the start of the file");
  let sdhci: SdhciSnapshot;
  try {
    sdhci = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(new Uint8Array(state, v86Len, jsonLen)));
  } catch (e) {
    throw new Error(`the saved machine's SD card part is damaged: ${e instanceof Error ? e.message : e}`);
  }
  if (!sdhci || typeof sdhci !== "object" || typeof sdhci.version !== "number") throw new Error("the saved machine's SD card part is damaged: no version");
  return { v86: state.slice(0, v86Len), devices: { sdhci, image: new Uint8Array(state.slice(v86Len + jsonLen, v86Len + jsonLen + imageLen)) } };
}

/** What the page and Node save: v86's state, then the SD host's and its card's (as pieces: machinePieces). */
export function machineState(v86: ArrayBuffer, sd: SdhciDevice): Uint8Array[] {
  const { meta, data } = sd.snapshot();
  return machinePieces(v86, { sdhci: meta, image: data });
}

/**
 * The SD host's part of a saved machine, checked whole before anything is restored (v86's part
 * included): a mismatch or a damaged field throws here, and the running machine stays as it
 * was. A state from before the SD host: an empty slot.
 */
export function checkDevices(devices: DeviceState | null): CheckedState {
  if (devices) return SdhciDevice.check(devices.sdhci, devices.image);
  return SdhciDevice.check(new SdhciDevice().snapshot().meta, new Uint8Array(0));
}
