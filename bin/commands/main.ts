// fslab <command>: see usage() below. `fslab simulate <name>` finds its command in the topic
// manifests (web/src/topics/<id>/topic.ts): this file names no topic.
// Each command's module is imported when that command runs (bin/build-cli.mjs makes each a
// chunk of its own), so `fslab --help` loads neither v86, nor playwright-core, nor a wasm core.
import { readFileSync } from "node:fs";
import { UsageError, isUsageError } from "../../web/src/shared/cli-args";
import { simulateUsageLines } from "./simulate";
import { helpFor, wantsHelp } from "./help";
import { partNames } from "../../bench/parts";

async function usageText(): Promise<string> {
  return `usage:
  fslab vm [--cold] [--timeout S] [--sd SIZE[,TYPE]] -- '<cmd>'
                                                start the guest headless (saved state unless --cold), run the command, exit with its
                                                status; --sd puts an SD card in the slot first (TYPE: sdhc, sdsc, v1)
  fslab inspect <image> [--json]                detect the filesystem in a disk image and print its structure
${(await simulateUsageLines()).join("\n")}
  fslab simulate                                the options of each
  fslab labs check [PATH]                       validate the labs of a labs folder (default: labs/), one lab's folder or a lab.md
  fslab labs test [PATH] [ID...] [--learner ID]...
                                                boot the guest and walk each lab: checks, solution, checks again; print the answers
                                                and hold them to the model's keys; a seeded lab is walked for three learners
                                                unless --learner names whose problems to walk
  fslab labs key LAB --learner ID [--json]      one learner's seed values and the model's answer to each of the lab's questions
  fslab labs grade LAB FILE.c [--learner ID] [--step N]
                                                grade a learner's C function against their kernel's decisions in the guest:
                                                exit 0 when it agrees in all of them, 1 with the first divergence or FILE.c:LINE errors
  fslab labs index PATH                         write index.json in a site's labs folder (PATH: it, or a lab folder or lab.md in it)
  fslab labs report FILE|DIR... [--csv] [--labs DIR]
                                                one row per learner's progress file ("Download my progress"), sub-folders too;
                                                lab versions compared with the labs in --labs DIR (default: labs/)
  fslab export scorm LAB... --out DIR|FILE.zip [--version 1.2|2004] [--base URL] [--labs DIR]
                                                labs as SCORM packages for an LMS (docs/hosting.md): the built site and an imsmanifest.xml;
                                                FILE.zip: one package of every lab named, DIR: one per lab (DIR/<lab>.zip); SCORM 1.2
                                                unless --version 2004 (4th Edition); --base URL: a small package whose launch page opens
                                                the labs from a site you host at URL; LAB is looked up in --labs DIR (default: labs/),
                                                and refused if it differs from the built site's copy (build again)
  fslab readme [--check]                        rewrite the docs' lists of labs (from labs/), views, playgrounds and embeds (from the topic manifests) and the sources gathered from the topic folders
  fslab bench [${partNames().join("|")}]...
                                                print the benchmarks beside their goals (wasm vs native, frames, boot,
                                                the CLI's start, heap, page bytes and time to a prompt, lab snapshots)
  fslab bench-vm [scenario...]                  run the published experiments in the guest, print tables
  fslab --version                               the version; fslab --help, or --help after a command: its usage
Exit status: 0 done, 1 failed (one line says why), 2 a usage error, 4 (inspect) the image is damaged:
what could be read is printed, one line on stderr names the damage (fsck's 4).`;
}

const [cmd, ...args] = process.argv.slice(2);
try {
  let code = 0;
  if (cmd === "--help" || cmd === "-h") console.log(await usageText());
  else if (cmd === "--version" || cmd === "-V") console.log(`fslab ${JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")).version}`);
  else if (cmd && wantsHelp(args)) console.log(await helpFor(cmd, args, await usageText()));
  else if (cmd === "vm") code = await (await import("./vm")).vmCommand(args);
  else if (cmd === "inspect") code = await (await import("./inspect")).inspectCommand(args);
  else if (cmd === "simulate") code = await (await import("./simulate")).simulateCommand(args);
  else if (cmd === "labs" && args[0] === "check") {
    if (args.length > 2) throw new UsageError(`labs check takes one path (a labs folder, a lab folder or a lab.md), not ${args.length - 1}`);
    if (args[1]?.startsWith("-")) throw new UsageError(`labs check: unknown option ${args[1]}`);
    code = await (await import("./labs")).labsCheck(args[1]);
  }
  else if (cmd === "labs" && args[0] === "report") code = await (await import("./labs")).labsReport(args.slice(1));
  else if (cmd === "labs" && args[0] === "index") code = await (await import("./labs")).labsIndex(args.slice(1));
  else if (cmd === "labs" && args[0] === "key") code = await (await import("./labs-key")).labsKey(args.slice(1));
  else if (cmd === "labs" && args[0] === "grade") code = await (await import("./labs-grade")).labsGrade(args.slice(1));
  else if (cmd === "labs" && args[0] === "test") code = await (await import("./labs-test")).labsTest(args.slice(1));
  else if (cmd === "export" && args[0] === "scorm") code = await (await import("./export-scorm")).exportScorm(args.slice(1));
  else if (cmd === "export") throw new UsageError(args[0] ? `no export "${args[0]}" (scorm)` : "export what? (scorm)");
  else if (cmd === "readme") code = await (await import("./readme")).readmeCommand(args);
  else if (cmd === "bench") code = await (await import("./bench")).bench(args);
  else if (cmd === "bench-vm") code = await (await import("./bench-vm")).benchVm(args);
  else if (cmd === "labs") throw new UsageError(args[0] ? `no labs command "${args[0]}" (check, grade, index, key, report, test)` : "which command? (check, grade, index, key, report, test)");
  else throw new UsageError(cmd ? `no command "${cmd}"` : "no command given");
  process.exit(code);
} catch (e) {
  if (isUsageError(e)) {
    // a bad argument: what was wrong, then how the command is used
    console.error(`fslab${cmd ? ` ${cmd}` : ""}: ${e.message}`);
    console.error(e instanceof UsageError && e.usage ? e.usage : await usageText());
    process.exit(2);
  }
  console.error(`fslab ${cmd}: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
}
