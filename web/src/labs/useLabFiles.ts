// A lab's files (labs/<id>/files/, named in `files:`) fetched from the site and put in the
// guest under /lab/ each time a machine is ready (a restored snapshot gets them afresh too).
import { useEffect, useState } from "react";
import type { Lab } from "./lab-format";
import { filesIn, LAB_FILES_BYTES, putLabFiles, type RunInGuest } from "./lab-files";
import { siteUrl } from "../shared/site";

export async function fetchLabFiles(id: string, names: readonly string[]): Promise<Array<{ name: string; data: Uint8Array }>> {
  const files = await Promise.all(
    names.map(async (name) => {
      const r = await fetch(siteUrl(`labs/${id}/files/${name}`), { cache: "no-cache" });
      if (!r.ok) throw new Error(`labs/${id}/files/${name}: the server answered ${r.status} ${r.statusText}`.trim());
      return { name, data: new Uint8Array(await r.arrayBuffer()) };
    }),
  );
  const total = files.reduce((a, f) => a + f.data.length, 0);
  if (total > LAB_FILES_BYTES) throw new Error(`the lab's files come to ${(total / 2 ** 20).toFixed(1)} MiB, over the ${LAB_FILES_BYTES / 2 ** 20} MiB a lab may ship`);
  return files;
}

/**
 * Puts the lab's files in the guest when `run` (the machine's check agent) is there, and again
 * each time `machineGen` counts the machine ready again (a reset, a restore); what went wrong, if anything.
 */
export function useLabFiles(lab: Lab | undefined, run: RunInGuest | null, preview: boolean, machineGen = 0): string | null {
  const [problem, setProblem] = useState<string | null>(null);
  const id = lab?.meta.id;
  const names = lab?.meta.files.join("\n") ?? "";
  useEffect(() => {
    if (!id || !names || !run || preview) return;
    let live = true;
    fetchLabFiles(id, names.split("\n"))
      .then((files) => putLabFiles(run, files))
      .then(() => live && setProblem(null))
      .catch((e) => live && setProblem(`The lab's files could not be put in the guest's /lab/: ${e instanceof Error ? e.message : e}`))
      .finally(() => filesIn(id)); // a step's set-up script waits for them (LabRunner)
    return () => void (live = false);
  }, [id, names, run, preview, machineGen]);
  return problem;
}
