// The vfat core (wasm/src/vfat): what VFAT writes for a name under a mount's iocharset and
// codepage: the long name's UTF-16 units, the 8.3 short name's bytes, and the entries.
export type IoCharset = "utf8" | "iso8859-1";
export type Codepage = 437 | 932;

export interface VfatName {
  short: Uint8Array; // 11 bytes: base and extension, space padded
  longName: string | null; // null: the 8.3 entry alone holds the name
  lfnSlots: number;
  checksum: number;
  lcase: number;
  entries: Uint8Array; // (lfnSlots + 1) x 32 bytes, as written
  asCp437: string; // the short name as code page 437 reads it
  asCp932: string; // and as code page 932 does
}

import type { VfatModule } from "@wasm/vfat.mjs";
import { cString } from "../../shared/wasm-mem";

export class VfatError extends Error {}

const ERR: Record<number, string> = { 22: "a character VFAT does not allow, or bytes that are not UTF-8", 36: "longer than 255 characters", 17: "the short name is taken (a name differing only in case, or every ~1..~9 tail)" };

/** existing: the directory's 8.3 names so far (for ~N tails and clashes) */
export function vfatName(m: VfatModule, name: string | Uint8Array, io: IoCharset, cp: Codepage, existing: Uint8Array[] = []): VfatName {
  const bytes = typeof name === "string" ? new TextEncoder().encode(name) : name;
  const p = m._fx_malloc(Math.max(1, bytes.length));
  const e = m._fx_malloc(Math.max(1, existing.length * 11));
  try {
    m.HEAPU8.set(bytes, p);
    existing.forEach((s, i) => m.HEAPU8.set(s.subarray(0, 11), e + i * 11));
    const ret = m._fx_vfat_make_name(p, bytes.length, io === "iso8859-1" ? 1 : 0, cp, e, existing.length);
    if (ret < 0) throw new VfatError(ERR[-ret] ?? `error ${-ret}`);
  } finally {
    m._fx_free(p);
    m._fx_free(e);
  }
  const sp = m._fx_vfat_shortname();
  const lfnSlots = m._fx_vfat_lfn_slots();
  const ulen = m._fx_vfat_ulen();
  const up = m._fx_vfat_uni() >>> 1;
  const ep = m._fx_vfat_entries();
  return {
    short: m.HEAPU8.slice(sp, sp + 11),
    longName: lfnSlots ? String.fromCharCode(...m.HEAPU16.subarray(up, up + ulen)) : null,
    lfnSlots,
    checksum: m._fx_vfat_checksum(),
    lcase: m._fx_vfat_lcase(),
    entries: m.HEAPU8.slice(ep, ep + (lfnSlots + 1) * 32),
    asCp437: cString(m, m._fx_vfat_shortname_as(437)),
    asCp932: cString(m, m._fx_vfat_shortname_as(932)),
  };
}

export const hex = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
