// A saved machine's page part (the trace the page had received, the terminal's screen): it comes
// back as it went in, beside v86's and the SD host's parts; a machine saved without one has none;
// a damaged one is said as such.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { joinPagePart, splitPagePart, type PagePart } from "./page-part";
import { joinPieces, machinePieces, splitMachineState } from "./devices/machine-state";
import { SdhciDevice } from "./devices/sdhci";
import { TraceChannel } from "./trace-channel";
import { LiveBuffer } from "../../shared/live-buffer";
import { EV } from "../../topics/exfat/events";

const enc = new TextEncoder();
const discard = (clu: number) => `rm-6 [000] .... 1.${clu}: exfat_discard: dev 7,0 clu ${clu} count 5 batched 1`;
/** the page's half: a channel handing what it reads to a buffer, as vm-host.ts and LabPage do */
function page() {
  const channel = new TraceChannel();
  const buffer = new LiveBuffer();
  const feed = (text: string) => {
    channel.feed(enc.encode(text));
    buffer.append(channel.take(), channel.takeLines(), channel.takeUndone());
  };
  return { channel, buffer, feed };
}

const kept = (p: ReturnType<typeof page>, screen: string | null = null): PagePart => ({ channel: p.channel.kept(), buffer: p.buffer.kept(), screen });

describe("a saved machine's page part", () => {
  it("comes back whole after v86's and the SD host's parts, which split as before", () => {
    const p = page();
    p.feed(`1 ${discard(2)}\n2 ${discard(8)}\n3 rm-6 [000] .... 1.9: exfat_disc`); // the third line half sent
    const { meta, data } = new SdhciDevice().snapshot();
    const machine = machinePieces(new Uint8Array([1, 2, 3, 4, 5]).buffer, { sdhci: meta, image: data }); // an odd length: the words are copied out aligned
    const screen = "\x1b[1mroot@fslab:~# \x1b[0mls\r\n\u00e9t\u00e9 \u4e2d";
    const { machineBytes, page: got } = splitPagePart(joinPagePart(machine, kept(p, screen)));
    expect(machineBytes).toBe(joinPieces(machine).byteLength);
    expect(got!.channel).toEqual(p.channel.kept());
    expect(got!.buffer!.lines).toEqual([discard(2), discard(8)]);
    expect([...got!.buffer!.words]).toEqual([...p.buffer.events]);
    expect(got!.screen).toBe(screen);
    const joined = joinPagePart(machine, kept(p));
    const split = splitMachineState(joined, machineBytes);
    expect([...new Uint8Array(split.v86)]).toEqual([1, 2, 3, 4, 5]);
    expect(split.devices!.sdhci).toEqual(meta);
  });

  it("goes on where it was: the restored guest's next line is not a gap, and a reset past the reload still takes back what came since", () => {
    const before = page();
    before.feed(`1 ${discard(2)}\n2 ${discard(8)}\n`);
    const atStep = splitPagePart(joinPagePart([new Uint8Array(8)], kept(before))).page!; // the step's start, kept
    before.feed(`3 ${discard(14)}\n`);
    const saved = splitPagePart(joinPagePart([new Uint8Array(8)], kept(before))).page!; // the newest, kept as the step passed
    // a reload: a new page, started from the newest machine
    const after = page();
    after.channel.restoreKept(saved.channel);
    after.buffer.restore(saved.buffer!);
    after.feed(`4 ${discard(20)}\n`);
    expect(after.channel.stats).toEqual({ lines: 4, lost: 0, unknown: 0, overrun: null });
    expect(after.buffer.lines).toEqual([2, 8, 14, 20].map(discard));
    expect(after.buffer.events.length).toBe(4 * 4);
    // "Reset this step": the guest's count is back at the step's start; lines 3 and 4 undone
    expect(atStep.channel.lastSeq).toBe(2);
    after.feed(`3 ${discard(26)}\n`);
    expect(after.buffer.events.length).toBe(3 * 4);
    expect([...after.buffer.events.subarray(8)]).toEqual([EV.EXFAT_DISCARD, 26, 5, 1]);
    expect(after.channel.stats.lost).toBe(0);
  });

  it("a machine saved without one (dist/state.bin, older snapshots) has none; Node's host keeps the trace's count alone", () => {
    const plain = new Uint8Array([9, 9, 9]).buffer;
    expect(splitPagePart(plain)).toEqual({ machineBytes: 3, page: null });
    const ch = new TraceChannel();
    ch.feed(enc.encode(`1 ${discard(2)}\n`));
    const { page: got } = splitPagePart(joinPagePart([new Uint8Array(plain)], { channel: ch.kept(), buffer: null, screen: null }));
    expect(got).toEqual({ channel: ch.kept(), buffer: null, screen: null });
  });

  it("a damaged part is said as such, never read as something else", () => {
    const good = new Uint8Array(joinPagePart([new Uint8Array(4)], { channel: new TraceChannel().kept(), buffer: new LiveBuffer().kept(), screen: null }));
    const footer = good.length - 16;
    const lengths = good.slice();
    new DataView(lengths.buffer).setUint32(footer + 4, 1e6, true);
    expect(() => splitPagePart(lengths.buffer)).toThrow(/page part is damaged: its lengths/);
    const json = good.slice();
    json[footer - 2] = 0x7b; // a brace inside the JSON's end
    expect(() => splitPagePart(json.buffer)).toThrow(/page part is damaged/);
    const seq = joinPagePart([], { channel: { ...new TraceChannel().kept(), lastSeq: -1 }, buffer: null, screen: null });
    expect(() => splitPagePart(seq)).toThrow(/the trace's line numbers/);
    const screen = joinPagePart([], { channel: new TraceChannel().kept(), buffer: null, screen: 5 as unknown as string });
    expect(() => splitPagePart(screen)).toThrow(/the terminal's screen/);
  });

  it("any bytes before the footer: a page part, or the damage said (fuzzed)", () => {
    const magic = enc.encode("FSLABPG1");
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), fc.nat(300), fc.nat(300), (body, words, json) => {
        const b = new Uint8Array(body.length + 16);
        b.set(body);
        new DataView(b.buffer).setUint32(body.length, words, true);
        new DataView(b.buffer).setUint32(body.length + 4, json, true);
        b.set(magic, body.length + 8);
        try {
          const { machineBytes } = splitPagePart(b.buffer);
          expect(machineBytes).toBeGreaterThanOrEqual(0);
        } catch (e) {
          expect(String(e)).toMatch(/^Error: the saved machine's page part is damaged: /);
        }
      }),
    );
  });
});
