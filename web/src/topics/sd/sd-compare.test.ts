// The card's state and registers read from the kernel's recorded mmc events (fixtures/<type>-init.trace,
// as sd-trace.test.ts reads them), decoded by the core's decoders and held equal to the model's;
// and a kernel record with one answer word changed shows as a difference (on the page: SdViews.test.ts).
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { csdV1Geometry } from "../../shared/sd-card-spec";
import { loadCoreModule } from "../../shared/node-load";
import { decodeCid, decodeCsd, sdAttach, type SdRecord } from "./sd-core";
import { initialisation, recordsFromTrace, RECORDED_CARD_BYTES } from "./sd-trace";
import { CID_FIELDS, CSD_FIELDS, compareFields, compareStates, kernelStateAt, kernelStates, registerAnswers } from "./sd-compare";

const TYPES = ["sdhc", "sdsc", "v1"] as const;

/** the recorded initialisation, and the request after it (the block driver's first read) */
function recorded(type: string): { kernel: SdRecord[]; next?: SdRecord } {
  const all = recordsFromTrace(readFileSync(new URL(`./fixtures/${type}-init.trace`, import.meta.url), "utf8").split("\n"));
  const kernel = initialisation(all);
  return { kernel, next: all[all.indexOf(kernel.at(-1)!) + 1] };
}

/** a copy of the records with request i's answer word k set to v */
const withWord = (records: readonly SdRecord[], i: number, k: number, v: number): SdRecord[] =>
  records.map((r, j) => (j === i ? { ...r, resp: r.resp.map((w, n) => (n === k ? v : w)) as SdRecord["resp"] } : r));

describe("the card's state from the kernel's records", () => {
  for (const type of TYPES)
    it(`${type}: every state the answers report is the model's, through to tran`, async () => {
      const m = await loadCoreModule("sd");
      const model = sdAttach(m, type, RECORDED_CARD_BYTES[type]);
      const { kernel, next } = recorded(type);
      const states = kernelStates(kernel, next);
      const rows = compareStates(model, states);
      expect(rows.filter((r) => r.differ)).toEqual([]);
      // what the records report: idle after the SDIO probe, ident after CMD2, stby after CMD9, tran from CMD7 on
      const known = rows.flatMap((r, i) => (r.kernel ? [`${i + 1}:${r.kernel}`] : []));
      expect(known.length).toBeGreaterThanOrEqual(8);
      expect(rows.filter((r) => r.kernel).every((r) => r.kernel === r.model)).toBe(true);
      const at = (op: number, app = false) => kernel.findIndex((r) => r.opcode === op && r.app === app);
      expect(states[at(2)].state).toBe("ident"); // CMD3's R6 was received in ident
      expect(states[at(7)].state).toBe("tran"); // CMD7's own R1 says stby; the next answer says tran
      expect(kernel[at(7)].resp[0] >>> 9 & 0xf).toBe(3);
      expect(states.at(-1)).toMatchObject({ state: "tran", from: kernel.length }); // from the CMD18 after ACMD6
      expect(kernelStateAt(states, kernel.length - 1)).toEqual({ state: "tran", at: kernel.length - 1 });
      // ACMD41's R3 has no CURRENT_STATE: after the CMD55 before it nothing is known, and the last known is older
      const acmd41 = at(41, true);
      expect(states[acmd41 - 1].state).toBeUndefined();
      expect(kernelStateAt(states, acmd41 - 1)!.at).toBeLessThan(acmd41 - 1);
    });

  it("a changed CURRENT_STATE in one answer is a difference, at the request before it", async () => {
    const m = await loadCoreModule("sd");
    const model = sdAttach(m, "sdhc", RECORDED_CARD_BYTES.sdhc);
    const { kernel, next } = recorded("sdhc");
    const cmd7 = kernel.findIndex((r) => r.opcode === 7);
    expect(kernel[cmd7 + 1].resp[0]).toBe(0x920); // CMD55 received in tran
    const changed = withWord(kernel, cmd7 + 1, 0, 0x720); // ... as if still in stby
    const rows = compareStates(model, kernelStates(changed, next));
    expect(rows.flatMap((r, i) => (r.differ ? [i] : []))).toEqual([cmd7]);
    expect(rows[cmd7]).toEqual({ kernel: "stby", model: "tran", differ: true });
  });
});

describe("the CID and CSD from the kernel's records", () => {
  for (const type of TYPES)
    it(`${type}: decoded by the core, field for field the model's`, async () => {
      const m = await loadCoreModule("sd");
      const a = registerAnswers(recorded(type).kernel);
      const b = registerAnswers(sdAttach(m, type, RECORDED_CARD_BYTES[type]));
      expect(a.cid && a.csd).toBeTruthy();
      const cid = compareFields(CID_FIELDS, [decodeCid(m, a.cid!), decodeCid(m, b.cid!)]);
      const csd = compareFields(CSD_FIELDS, [decodeCsd(m, a.csd!), decodeCsd(m, b.csd!)]);
      expect([...cid, ...csd].filter((r) => r.differ)).toEqual([]);
      expect(csd.find((r) => r.name === "capacity")!.values[0]).toBe(`${RECORDED_CARD_BYTES[type] / 512} sectors (${RECORDED_CARD_BYTES[type]} bytes)`);
      expect(csd.find((r) => r.name === "CSD_STRUCTURE")!.values[0]).toMatch(type === "sdhc" ? /^1 / : /^0 /);
    });

  it("a changed answer word shows as the fields it holds", async () => {
    const m = await loadCoreModule("sd");
    const model = registerAnswers(sdAttach(m, "sdhc", RECORDED_CARD_BYTES.sdhc));
    const kernel = recorded("sdhc").kernel;
    const cmd9 = kernel.findIndex((r) => r.opcode === 9);
    const cmd2 = kernel.findIndex((r) => r.opcode === 2);
    // cmd_resp[0] holds bits 127:96, [3] bits 31:0. CSD v2's C_SIZE is bits 69:48: bit 48 is word 2's bit 16
    const csd = registerAnswers(withWord(kernel, cmd9, 2, kernel[cmd9].resp[2] ^ 0x00010000)).csd!;
    const csdRows = compareFields(CSD_FIELDS, [decodeCsd(m, csd), decodeCsd(m, model.csd!)]);
    expect(csdRows.filter((r) => r.differ).map((r) => r.name)).toEqual(["C_SIZE", "capacity"]);
    // PSN is bits 55:24: bit 24 is word 3's bit 24
    const cid = registerAnswers(withWord(kernel, cmd2, 3, kernel[cmd2].resp[3] ^ 0x01000000)).cid!;
    const cidRows = compareFields(CID_FIELDS, [decodeCid(m, cid), decodeCid(m, model.cid!)]);
    expect(cidRows.filter((r) => r.differ).map((r) => r.name)).toEqual(["serial (PSN)"]);

  });
});

describe("the model's card and the emulated one", () => {
  it("write a version 1 size the same way for any serial: the geometry the emulated card takes (csdV1Geometry)", async () => {
    const m = await loadCoreModule("sd");
    fc.assert(
      fc.property(fc.constantFrom("sdsc" as const, "v1" as const), fc.integer({ min: 2, max: 4096 }), fc.nat(), (type, halfMiB, serial) => {
        const size = halfMiB * 512 * 1024;
        const csd = decodeCsd(m, registerAnswers(sdAttach(m, type, size, serial)).csd!);
        expect({ readBlLen: csd.readBlLen, cSize: csd.cSize, cSizeMult: csd.cSizeMult }).toEqual(csdV1Geometry(size, serial));
      }),
      { numRuns: 200 },
    );
  });
});
