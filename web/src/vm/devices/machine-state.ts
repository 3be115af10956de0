// A machine's saved state with the devices we add beside v86: v86's own state (it checks its
// length, so ours cannot go inside it), then the SD host's, then a footer that says so.
//
//   [ v86 state ][ SD host JSON ][ card image pages ][ u32 json bytes | u32 image bytes | "FSLABSD1" ]
//
// A state without the footer (dist/state.bin, saved before a card was ever attached, and
// snapshots from before the SD host existed) is v86's alone: the host starts empty.
import { SdhciDevice, type SdhciSnapshot } from "./sdhci";

const MAGIC = "FSLABSD1";
const FOOTER = 8 + MAGIC.length;

export interface DeviceState {
  sdhci: SdhciSnapshot;
  image: Uint8Array;
}

export function joinMachineState(v86: ArrayBuffer, dev: DeviceState): ArrayBuffer {
  const json = new TextEncoder().encode(JSON.stringify(dev.sdhci));
  const out = new Uint8Array(v86.byteLength + json.length + dev.image.length + FOOTER);
  out.set(new Uint8Array(v86), 0);
  out.set(json, v86.byteLength);
  out.set(dev.image, v86.byteLength + json.length);
  const f = new DataView(out.buffer, out.length - FOOTER);
  f.setUint32(0, json.length, true);
  f.setUint32(4, dev.image.length, true);
  for (let i = 0; i < MAGIC.length; i++) f.setUint8(8 + i, MAGIC.charCodeAt(i));
  return out.buffer;
}

/** v86's part and ours; throws a clear error for a damaged footer. */
export function splitMachineState(state: ArrayBuffer): { v86: ArrayBuffer; devices: DeviceState | null } {
  if (state.byteLength < FOOTER) return { v86: state, devices: null };
  const f = new DataView(state, state.byteLength - FOOTER);
  for (let i = 0; i < MAGIC.length; i++) if (f.getUint8(8 + i) !== MAGIC.charCodeAt(i)) return { v86: state, devices: null };
  const jsonLen = f.getUint32(0, true);
  const imageLen = f.getUint32(4, true);
  const v86Len = state.byteLength - FOOTER - jsonLen - imageLen;
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

/** What the page and Node save: v86's state, then the SD host's and its card's. */
export function machineState(v86: ArrayBuffer, sd: SdhciDevice): ArrayBuffer {
  const { meta, data } = sd.snapshot();
  return joinMachineState(v86, { sdhci: meta, image: data });
}

/** The SD host put back as a saved machine had it (after v86's restore); a state from before the SD host: an empty slot. */
export function restoreDevices(sd: SdhciDevice, devices: DeviceState | null): void {
  if (devices) sd.restore(devices.sdhci, devices.image);
  else sd.restore(new SdhciDevice().snapshot().meta, new Uint8Array(0));
}
