// v86's insides that the SD host uses (v86-surface.ts), checked against the installed v86
// build: a v86 update that renames or moves any of them fails here, by name, before a guest
// boots without its SD host. And the wired-OR interrupt lines, on a stand-in for v86's PCI bus.
import { describe, expect, it } from "vitest";
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import { v86Internals, wireOrPciInterrupts, pciIrq, type V86Cpu } from "./v86-surface";
import { SdhciDevice, SDHCI_PCI_ID, SDHCI_BAR } from "./sdhci";

const require = createRequire(import.meta.url);

describe("v86's internal surface", () => {
  it("is where v86-surface.ts says, in the installed build (the names survive minification)", async () => {
    // the release build keeps these names as properties; a minifier that renamed them would drop them from the text
    const js = readFileSync(require.resolve("v86/build/libv86.mjs"), "utf8");
    for (const name of ["register_device", "device_spaces", "isa_bridge_space8", "mmap_register", "raise_irq", "lower_irq", "device_raise_irq", "device_lower_irq"])
      expect(js, name).toContain(name);
    // and a built machine has them where the device reaches for them
    const { V86 } = await import("v86");
    const emulator = new V86({
      wasm_path: require.resolve("v86/build/v86.wasm"),
      memory_size: 32 * 2 ** 20,
      autostart: false,
      disable_keyboard: true,
      disable_mouse: true,
      disable_speaker: true,
      bios: { buffer: readFileSync(new URL("../../../../../kernel-image/dist/bios.bin", import.meta.url)).buffer },
    } as never);
    await new Promise<void>((r) => (emulator as unknown as { add_listener(e: string, f: () => void): void }).add_listener("emulator-loaded", () => r()));
    try {
      const cpu = v86Internals(emulator);
      const sd = new SdhciDevice();
      sd.attach(emulator, false);
      expect(cpu.devices.pci.devices[SDHCI_PCI_ID]?.name).toBe("sdhci");
      // the PCI configuration the driver matches: class 0x0805, BAR0 at the fixed address
      const space = new Uint8Array(cpu.devices.pci.device_spaces[SDHCI_PCI_ID]!.buffer);
      expect([space[0x0b], space[0x0a]]).toEqual([0x08, 0x05]);
      expect(new DataView(space.buffer).getUint32(0x10, true)).toBe(SDHCI_BAR);
    } finally {
      await (emulator as unknown as { destroy(): Promise<void> }).destroy();
    }
  }, 60_000);

  it("names what a v86 without it lacks", () => {
    expect(() => v86Internals({})).toThrow(/emulator\.v86\.cpu/);
    expect(() => v86Internals({ v86: { cpu: { devices: { pci: {} }, io: {} } } })).toThrow(/pci\.register_device\(\).*cpu\.io\.mmap_register\(\)/);
  });
});

describe("wired-OR PCI interrupt lines", () => {
  // two functions whose INTA reaches the same ISA IRQ (10), as the SD host and virtio-9p do
  function bus() {
    const level = new Map<number, number>();
    const spaces: Array<Int32Array | undefined> = [];
    const pinA = () => {
      const s = new Int32Array(64);
      s[15] = 1 << 8; // interrupt pin A
      return s;
    };
    spaces[6 << 3] = pinA();
    spaces[13 << 3] = pinA();
    const isa = new Uint8Array(256);
    isa.set([10, 10, 11, 11], 0x60);
    const cpu = {
      device_raise_irq: (i: number) => level.set(i, 1),
      device_lower_irq: (i: number) => level.set(i, 0),
    } as unknown as V86Cpu;
    const pci = {
      device_spaces: spaces,
      devices: [],
      isa_bridge_space8: isa,
      register_device: () => new Int32Array(64),
      raise_irq(id: number) { cpu.device_raise_irq(pciIrq(pci, id)); },
      lower_irq(id: number) { cpu.device_lower_irq(pciIrq(pci, id)); },
    };
    Object.assign(cpu, { devices: { pci }, io: { mmap_register() {} } });
    return { cpu, pci, level };
  }

  it("v86's own lines drop one function's interrupt when another lowers its pin", () => {
    const { pci, level } = bus();
    pci.raise_irq(13 << 3);
    pci.raise_irq(6 << 3);
    pci.lower_irq(6 << 3);
    expect(level.get(10)).toBe(0); // the SD host's pending interrupt is lost
  });

  it("wired-OR keeps the line up while any function holds its pin", () => {
    const { cpu, pci, level } = bus();
    wireOrPciInterrupts(cpu);
    pci.raise_irq(13 << 3);
    pci.raise_irq(6 << 3);
    pci.lower_irq(6 << 3);
    expect(level.get(10)).toBe(1);
    pci.lower_irq(13 << 3);
    expect(level.get(10)).toBe(0);
  });
});
