// The frame's side of the embed message API (messages.ts): reads fslab-embed.json beside
// index.html for the origins that may drive it, answers only their messages (others are
// ignored and counted on the console), and posts to the parent page only at those origins.
import { CONFIG_FILE, parseConfig, parseHostMessage, type EmbedConfig, type FrameMessage, type HostMessage } from "./messages";
import { siteUrl } from "../shared/site";

export class EmbedChannel {
  private config: EmbedConfig = { allowedOrigins: [] };
  private loaded: Promise<void>;
  /** messages refused because of their origin */
  ignored = 0;
  readonly embedded = window.parent !== window;

  constructor(private onMessage: (m: HostMessage) => void) {
    this.loaded = fetch(siteUrl(CONFIG_FILE), { cache: "no-cache" })
      .then(async (r) => {
        if (!r.ok) throw new Error(`HTTP ${r.status}`);
        const c = parseConfig(await r.text());
        if ("error" in c) throw new Error(c.error);
        this.config = c;
      })
      .catch((e) => console.warn(`fslab embed: no host may drive this frame: ${CONFIG_FILE} could not be used (${e instanceof Error ? e.message : e})`));
    window.addEventListener("message", this.receive);
  }

  /** Wait for the config, then say "ready". */
  async start(ready: Omit<Extract<FrameMessage, { type: "ready" }>, "fslab" | "type">): Promise<void> {
    await this.loaded;
    this.post({ fslab: 1, type: "ready", ...ready });
  }

  private allowed(origin: string): boolean {
    return this.config.allowedOrigins.includes("*") || this.config.allowedOrigins.includes(origin);
  }

  post(m: FrameMessage): void {
    if (!this.embedded) return;
    // postMessage delivers only where the target origin is the parent's: each allowed one is tried
    for (const o of this.config.allowedOrigins) window.parent.postMessage(m, o);
  }

  private receive = (e: MessageEvent) => {
    if (e.source !== window.parent || !this.embedded) return;
    if (!this.allowed(e.origin)) {
      this.ignored++;
      console.warn(`fslab embed: ignored a message from ${e.origin}, which ${CONFIG_FILE} does not list (${this.ignored} ignored so far)`);
      return;
    }
    const m = parseHostMessage(e.data);
    if ("error" in m) return this.post({ fslab: 1, type: "error", message: m.error });
    this.onMessage(m);
  };

  close(): void {
    window.removeEventListener("message", this.receive);
  }
}
