// The site's labs, read at run time from labs/ beside index.html (labs/index.json, then each
// labs/<id>/lab.md), so a lab copied into a hosted site appears without a rebuild. Each lab
// is parsed on its own: a broken one shows its error, file:line, and hides no other. A lab
// file opened from the author's own disk is kept here too, for a preview.
import { useEffect, useState } from "react";
import { parseLab, type Lab } from "./lab-format";
import { parseLabIndex } from "./lab-index";
import { VIEW_IDS } from "../topics";
import { siteUrl } from "../shared/site";

export interface LabEntry {
  id: string;
  /** the lab file's text: its hash tells one version of the lab from another */
  source: string;
  lab?: Lab;
  error?: string;
  /** opened from the author's disk, not part of the site */
  preview?: boolean;
}

export interface LabList {
  labs: LabEntry[];
  /** the index itself could not be read */
  error?: string;
}

const url = (path: string) => siteUrl(`labs/${path}`);

export function entryOf(id: string, source: string, file: string, folder?: string): LabEntry {
  try {
    return { id, source, lab: parseLab(source, VIEW_IDS, file, folder) };
  } catch (e) {
    return { id, source, error: e instanceof Error ? e.message : String(e) };
  }
}

async function fetchText(path: string): Promise<string> {
  const r = await fetch(url(path), { cache: "no-cache" });
  if (!r.ok) throw new Error(`labs/${path}: the server answered ${r.status} ${r.statusText}`.trim());
  return r.text();
}

let loading: Promise<LabList> | null = null;

/** The site's labs (read once per page load). */
export function loadLabs(): Promise<LabList> {
  loading ??= (async () => {
    let index;
    try {
      index = parseLabIndex(await fetchText("index.json"));
    } catch (e) {
      return { labs: [], error: `The list of labs could not be read: ${e instanceof Error ? e.message : e}` };
    }
    if ("error" in index) return { labs: [], error: index.error };
    const labs = await Promise.all(
      index.labs.map(async (id) => {
        try {
          return entryOf(id, await fetchText(`${id}/lab.md`), `labs/${id}/lab.md`, id);
        } catch (e) {
          return { id, source: "", error: e instanceof Error ? e.message : String(e) };
        }
      }),
    );
    return { labs };
  })();
  return loading;
}

let preview: LabEntry | null = null;

/** A lab.md the author opened from their disk: shown at #/lab/preview until the page reloads. */
export function setPreview(source: string, fileName: string): LabEntry {
  const e = entryOf("preview", source, fileName);
  // its progress and machine are kept apart from the site's lab of the same id
  if (e.lab) e.lab = { ...e.lab, meta: { ...e.lab.meta, id: `preview-${e.lab.meta.id}` } };
  preview = { ...e, preview: true };
  return preview;
}

export function useLabs(): LabList | null {
  const [list, setList] = useState<LabList | null>(null);
  useEffect(() => {
    let live = true;
    void loadLabs().then((l) => live && setList(l));
    return () => void (live = false);
  }, []);
  return list;
}

/** One lab by id ("preview" for the author's own file); undefined while the list loads. */
export function useLab(id: string): LabEntry | null | undefined {
  const list = useLabs();
  if (id === "preview") return preview;
  if (!list) return undefined;
  // the list itself could not be read (offline before this lab was kept, a broken index): say so
  if (list.error) return { id, source: "", error: list.error };
  return list.labs.find((l) => l.id === id) ?? null;
}
