// The kernel's mmc events as recorded in the guest (Linux 7.2, fslab's emulated card, 64 MiB or 4 GiB,
// fixtures/<type>-init.trace: `cat trace` after modprobe sdhci-pci mmc_block) read into records,
// and the sd model held equal to them. The live version of this test: e2e/sd.e2e.ts.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { loadCoreModule } from "../../shared/node-load";
import { compareRecords, initialisation, recordsFromTrace, RECORDED_CARD_BYTES } from "./sd-trace";
import { decodeCsd, sdAttach } from "./sd-core";

const trace = (t: string) => readFileSync(new URL(`./fixtures/${t}-init.trace`, import.meta.url), "utf8").split("\n");

describe("the kernel's mmc events", () => {
  it("pair start and done into requests, ACMDs after an answered CMD55", () => {
    const all = recordsFromTrace(trace("sdhc"));
    expect(all.at(-1)).toMatchObject({ opcode: 18, err: 0 }); // the block driver's partition read
    const init = initialisation(all);
    expect(init[0]).toMatchObject({ opcode: 52, arg: 0xc00, err: -110 });
    expect(init.at(-1)).toMatchObject({ opcode: 6, app: true, arg: 2 });
    expect(init.filter((r) => r.app).map((r) => r.opcode)).toEqual([41, 41, 41, 51, 13, 6]);
    expect(recordsFromTrace(["garbage", "mmc_request_done: mmc1: end struct mmc_request[0]: cmd_opcode=0"])).toEqual([]);
  });

  for (const type of ["sdhc", "sdsc", "v1"] as const)
    it(`the model equals the recorded ${type} initialisation, request for request`, async () => {
      const m = await loadCoreModule("sd");
      const model = sdAttach(m, type, RECORDED_CARD_BYTES[type]);
      const kernel = initialisation(recordsFromTrace(trace(type)));
      expect(compareRecords(model, kernel).filter((r) => r.differ.length)).toEqual([]);
      const csd = kernel.find((r) => r.opcode === 9)!;
      expect(decodeCsd(m, csd.resp).sectors).toBe(RECORDED_CARD_BYTES[type] / 512);
    });

  it("marks what differs", async () => {
    const m = await loadCoreModule("sd");
    const model = sdAttach(m, "sdhc", RECORDED_CARD_BYTES.sdhc);
    const kernel = initialisation(recordsFromTrace(trace("sdsc"))); // another card: CSD and OCR differ
    const differ = compareRecords(model, kernel).filter((r) => r.differ.length);
    expect(differ.map((r) => r.model!.opcode)).toEqual([41, 9]);
    expect(differ.every((r) => r.differ.includes("resp"))).toBe(true);
  });
});
