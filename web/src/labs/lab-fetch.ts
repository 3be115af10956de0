// The site's lab files, fetched once per page load and shared: the home page's course
// (course-list.ts), a lab page's registry (registry.ts), and App.tsx, which starts a lab's
// fetch beside its page's chunk.
import { parseLabIndex, type LabIndex } from "./lab-index";
import { siteUrl } from "../shared/site";

/** each file asked of the server once per page load: a lab page reads its lab, then the course's */
const fetched = new Map<string, Promise<string>>();

/** labs/<path> as text, fetched once per page load */
export function fetchLabText(path: string): Promise<string> {
  let p = fetched.get(path);
  if (!p) {
    p = (async () => {
      const r = await fetch(siteUrl(`labs/${path}`), { cache: "no-cache" });
      if (!r.ok) throw new Error(`labs/${path}: the server answered ${r.status} ${r.statusText}`.trim());
      return r.text();
    })();
    fetched.set(path, p);
  }
  return p;
}

/** labs/index.json parsed, or what is wrong with it */
export async function readLabIndex(): Promise<LabIndex | { error: string }> {
  try {
    return parseLabIndex(await fetchLabText("index.json"));
  } catch (e) {
    return { error: `The list of labs could not be read: ${e instanceof Error ? e.message : e}` };
  }
}
