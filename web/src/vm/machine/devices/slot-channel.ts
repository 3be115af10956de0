// The guest's `sdcard` command (kernel-image/rootfs/overlay/usr/local/bin/sdcard) asks the host
// for the slot over virtio-console port 3: one request line, one answer line. The page's
// Insert/Eject buttons and `fslab vm --sd` act on the same SdhciDevice.
import { SdCard, cardOptionsError, parseSize, CARD_TYPES, type CardType } from "./sd-card";
import { typeForSize } from "../../../shared/sd-card-spec";
import type { SdhciDevice } from "./sdhci";

/** `sdcard insert` with no size: 64 MiB, which only an SDSC card can be (SDHC starts above 2 GiB) */
export const DEFAULT_CARD = { type: "sdsc" as CardType, size: 64 * 2 ** 20 };


/** What the host answers to one request line from the guest. */
export function slotRequest(sd: SdhciDevice, line: string): string {
  const [verb, ...args] = line.trim().split(/\s+/);
  if (verb === "status") return `ok ${slotStatus(sd)}`;
  // the card's CID serial (PSN), for the page's model of the card in the slot (not in the guest's `sdcard`)
  if (verb === "serial") return sd.card ? `ok 0x${sd.card.serial.toString(16).padStart(8, "0")}` : "error the slot is empty";
  if (verb === "eject") {
    if (!sd.card) return "error the slot is already empty";
    sd.eject();
    return "ok ejected";
  }
  if (verb === "insert") {
    if (sd.card) return "error a card is already in the slot: eject it first";
    const parsed = parseCardSpec(args.join(","));
    if ("error" in parsed) return `error ${parsed.error}`;
    sd.insert(new SdCard(parsed));
    return `ok inserted ${slotStatus(sd)}`;
  }
  // how late the host answered the data requests since the last ask (lateness.ts): the part of a
  // measured latency that is neither the card's time nor the emulated machine's
  if (verb === "late") {
    if (args.length > 1 || (args[0] !== undefined && args[0] !== "--each")) return 'error late takes nothing, or "--each"';
    const each = args[0] === "--each";
    // each entry is one line's worth: the guest reads the answer through its tty, whose line holds 4 KB
    if (each && sd.lateness.count > EACH_MAX) return `error ${sd.lateness.count} data requests since the last ask, more than --each can list (${EACH_MAX}): ask more often (any sdcard late starts the count again)`;
    return `ok ${lateAnswer(sd.lateness.take(), each)}`;
  }
  // the latency model on (the default) or off (the card answers at once: what is left is the machine's own time)
  if (verb === "timing") {
    if (args.length !== 1 || (args[0] !== "on" && args[0] !== "off")) return "error timing takes on or off";
    sd.timed = args[0] === "on";
    return `ok timing ${args[0]}`;
  }
  return `error unknown request "${verb ?? ""}" (status, insert, eject, serial, late, timing)`;
}

/** the most requests `sdcard late --each` lists: 600 of "12.345 " fit the guest's 4 KB tty line */
export const EACH_MAX = 600;

/**
 * `sdcard late`: a line saying how many data requests there were and how late the host was
 * (its median, 99th percentile and largest, by nearest rank), or with `each` every request's
 * lateness in ms, oldest first, space-separated (the guest's script prints one a line).
 */
export function lateAnswer(ms: number[], each: boolean): string {
  if (each) return ms.map((x) => x.toFixed(3)).join(" ");
  if (!ms.length) return "no data request since the last ask";
  const sorted = [...ms].sort((a, b) => a - b);
  const rank = (p: number) => sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)].toFixed(3);
  const late = ms.filter((x) => x > 0.1).length;
  return `${ms.length} data requests; the host answered ${late} of them more than 0.1 ms late; lateness p50 ${rank(0.5)} ms, p99 ${rank(0.99)} ms, max ${rank(1)} ms`;
}

export function slotStatus(sd: SdhciDevice): string {
  const c = sd.card;
  return c ? `${c.type} ${c.size} ${c.state}` : "empty";
}

/** "64M", "64M,sdsc", "sdsc,1G", "4G" (SDHC), "" (the default card) -> options, or why not. */
export function parseCardSpec(spec: string): { type: CardType; size: number } | { error: string } {
  let size = DEFAULT_CARD.size;
  let named: CardType | undefined;
  for (const part of spec.split(",").map((s) => s.trim()).filter(Boolean)) {
    if ((CARD_TYPES as readonly string[]).includes(part.toLowerCase())) named = part.toLowerCase() as CardType;
    else {
      const n = parseSize(part);
      if (n === null) return { error: `"${part}" is neither a size (64M, 1G) nor a card type (${CARD_TYPES.join(", ")})` };
      size = n;
    }
  }
  const type = named ?? typeForSize(size);
  const bad = cardOptionsError({ type, size });
  return bad ? { error: bad } : { type, size };
}

/** Feed bytes from port 3; answers go back through `send`. */
export class SlotChannel {
  private buf = "";
  private decoder = new TextDecoder();
  constructor(
    private sd: SdhciDevice,
    private send: (bytes: Uint8Array) => void,
  ) {}
  feed(bytes: Uint8Array): void {
    this.buf += this.decoder.decode(bytes, { stream: true });
    for (let i; (i = this.buf.indexOf("\n")) >= 0; ) {
      const line = this.buf.slice(0, i).replace(/\r$/, "");
      this.buf = this.buf.slice(i + 1);
      if (line.length > 200) continue;
      this.send(new TextEncoder().encode(slotRequest(this.sd, line) + "\n"));
    }
    if (this.buf.length > 4096) this.buf = "";
  }
}
