// The part of v86's insides our devices use: the PCI bus, the memory-mapped I/O table and the
// interrupt lines. v86's public API (v86.d.ts) has no way to add a device; its release build
// keeps these property names (not minified), so a device can be plugged in from outside.
// Everything we touch is typed here and checked by `v86Internals()`, which names what a v86
// update moved (v86-surface.test.ts runs it against the installed build).
//
//   emulator.v86.cpu.devices.pci.register_device({ pci_id, pci_space, pci_bars, name })
//   emulator.v86.cpu.io.mmap_register(addr, size, read8, write8, read32, write32)
//     (128 KiB granules; a 16-bit access arrives as two byte accesses, low byte first)
//   pci.raise_irq(pci_id) / pci.lower_irq(pci_id) -> cpu.device_raise_irq/device_lower_irq(irq)
//   cpu.run_hardware_timers(acpi, now): called by v86's wasm loop through the property, so a
//     device's clock can run beside the PIT's (sdhci.ts attach())

/** A PCI function as v86's bus keeps it. */
export interface V86PciDevice {
  /** bus 0: device number << 3 | function */
  pci_id: number;
  /** the configuration space's first bytes (at least 64) */
  pci_space: number[];
  /** a memory BAR: its address is fixed in pci_space; v86 ignores a guest's moving it */
  pci_bars: Array<{ size: number } | undefined>;
  name: string;
}

export interface V86Pci {
  register_device(device: V86PciDevice): Int32Array;
  raise_irq(pci_id: number): void;
  lower_irq(pci_id: number): void;
  /** each device's configuration space (64 words), by pci_id; saved with the machine */
  device_spaces: Array<Int32Array | undefined>;
  devices: Array<V86PciDevice | undefined>;
  /** the PIIX3 ISA bridge's configuration bytes: 0x60-0x63 route PIRQ A-D to an ISA IRQ */
  isa_bridge_space8: Uint8Array;
}

export interface V86Io {
  mmap_register(
    addr: number,
    size: number,
    read8: (addr: number) => number,
    write8: (addr: number, value: number) => void,
    read32?: (addr: number) => number,
    write32?: (addr: number, value: number) => void,
  ): void;
}

export interface V86Cpu {
  devices: { pci: V86Pci };
  io: V86Io;
  /** runs the PIT's, RTC's, ACPI's and APIC's timers each pass of v86's loop; returns the ms until the next is due (what an idle guest sleeps) */
  run_hardware_timers(acpiEnabled: boolean, now: number): number;
  device_raise_irq(irq: number): void;
  device_lower_irq(irq: number): void;
}

/** The emulator object `new V86(...)` returns, as far as we reach into it. */
export interface V86WithInternals {
  v86: { cpu: V86Cpu };
}

/** v86's granule for memory-mapped I/O: one handler per 128 KiB. */
export const MMIO_GRANULE = 128 << 10;

/** The insides of a built emulator, checked; throws naming what is missing. */
export function v86Internals(emulator: unknown): V86Cpu {
  const cpu = (emulator as Partial<V86WithInternals> | null)?.v86?.cpu as Partial<V86Cpu> | undefined;
  const missing: string[] = [];
  if (!cpu) missing.push("emulator.v86.cpu");
  else {
    const pci = cpu.devices?.pci as Partial<V86Pci> | undefined;
    if (!pci) missing.push("cpu.devices.pci");
    else {
      for (const f of ["register_device", "raise_irq", "lower_irq"] as const) if (typeof pci[f] !== "function") missing.push(`pci.${f}()`);
      if (!Array.isArray(pci.device_spaces)) missing.push("pci.device_spaces");
      if (!Array.isArray(pci.devices)) missing.push("pci.devices");
      if (!(pci.isa_bridge_space8 instanceof Uint8Array)) missing.push("pci.isa_bridge_space8");
    }
    if (typeof cpu.io?.mmap_register !== "function") missing.push("cpu.io.mmap_register()");
    for (const f of ["device_raise_irq", "device_lower_irq", "run_hardware_timers"] as const) if (typeof cpu[f] !== "function") missing.push(`cpu.${f}()`);
  }
  if (missing.length) throw new Error(`this v86 build does not have what the SD host needs: ${missing.join(", ")} (see web/src/vm/machine/devices/v86-surface.ts)`);
  return cpu as V86Cpu;
}

/** The ISA IRQ a PCI function's INTx pin reaches, as v86's pci.raise_irq computes it. */
export function pciIrq(pci: V86Pci, pciId: number): number {
  const space = pci.device_spaces[pciId];
  if (!space) throw new Error(`no PCI device at ${pciId}`);
  const pin = (space[15] >> 8) & 0xff; // 0x3d: INTA = 1
  const pirq = (pin - 1 + (pciId >> 3) - 1) & 3;
  return pci.isa_bridge_space8[0x60 + pirq];
}

const wired = new WeakSet<V86Pci>();

/**
 * Make PCI interrupt lines wired-OR. v86 lowers an ISA IRQ when any one device on it lowers
 * its pin, so with two devices on one line (our SD host shares IRQ 10 with virtio-9p) one
 * device's lowering would drop the other's pending interrupt, and the guest would wait for
 * it forever. Here a lowered line is raised again while another function on it still holds
 * its pin up.
 */
export function wireOrPciInterrupts(cpu: V86Cpu): void {
  const pci = cpu.devices.pci;
  if (wired.has(pci)) return;
  wired.add(pci);
  const up = new Set<number>();
  const raise = pci.raise_irq.bind(pci);
  const lower = pci.lower_irq.bind(pci);
  pci.raise_irq = (id: number) => {
    up.add(id);
    raise(id);
  };
  pci.lower_irq = (id: number) => {
    up.delete(id);
    lower(id);
    const irq = pciIrq(pci, id);
    for (const other of up) if (pci.device_spaces[other] && pciIrq(pci, other) === irq) return cpu.device_raise_irq(irq);
  };
}
