// fslab simulate vfat: the vfat models on the command line (the same wasm build as the page).
// Listed in this topic's manifest (topic.ts); bin/commands/main.ts finds it there.
import { parseArgs } from "node:util";
import { loadCoreModule } from "../../shared/node-load";
import { UsageError } from "../../shared/cli-args";
import { hex, vfatName, VfatError, type Codepage, type IoCharset } from "./vfat-core";

async function simulateVfatCommand(argv: string[]): Promise<number> {
  const { values: v, positionals: names } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { mount: { type: "string", default: "utf8:932,utf8:437,iso8859-1:932" }, json: { type: "boolean", default: false } },
  });
  if (!names.length) throw new UsageError("give one or more names");
  const mounts = v.mount!.split(",").map((x) => {
    const [io, cp] = x.split(":");
    if ((io !== "utf8" && io !== "iso8859-1") || (cp !== "437" && cp !== "932")) throw new UsageError(`--mount: "${x}" is not iocharset:codepage with utf8 or iso8859-1, and 437 or 932`);
    return { io: io as IoCharset, cp: Number(cp) as Codepage };
  });
  const m = await loadCoreModule("vfat");
  const rows = mounts.flatMap(({ io, cp }) => {
    const existing: Uint8Array[] = [];
    return names.map((name) => {
      try {
        const r = vfatName(m, name, io, cp, existing);
        existing.push(r.short);
        return { mount: `${io}:${cp}`, name, short: hex(r.short), cp437: r.asCp437, cp932: r.asCp932, long_name: r.longName, entries: r.lfnSlots + 1, checksum: r.checksum, lcase: r.lcase };
      } catch (e) {
        if (e instanceof VfatError) return { mount: `${io}:${cp}`, name, error: e.message };
        throw e;
      }
    });
  });
  if (v.json) {
    console.log(JSON.stringify({ rows }));
    return 0;
  }
  for (const r of rows)
    console.log("error" in r ? `  ${r.mount.padEnd(15)} ${r.name}: ${r.error}` : `  ${r.mount.padEnd(15)} ${r.name}: 8.3 ${r.short} (cp437 "${r.cp437}", cp932 "${r.cp932}"), long name ${r.long_name === null ? "none" : `"${r.long_name}"`}, ${r.entries} entries, checksum 0x${r.checksum.toString(16).padStart(2, "0")}`);
  return 0;
}

const USAGE_VFAT = `usage: fslab simulate vfat [--mount utf8:932,utf8:437,iso8859-1:932] [--json] NAME...
  The names created in order in one directory under each mount (iocharset:codepage): the 8.3
  bytes, how code pages 437 and 932 read them, the long name, the entries and the checksum
  that Linux's VFAT writes (by default the three mounts of the blog series "Linuxカーネルのファイルアクセスの処理を追いかける").`;

export const cli = {
  "vfat": { run: simulateVfatCommand, usage: USAGE_VFAT },
};
