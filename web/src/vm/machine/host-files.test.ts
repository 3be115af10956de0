// The downloads a save waits for (host-files.ts): it waits on while they end one after another,
// and gives up once none has ended for its limit, or after six times its limit in all.
import { describe, expect, it } from "vitest";
import { trackHostFiles } from "./host-files";

/** an emulator whose 9p storage downloads a file in `ms`, or never (`ms` null) */
function emulatorWith() {
  const storage = {
    load_from_server: (_name: string, ms: number | null) =>
      new Promise<Uint8Array>((resolve) => {
        if (ms !== null) setTimeout(() => resolve(new Uint8Array(1)), ms);
      }),
  };
  return { emulator: { fs9p: { storage } }, load: (ms: number | null) => void storage.load_from_server("f", ms) };
}

describe("trackHostFiles().idle", () => {
  it("waits on past its limit while downloads go on ending, and says idle once the last has", async () => {
    const { emulator, load } = emulatorWith();
    const files = trackHostFiles(emulator);
    // six downloads ending 100 ms apart: 600 ms in all, against a limit of 300 ms without one ending
    for (let i = 1; i <= 6; i++) load(i * 100);
    expect(files.pending).toBe(6);
    const t0 = performance.now();
    expect(await files.idle(300)).toBe(true);
    expect(files.pending).toBe(0);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(590);
  });

  it("gives up once no download has ended for its limit", async () => {
    const { emulator, load } = emulatorWith();
    const files = trackHostFiles(emulator);
    load(100);
    load(null); // never ends
    const t0 = performance.now();
    expect(await files.idle(300)).toBe(false);
    // the first ended at 100 ms: the limit counts from there
    expect(performance.now() - t0).toBeGreaterThanOrEqual(395);
    expect(files.pending).toBe(1);
  });

  it("gives up after six times its limit in all, while downloads still end one after another", async () => {
    const { emulator, load } = emulatorWith();
    const files = trackHostFiles(emulator);
    // one ending every 50 ms for 2 s, against a limit of 200 ms: never 200 ms without one ending
    for (let i = 1; i <= 40; i++) load(i * 50);
    const t0 = performance.now();
    expect(await files.idle(200)).toBe(false);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(1195);
    expect(files.pending).toBeGreaterThan(0);
  });
});
