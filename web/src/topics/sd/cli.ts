// fslab simulate sd: the sd model on the command line (the same wasm build as the page):
// the commands Linux sends to initialise a card, and the card's state after each.
// Listed in this topic's manifest (topic.ts); bin/commands/main.ts finds it there.
import { parseArgs } from "node:util";
import { loadCoreModule } from "../../shared/node-load";
import { UsageError } from "../../shared/cli-args";
import { cardSizeError, parseSize, typeForSize } from "../../shared/sd-card-spec";
import { CARD_TYPES, commandName, decodeCsd, hex, r1Words, sdAttach, type CardType } from "./sd-core";

async function simulateSdCommand(argv: string[]): Promise<number> {
  const { values: v, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { card: { type: "string" }, size: { type: "string", default: "64M" }, json: { type: "boolean", default: false } },
  });
  if (positionals.length) throw new UsageError(`unexpected argument ${positionals[0]}`);
  if (v.card !== undefined && !(CARD_TYPES as readonly string[]).includes(v.card)) throw new UsageError(`--card: "${v.card}" is not one of ${CARD_TYPES.join(", ")}`);
  const size = parseSize(v.size!);
  if (size === null) throw new UsageError(`--size: "${v.size}" is not a size (64M, 1G)`);
  v.card ??= typeForSize(size); // none named: SDSC up to 2 GiB, SDHC above
  const bad = cardSizeError(v.card as CardType, size);
  if (bad) throw new UsageError(`--size: ${v.size}: ${bad}`);
  const m = await loadCoreModule("sd");
  const recs = sdAttach(m, v.card as CardType, size);
  if (v.json) {
    console.log(JSON.stringify({ card: v.card, size, records: recs }));
    return 0;
  }
  console.log(`Linux 7.2 initialising a ${size / 2 ** 20} MiB ${v.card} card (mmc_rescan -> mmc_attach_sd -> mmc_sd_init_card):`);
  recs.forEach((r, i) => {
    const answer =
      r.err !== 0
        ? "no answer (-110 ETIMEDOUT)"
        : r.opcode === 2 || r.opcode === 9
        ? `R2 ${r.resp.map(hex).join(" ")}`
        : r.app && r.opcode === 41
        ? `R3 OCR ${hex(r.resp[0])}${r.resp[0] >>> 31 ? " powered up" : " busy"}${(r.resp[0] >>> 30) & 1 ? ", CCS" : ""}`
        : r.opcode === 8
        ? `R7 ${hex(r.resp[0])}`
        : r.opcode === 3
        ? `R6 RCA ${hex(r.resp[0] >>> 16)}`
        : r.opcode === 0
        ? "(no response expected)"
        : `R1 ${r1Words(r.resp[0])}`;
    console.log(`${String(i + 1).padStart(3)}  ${commandName(r.opcode, r.app).padEnd(28)} arg ${hex(r.arg).padEnd(11)} ${answer.padEnd(52)} card: ${r.state}${r.bytes ? ` (${r.bytes} bytes of data)` : ""}`);
  });
  const csd = recs.find((r) => r.opcode === 9 && r.err === 0);
  if (csd) {
    const c = decodeCsd(m, csd.resp);
    console.log(`${recs.length} requests. CSD version ${c.structure + 1}: ${c.sectors} sectors of 512 bytes (${(c.sectors * 512) / 2 ** 20} MiB), the capacity mmc_decode_csd computes.`);
  }
  return 0;
}

const USAGE_SD = `usage: fslab simulate sd [--card sdhc|sdsc|v1] [--size 64M] [--json]
  The requests Linux sends to initialise an SD card found in an SDHCI slot, in order, with the
  card's answer and its state after each: what the guest's mmc_request_start/done events show
  for fslab's emulated card (e2e/sd.e2e.ts holds them equal). Without --card, a size up to 2 GiB
  is an SDSC card and a larger one SDHC (which starts at 2056.5 MiB).`;

export const cli = {
  sd: { run: simulateSdCommand, usage: USAGE_SD },
};
