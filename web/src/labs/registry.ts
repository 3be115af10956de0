// Every lab in labs/, bundled into the page at build time.
import { parseLab, type Lab } from "./lab-format";
import { VIEW_IDS } from "../topics";

const sources = import.meta.glob("@labs/*/lab.md", { query: "?raw", import: "default", eager: true }) as Record<string, string>;

export interface LabEntry {
  id: string;
  /** the lab file's text: its hash tells one version of the lab from another */
  source: string;
  lab?: Lab;
  error?: string;
}

export const LABS: LabEntry[] = Object.entries(sources)
  .map(([path, source]) => {
    const id = path.split("/").at(-2)!;
    try {
      return { id, source, lab: parseLab(source, VIEW_IDS, `labs/${id}/lab.md`, id) };
    } catch (e) {
      return { id, source, error: e instanceof Error ? e.message : String(e) };
    }
  })
  .sort((a, b) => a.id.localeCompare(b.id));
