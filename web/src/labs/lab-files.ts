// Files a lab ships beside its lab.md (labs/<id>/files/, each named in the frontmatter's
// `files:`): scripts, data, a small disk image. They reach the guest as /lab/<name> without a
// rebuild of the guest: the host writes them into its root filesystem (a 9p tree in RAM)
// once the machine is up, through the check agent (out of the learner's shell), in the page
// (fetched from the site's labs/ folder) and in `fslab labs test` (read from the disk).
// Scripts (*.sh) are made executable.

/** At most this many files per lab, and this many bytes in all: the page downloads them each visit. */
export const LAB_FILES_MAX = 32;
export const LAB_FILES_BYTES = 2 ** 20;
/** Where a lab's files appear in the guest. */
export const GUEST_LAB_DIR = "/lab";

/** A name in `files:`: a relative path of letters, digits, dots, dashes and underscores, no "..". */
export const LAB_FILE_NAME = /^(?!.*(?:^|\/)\.\.?(?:\/|$))[\w.-]+(?:\/[\w.-]+)*$/;

/** What is wrong with a lab's `files:` list (each a sentence), before any file is read. */
export function fileNameErrors(names: readonly string[]): string[] {
  const errors: string[] = [];
  if (names.length > LAB_FILES_MAX) errors.push(`a lab ships at most ${LAB_FILES_MAX} files, not ${names.length}`);
  const seen = new Set<string>();
  for (const n of names) {
    if (!LAB_FILE_NAME.test(n)) errors.push(`"${n}" is not a file name under files/ (letters, digits, ".", "-", "_", folders with "/", no "..")`);
    else if (seen.has(n)) errors.push(`"${n}" is listed twice`);
    seen.add(n);
  }
  return errors;
}

/** What is wrong with the files themselves once their sizes are known (undefined: not there). */
export function fileSizeErrors(sizes: ReadonlyArray<{ name: string; bytes: number | undefined }>): string[] {
  const errors = sizes.filter((s) => s.bytes === undefined).map((s) => `files/${s.name} is not there`);
  const total = sizes.reduce((a, s) => a + (s.bytes ?? 0), 0);
  if (total > LAB_FILES_BYTES) errors.push(`the files come to ${(total / 2 ** 20).toFixed(1)} MiB: a lab ships at most ${LAB_FILES_BYTES / 2 ** 20} MiB (the page downloads them on every visit)`);
  return errors;
}

/**
 * Bytes per request to the guest: each is a script the check agent runs, the piece in base64
 * inside it, as one line on its virtio-console port (base64's letters travel as they are).
 * 48 KiB pieces (an 87 KB line, when the line was base64 twice over) got no answer in 40 s in
 * the real guest; a check's few KB do: 3 KiB pieces make lines of about 4.2 KB.
 */
export const CHUNK_BYTES = 3 * 1024;

function base64(bytes: Uint8Array): string {
  let bin = "";
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin);
}

/**
 * The scripts that put files in the guest under /lab/, in order: each file is written beside
 * its place (name.part) a piece at a time and moved there whole, so a check never reads half
 * a file; a script (*.sh) is made executable. Pure: the tests run them in a folder of their own
 * (`root` stands for the guest's /).
 */
export function deliveryScripts(files: ReadonlyArray<{ name: string; data: Uint8Array }>, root = ""): Array<{ name: string; script: string }> {
  const out: Array<{ name: string; script: string }> = [];
  for (const f of files) {
    if (!LAB_FILE_NAME.test(f.name)) throw new Error(`"${f.name}" is not a lab file's name`);
    const dest = `${root}${GUEST_LAB_DIR}/${f.name}`;
    out.push({ name: f.name, script: `set -e\nmkdir -p '${dest.slice(0, dest.lastIndexOf("/"))}'\n: > '${dest}.part'\n` });
    for (let at = 0; at < f.data.length; at += CHUNK_BYTES)
      out.push({ name: f.name, script: `set -e\nprintf '%s' '${base64(f.data.subarray(at, at + CHUNK_BYTES))}' | base64 -d >> '${dest}.part'\n` });
    out.push({ name: f.name, script: `set -e\n${/\.sh$/.test(f.name) ? `chmod +x '${dest}.part'\n` : ""}mv -f '${dest}.part' '${dest}'\n` });
  }
  return out;
}

/** What putting files needs of a machine: its check agent (VmHandle.check, NodeVm.agent.run). */
export type RunInGuest = (script: string, timeoutSeconds: number) => Promise<{ status: number | "timeout"; output: string }>;

/** Every file of a lab put in the guest under /lab/, through the check agent (out of the learner's shell). */
export async function putLabFiles(run: RunInGuest, files: ReadonlyArray<{ name: string; data: Uint8Array }>): Promise<void> {
  for (const { name, script } of deliveryScripts(files)) {
    const r = await run(script, 30);
    if (r.status !== 0) throw new Error(`${GUEST_LAB_DIR}/${name} could not be written in the guest (${r.status === "timeout" ? "timed out" : `exit ${r.status}`}): ${r.output.trim()}`);
  }
}

/**
 * A step's set-up script: `setup-<step number>.sh` among the lab's files (setup-1.sh for the
 * first step), run through the check agent as that step opens, like a Killercoda background
 * script: out of the learner's terminal, before the step's checks. null if the step has none.
 */
export function setupScript(files: readonly string[], step: number): string | null {
  const name = `setup-${step + 1}.sh`;
  return files.includes(name) ? `${GUEST_LAB_DIR}/${name}` : null;
}
/** A set-up script's time limit, in seconds. */
export const SETUP_TIMEOUT = 60;

/** Resolves once the page has put a lab's files in the guest (or given up): a set-up script waits for it. */
const slots = new Map<string, { promise: Promise<void>; done(): void }>();
function slot(lab: string) {
  let s = slots.get(lab);
  if (!s) {
    let done = () => {};
    const promise = new Promise<void>((r) => (done = r));
    slots.set(lab, (s = { promise, done }));
  }
  return s;
}
export const whenFilesIn = (lab: string): Promise<void> => slot(lab).promise;
export const filesIn = (lab: string): void => slot(lab).done();
