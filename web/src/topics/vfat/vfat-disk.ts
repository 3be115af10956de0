// The vfat-codepages lab's volume, read back: each directory the lab fills under one mount's
// options, its entries in slot order (creation order in a fresh directory), and the bytes the
// program must have given for each name, so the model can be asked about the same names.
import type { VfatEntry, VfatReport } from "./inspect-report";
import type { Codepage, IoCharset } from "./vfat-core";
import { VFAT_MOUNTS } from "./vfat-names";

export interface MountDir {
  dir: string;
  options: string;
  io: IoCharset;
  cp: Codepage;
  /** the directory's files, in slot order */
  entries: VfatEntry[];
}

/** The lab's directories found on the volume (the same three the test image uses). */
export function mountDirs(report: VfatReport): MountDir[] {
  return VFAT_MOUNTS.flatMap((m) => {
    const entries = report.files
      .filter((f) => !f.dir && f.path.startsWith(`/${m.dir}/`) && f.path.indexOf("/", m.dir.length + 2) < 0)
      .sort((a, b) => a.entry - b.entry);
    return report.files.some((f) => f.dir && f.path === `/${m.dir}`) ? [{ dir: m.dir, options: m.options, io: m.io as IoCharset, cp: m.codepage as Codepage, entries }] : [];
  });
}

/**
 * The bytes a program passed to create this entry: the long name read back through the
 * mount's iocharset (UTF-8, or one byte per character for iso8859-1); without a long name,
 * the 8.3 name in the mount's code page, lower-cased where its case bits say. null: no bytes
 * under this iocharset could have made it.
 */
export function createdAs(e: VfatEntry, io: IoCharset, cp: Codepage): Uint8Array | null {
  let name = e.long_name;
  if (name === undefined) {
    const short = cp === 932 ? e.short_cp932 : e.short_cp437;
    const dot = short.indexOf(".");
    const [base, ext] = dot < 0 ? [short, ""] : [short.slice(0, dot), short.slice(dot + 1)];
    // lcase bit 3: the base was lower case; bit 4: the extension (Windows NT's convention)
    name = (e.lcase & 0x08 ? base.toLowerCase() : base) + (ext ? "." + (e.lcase & 0x10 ? ext.toLowerCase() : ext) : "");
  }
  if (io === "utf8") return new TextEncoder().encode(name);
  const codes = Array.from(name, (c) => c.codePointAt(0)!);
  return codes.every((c) => c < 256) ? Uint8Array.from(codes) : null;
}
