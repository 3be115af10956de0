// One card, two implementations: the emulated card the guest's kernel talks to (sd-card.ts) and
// the sd topic's model (wasm/src/sd/card.c), driven through the same command sequences, error
// paths included (illegal commands, commands in the wrong state, unaddressed ones, bad
// arguments), and held equal in every answer and every state. The model has no data path: the
// sequences are the commands of identification, selection, status and the registers, and a
// register the emulated card sends is read out before the next command, as the host would.
// (The data path, erase and timing: sdhci.test.ts; the kernel's own initialisation against the
// model: e2e/sd.e2e.ts and topics/sd/sd-compare.test.ts.)
import { beforeAll, describe, expect, it } from "vitest";
import fc from "fast-check";
import { loadCoreModule } from "../../../shared/node-load";
import type { SdModule } from "@wasm/sd.mjs";
import { SdCard, CARD_TYPES, type CardReply, type CardType } from "./sd-card";

const MiB = 2 ** 20;
const STATE_NAMES = ["idle", "ready", "ident", "stby", "tran", "data", "rcv", "prg", "dis"];

interface Answer {
  /** null: no answer (the host times out) */
  resp: number[] | null;
  state: string;
}

/** the model's answer to one command, in the words Linux keeps (cmd->resp) */
function modelCommand(m: SdModule, op: number, arg: number): Answer {
  const at = m._fx_sd_card_command(op, arg >>> 0) >>> 2;
  const w = m.HEAPU32.slice(at, at + 8);
  const err = w[0] | 0;
  // CMD0 has no response (MMC_RSP_NONE): the model returns 0 for it, as Linux's cmd_err is
  return { resp: err === 0 && op !== 0 ? [w[1], w[2], w[3], w[4]] : null, state: w[7] ? "ina" : STATE_NAMES[w[6]] };
}

/** the emulated card's answer, in the same words: a short response in the first, R2 as sdhci_read_rsp_136 leaves it */
function deviceCommand(card: SdCard, op: number, arg: number): Answer {
  const r: CardReply = card.command(op, arg);
  // a register the card sends (SCR, SD Status, switch status): the host reads it out
  if (r.data?.register) while (card.state === "data") card.readBlock(r.data.blockSize);
  const resp = r.response;
  if (!resp) return { resp: null, state: card.state };
  if (resp.kind !== "r2") return { resp: [resp.value >>> 0, 0, 0, 0], state: card.state };
  const b = resp.value;
  return { resp: [0, 1, 2, 3].map((i) => ((b[4 * i] << 24) | (b[4 * i + 1] << 16) | (b[4 * i + 2] << 8) | (i === 3 ? 0 : b[4 * i + 3])) >>> 0), state: card.state };
}

/** the commands both implement, and the ones neither does (SDIO's, MMC's, CMD23 without CMD_SUPPORT) */
const OPS = [0, 1, 2, 3, 5, 6, 7, 8, 9, 10, 13, 15, 23, 52, 55] as const;
const ACMDS = [6, 13, 22, 23, 41, 42, 51] as const;

describe("the emulated card and the model's card answer alike", () => {
  let m: SdModule;
  beforeAll(async () => {
    m = await loadCoreModule("sd");
  });

  /** one step: a plain command or an application command (CMD55 with the card's RCA, then it) */
  const step = fc.oneof(
    fc.record({ kind: fc.constant("cmd" as const), op: fc.constantFrom(...OPS), arg: fc.oneof(fc.constant(0), fc.constant(0x1aa), fc.constant(0x2aa), fc.constant(0x80fffff1), fc.integer({ min: 0, max: 0xffffffff })), rca: fc.boolean() }),
    fc.record({ kind: fc.constant("acmd" as const), op: fc.constantFrom(...ACMDS), arg: fc.oneof(fc.constant(0), fc.constant(2), fc.constant(1), fc.constant(0x40300000), fc.constant(0x00300000), fc.integer({ min: 0, max: 0xffffffff })) }),
  );
  /** Linux's way to tran first (a prefix most sequences then wander away from) */
  const INIT = [
    { kind: "cmd", op: 0, arg: 0, rca: false },
    { kind: "cmd", op: 8, arg: 0x1aa, rca: false },
    { kind: "acmd", op: 41, arg: 0x40300000 },
    { kind: "acmd", op: 41, arg: 0x40300000 },
    { kind: "cmd", op: 2, arg: 0, rca: false },
    { kind: "cmd", op: 3, arg: 0, rca: false },
    { kind: "cmd", op: 7, arg: 0, rca: true },
  ] as const;

  const run = (type: CardType, steps: readonly (typeof INIT)[number][] | { kind: "cmd" | "acmd"; op: number; arg: number; rca?: boolean }[]) => {
    const serial = 0x1234abcd;
    const size = type === "sdhc" ? 4096 * MiB : 64 * MiB; // SDHC holds more than 2 GiB
    const card = new SdCard({ type, size, serial });
    m._fx_sd_card_new(CARD_TYPES.indexOf(type), size >>> 0, Math.floor(size / 2 ** 32), serial);
    const trail: string[] = [];
    const both = (op: number, arg: number) => {
      const d = deviceCommand(card, op, arg);
      const mo = modelCommand(m, op, arg);
      trail.push(`CMD${op}(${(arg >>> 0).toString(16)}): card ${JSON.stringify(d)} model ${JSON.stringify(mo)}`);
      expect(mo, trail.join("\n")).toEqual(d);
    };
    for (const s of steps) {
      // an addressed command carries the card's RCA (the emulated card's: equal while they agree)
      const arg = s.kind === "cmd" && s.rca ? ((card.rca << 16) | (s.arg & 0xffff)) >>> 0 : s.arg;
      if (s.kind === "acmd") both(55, (card.rca << 16) >>> 0);
      both(s.op, arg);
    }
  };

  it("the error paths named: a bus width neither 1 nor 4, CMD15 and the silence after, CMD0's reset RCA", () => {
    for (const type of CARD_TYPES)
      run(type, [
        ...INIT,
        { kind: "acmd", op: 6, arg: 1 }, // ERASE_PARAM
        { kind: "cmd", op: 7, arg: 0, rca: false }, // deselect: stby
        { kind: "cmd", op: 15, arg: 0, rca: true }, // inactive
        { kind: "cmd", op: 13, arg: 0, rca: true },
        { kind: "cmd", op: 0, arg: 0, rca: false },
        { kind: "cmd", op: 8, arg: 0x1aa, rca: false },
      ]);
    run("sdhc", [...INIT, { kind: "cmd", op: 0, arg: 0, rca: false }, { kind: "cmd", op: 13, arg: 0, rca: true }]);
  });

  for (const type of CARD_TYPES)
    it(`${type}: Linux's initialisation, then random commands, answer for answer and state for state`, () => {
      run(type, [...INIT]);
      fc.assert(
        fc.property(fc.array(step, { maxLength: 30 }), (steps) => {
          run(type, [...INIT, ...steps]);
        }),
        { numRuns: 300 },
      );
    });

  it("from power-up, without Linux's prefix: the error paths of identification", () => {
    fc.assert(
      fc.property(fc.constantFrom(...CARD_TYPES), fc.array(step, { maxLength: 20 }), (type, steps) => {
        run(type, steps);
      }),
      { numRuns: 300 },
    );
  });
});
