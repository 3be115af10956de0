// fslab inspect <image> [--json]: what the inspectors read in a real image (the formats of the
// topics whose manifest has inspect:). The text and the damage are the format's topic's: its
// manifest's inspect: names the module.
import { readFileSync, statSync } from "node:fs";
import { UsageError } from "../../web/src/shared/cli-args";
import { loadCoreModule } from "../../web/src/shared/node-load";
import { loadInspectPrinter, loadTopics } from "../../web/src/topics/node-index";
import { inspectImage } from "../../web/src/shared/inspect/inspect";

export async function inspectCommand(args: string[]): Promise<number> {
  const usage = "usage: fslab inspect <image> [--json]";
  const json = args.includes("--json");
  const unknown = args.find((a) => a.startsWith("--") && a !== "--json");
  if (unknown) throw new UsageError(`unknown option ${unknown}`, usage);
  const files = args.filter((a) => !a.startsWith("--"));
  if (files.length !== 1) throw new UsageError(files.length ? `one image at a time (given ${files.length})` : "no image given", usage);
  let bytes: Uint8Array;
  try {
    if (statSync(files[0]).isDirectory()) throw new Error(`${files[0]} is a directory, not an image`);
    bytes = readFileSync(files[0]);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === "ENOENT" ? "no such file" : code === "EACCES" ? "permission denied" : code ? code : (e as Error).message;
    throw new Error(code ? `cannot read ${files[0]}: ${why}` : why);
  }
  const report = inspectImage(await loadCoreModule("inspect"), bytes);
  const printer = await loadInspectPrinter(await loadTopics(), report.fs);
  if (json) console.log(JSON.stringify(report, null, 2));
  else printer.printReport(report);
  // like fsck: what could be read is printed; damage found gives a line on stderr and status 4
  const damage = printer.damageOf(report);
  if (damage.length) {
    console.error(`fslab inspect: ${files[0]} is damaged: ${damage.slice(0, 3).join("; ")}${damage.length > 3 ? `; and ${damage.length - 3} more` : ""}`);
    return 4;
  }
  return 0;
}
