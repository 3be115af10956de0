// The site's labs, read at run time from labs/ beside index.html (labs/index.json, then each
// labs/<id>/lab.md, fetched by lab-fetch.ts), so a lab copied into a hosted site appears
// without a rebuild. Each lab
// is parsed on its own: a broken one shows its error, file:line, and hides no other. A lab
// file opened from the author's own disk is kept here too, for a preview.
import { useEffect, useState } from "react";
import { parseLab, type Lab } from "./lab-format";
import { LAB_ID } from "./lab-index";
import { fetchLabText as fetchText, readLabIndex as readIndex } from "./lab-fetch";
import { ANSWERS, GRADERS, VIEW_IDS } from "../topics";

export interface LabEntry {
  id: string;
  /** the lab file's text: its hash tells one version of the lab from another */
  source: string;
  lab?: Lab;
  error?: string;
  /** opened from the author's disk, not part of the site */
  preview?: boolean;
  /** how it was read: again, for a learner's own problem (seededLab) */
  file?: string;
  folder?: string;
}

export interface LabList {
  labs: LabEntry[];
  /** the index itself could not be read */
  error?: string;
}

export function entryOf(id: string, source: string, file: string, folder?: string): LabEntry {
  try {
    return { id, source, file, folder, lab: parseLab(source, VIEW_IDS, file, folder, { answers: ANSWERS, graders: GRADERS }) };
  } catch (e) {
    return { id, source, error: e instanceof Error ? e.message : String(e) };
  }
}

/**
 * The lab as one learner's problem (seed.ts): its templates filled with the values drawn from
 * their identity. A lab without a seed is the same for everyone, and comes back as it is. The
 * lab parsed for its example identity, so it parses for any (`fslab labs test` walks three).
 */
export function seededLab(entry: LabEntry, identity: string | undefined): Lab | undefined {
  const lab = entry.lab;
  if (!lab || !identity || !lab.meta.seed.length || lab.seed.identity === identity) return lab;
  // one object per entry and learner: the page's hooks key on the lab
  let byIdentity = seeded.get(entry);
  if (!byIdentity) seeded.set(entry, (byIdentity = new Map()));
  let mine = byIdentity.get(identity);
  if (!mine) {
    const parsed = parseLab(entry.source, VIEW_IDS, entry.file ?? "lab.md", entry.folder, { answers: ANSWERS, graders: GRADERS, identity });
    mine = { ...parsed, meta: { ...parsed.meta, id: lab.meta.id } };
    byIdentity.set(identity, mine);
  }
  return mine;
}

const seeded = new WeakMap<LabEntry, Map<string, Lab>>();

/** One lab's file parsed; a file that could not be fetched is that lab's error. */
async function readEntry(id: string, text: Promise<string>): Promise<LabEntry> {
  try {
    return entryOf(id, await text, `labs/${id}/lab.md`, id);
  } catch (e) {
    return { id, source: "", error: e instanceof Error ? e.message : String(e) };
  }
}

let loading: Promise<LabList> | null = null;

/** The site's labs (read once per page load). */
export function loadLabs(): Promise<LabList> {
  loading ??= (async () => {
    const index = await readIndex();
    if ("error" in index) return { labs: [], error: index.error };
    return { labs: await Promise.all(index.labs.map((id) => readEntry(id, fetchText(`${id}/lab.md`)))) };
  })();
  return loading;
}

const single = new Map<string, Promise<LabEntry | null>>();

/**
 * One lab, for its page: the index and the lab's file fetched side by side, and only this lab
 * parsed (a lab page's VM waits for its text: not for the index first, nor for the other labs).
 * null when the index does not list it; the index's own error as the lab's.
 */
export function loadLab(id: string): Promise<LabEntry | null> {
  if (loading) return loading.then((list) => (list.error ? { id, source: "", error: list.error } : list.labs.find((l) => l.id === id) ?? null));
  let p = single.get(id);
  if (!p) {
    p = (async () => {
      // an id that is no folder name is never fetched (it would make a URL of its own)
      const text = LAB_ID.test(id) ? fetchText(`${id}/lab.md`) : null;
      text?.catch(() => undefined); // reported below, when the index lists the lab
      const index = await readIndex();
      if ("error" in index) return { id, source: "", error: index.error };
      if (!text || !index.labs.includes(id)) return null;
      return readEntry(id, text);
    })();
    single.set(id, p);
  }
  return p;
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

/** One lab by id ("preview" for the author's own file); undefined while it loads. */
export function useLab(id: string): LabEntry | null | undefined {
  const [entry, setEntry] = useState<{ id: string; entry: LabEntry | null } | null>(null);
  useEffect(() => {
    if (id === "preview") return;
    let live = true;
    void loadLab(id).then((e) => live && setEntry({ id, entry: e }));
    return () => void (live = false);
  }, [id]);
  if (id === "preview") return preview;
  return entry?.id === id ? entry.entry : undefined;
}
