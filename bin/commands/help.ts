// `fslab <command> --help`: the command's own lines of the usage, printed (exit 0), before its
// module is loaded, so asking never runs anything (`fslab vm --help` boots no guest). Only the
// arguments before `--` count: after it they belong to the guest's command
// (`fslab vm -- ls --help`).
import { UsageError } from "../../web/src/shared/cli-args";
import { simulateHelp } from "./simulate";

/** --help or -h among the arguments before any `--` */
export function wantsHelp(args: string[]): boolean {
  const end = args.indexOf("--");
  return (end < 0 ? args : args.slice(0, end)).some((a) => a === "--help" || a === "-h");
}

/** the usage's entries: a line that starts `  fslab ...` with the lines that continue it */
function entries(usage: string): string[] {
  const out: string[] = [];
  for (const line of usage.split("\n")) {
    if (line.startsWith("  fslab ")) out.push(line);
    else if (/^ {3,}\S/.test(line) && out.length) out[out.length - 1] += `\n${line}`;
  }
  return out;
}

/** What `fslab <cmd> [sub] ... --help` prints; a command that does not exist is a usage error. */
export async function helpFor(cmd: string, args: string[], usage: string): Promise<string> {
  const end = args.indexOf("--");
  const sub = (end < 0 ? args : args.slice(0, end)).find((a) => !a.startsWith("-"));
  if (cmd === "simulate" && sub) return simulateHelp(sub);
  const words = cmd === "labs" && sub ? `labs ${sub}` : cmd;
  const mine = entries(usage).filter((e) => e.startsWith(`  fslab ${words} `) || e.split("\n")[0] === `  fslab ${words}`);
  if (!mine.length) {
    if (cmd === "labs") throw new UsageError(`no labs command "${sub}" (check, grade, index, key, report, test)`);
    throw new UsageError(`no command "${cmd}"`);
  }
  return `usage:\n${mine.join("\n")}`;
}
