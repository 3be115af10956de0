// The messages between a page that embeds fslab in an iframe (the host) and the frame
// (#/embed/...). Copy these types into the host's code; docs/embedding.md shows them in use.
// Every message carries `fslab: 1`. The frame accepts messages only from the origins listed in
// fslab-embed.json beside the site's index.html; others are ignored (and counted on the console).

/** host -> frame */
export type HostMessage =
  | { fslab: 1; type: "ping" } // the frame answers with "ready" (again)
  | { fslab: 1; type: "set"; params: Record<string, string | number> } // a playground's link parameters; the playground starts over with them
  | { fslab: 1; type: "reset" } // the playground back to its defaults; a lab's current step reset
  | { fslab: 1; type: "start" }; // a lab's VM started (as its "Start the Linux VM" button does)

/** frame -> host */
export type FrameMessage =
  | { fslab: 1; type: "ready"; kind: "playground" | "view" | "lab"; id: string; params: Record<string, string> }
  | { fslab: 1; type: "params"; params: Record<string, string>; problems: string[] } // after a "set": the parameters in force and what was wrong with them
  | { fslab: 1; type: "revealed"; id: string; text: string; data: Record<string, string> } // a playground's answer, once the learner revealed it
  | { fslab: 1; type: "step-passed"; lab: string; step: number; title: string }
  | { fslab: 1; type: "error"; message: string };

export const CONFIG_FILE = "fslab-embed.json";

export interface EmbedConfig {
  /** origins that may drive this site's frames, e.g. "https://docs.example.org"; "*" for any */
  allowedOrigins: string[];
}

/** A host message, or why it is not one (a foreign page may post anything). */
export function parseHostMessage(data: unknown): HostMessage | { error: string } {
  if (!data || typeof data !== "object" || (data as { fslab?: unknown }).fslab !== 1) return { error: "not an fslab message (no fslab: 1)" };
  const m = data as Record<string, unknown>;
  switch (m.type) {
    case "ping":
    case "reset":
    case "start":
      return { fslab: 1, type: m.type };
    case "set": {
      const p = m.params;
      if (!p || typeof p !== "object" || Array.isArray(p)) return { error: '"set" needs params: { name: value }' };
      const params: Record<string, string | number> = {};
      for (const [k, v] of Object.entries(p)) {
        if (!/^[a-z_][a-z0-9_]*$/i.test(k)) return { error: `"set": ${JSON.stringify(k)} is not a parameter name` };
        if (typeof v !== "string" && typeof v !== "number") return { error: `"set": ${k} must be a number or a text` };
        params[k] = v;
      }
      return { fslab: 1, type: "set", params };
    }
    default:
      return { error: `unknown message type ${JSON.stringify(m.type)}` };
  }
}

export function parseConfig(text: string): EmbedConfig | { error: string } {
  let v: { allowedOrigins?: unknown } | null;
  try {
    v = JSON.parse(text);
  } catch (e) {
    return { error: `${CONFIG_FILE} is not JSON (${e instanceof Error ? e.message : e})` };
  }
  if (!v || !Array.isArray(v.allowedOrigins) || v.allowedOrigins.some((o: unknown) => typeof o !== "string"))
    return { error: `${CONFIG_FILE}: "allowedOrigins" must be a list of origins such as "https://docs.example.org"` };
  for (const o of v.allowedOrigins) {
    if (o === "*") continue;
    let u: URL;
    try {
      u = new URL(o);
    } catch {
      return { error: `${CONFIG_FILE}: ${JSON.stringify(o)} is not an origin` };
    }
    if (u.origin !== o) return { error: `${CONFIG_FILE}: ${JSON.stringify(o)} is not an origin (write it as ${u.origin})` };
  }
  return { allowedOrigins: v.allowedOrigins };
}
