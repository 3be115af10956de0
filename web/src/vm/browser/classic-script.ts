// v86 and xterm.js loaded as classic scripts, not as modules. The site is cross-origin isolated
// (COOP and COEP, vite.config.ts: the guest's clock needs the browser's fine timer), and there
// Chromium (156, 2026-12-05) uses no code cache for a module script: on every warm visit V8
// parsed the lab page's 844 KB chunk again, libv86 and xterm.js in it, 70-100 ms before the VM
// could start, and compiled their functions lazily as they first ran. A classic script's cache
// is used (a test page of both kinds, isolated and not: only the isolated module was parsed
// again; in the lab page, libv86's cache is consumed whole). v86's build ships a classic
// libv86.js that defines `V86` on the window; xterm.js's is made from its module build
// (web/classic-scripts.ts). Both are started as a lab page opens (fetch-ahead.ts prepareV86).
import libv86Url from "v86/build/libv86.js?url";
import type { V86 } from "v86";
import type { Terminal } from "@xterm/xterm";
import type { FitAddon } from "@xterm/addon-fit";
import { siteUrl } from "../../shared/site";

type Globals = Window & { V86?: typeof V86; fslabXterm?: { Terminal: typeof Terminal }; fslabXtermFit?: { FitAddon: typeof FitAddon } };

const loads = new Map<string, Promise<void>>();

/** A classic script run once in the page; a failed load is tried again by the next caller. */
function runScript(url: string, name: string): Promise<void> {
  let p = loads.get(url);
  if (!p) {
    p = new Promise<void>((resolve, reject) => {
      const script = document.createElement("script");
      script.src = url;
      // as a module script is fetched: CORS, so an embedding page's COEP lets it in
      script.crossOrigin = "anonymous";
      script.onload = () => resolve();
      script.onerror = () => reject(new Error(`${name} could not be loaded from ${url}`));
      document.head.append(script);
    });
    loads.set(url, p);
    p.catch(() => loads.delete(url));
  }
  return p;
}

/** v86's emulator class. */
export async function loadV86(): Promise<typeof V86> {
  const g = window as Globals;
  if (!g.V86) await runScript(new URL(libv86Url, import.meta.url).href, "libv86.js");
  if (!g.V86) throw new Error("libv86.js ran but defined no V86");
  return g.V86;
}

export interface Xterm {
  Terminal: typeof Terminal;
  FitAddon: typeof FitAddon;
}

let xterm: Xterm | null = null;

/** xterm.js and its fit addon. */
export async function loadXterm(): Promise<Xterm> {
  if (xterm) return xterm;
  const g = window as Globals;
  if (!g.fslabXterm) await runScript(siteUrl(__XTERM_CLASSIC__), "xterm.js");
  if (!g.fslabXterm?.Terminal || !g.fslabXtermFit?.FitAddon) throw new Error("xterm.js's script ran but defined no Terminal or FitAddon");
  return (xterm = { Terminal: g.fslabXterm.Terminal, FitAddon: g.fslabXtermFit.FitAddon });
}

/** xterm.js if it has loaded already (a terminal can then open in the same render). */
export const xtermLoaded = (): Xterm | null => xterm;
