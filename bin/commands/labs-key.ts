// fslab labs key LAB --learner ID [--json]: one learner's problem and its answers, as the
// instructor's answer key. LAB is a lab's id (a folder of labs/), its folder or its lab.md. The
// learner's seed values are drawn as the page draws them (seed.ts); each prediction's and
// question's expected answer is computed by its topic's model (its `key:`, keys.ts); a block
// without a key is answered only by the learner's own run, and the key says so.
import { parseArgs } from "node:util";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { UsageError } from "../../web/src/shared/cli-args";
import { loadCoreModule } from "../../web/src/shared/node-load";
import { computeKey, keyImage, knownAnswers, type CoreLoader } from "../../web/src/labs/keys";
import { toleranceText } from "../../web/src/labs/question";
import type { Lab } from "../../web/src/labs/lab-format";
import type { TopicManifest } from "../../web/src/shared/topic";
import { findLabs, labContext, readLab } from "./labs";

export interface KeyEntry {
  step: number;
  title: string;
  line: number;
  kind: "predict" | "question";
  question: string;
  unit?: string;
  /** the model's answer for this learner; null: only their run can answer it (or their disk: `image`) */
  expected: string | null;
  model?: string;
  /** the key reads the learner's own disk: this image in /mnt/host, as they answer */
  image?: string;
  /** how a question's answer is judged (give or take, within a share) */
  judged?: string;
}

/** Every keyed block of a lab read for one learner, with the model's answer for them. */
export async function labKey(lab: Lab, topics: readonly TopicManifest[], load: CoreLoader = loadCoreModule): Promise<KeyEntry[]> {
  const out: KeyEntry[] = [];
  const known = knownAnswers(topics);
  for (const [i, s] of lab.steps.entries())
    for (const b of s.blocks) {
      if (b.kind !== "predict" && b.kind !== "question") continue;
      const q = b.kind === "predict" ? b.predict : b.question;
      // a key read from the learner's own disk is theirs alone: it is computed as they answer
      const image = q.key ? keyImage(q.key, known) : null;
      const expected = q.key && image === null ? await computeKey(topics, q.key, load) : null;
      out.push({
        step: i + 1,
        title: s.title,
        line: b.line,
        kind: b.kind,
        question: q.question,
        ...(q.unit ? { unit: q.unit } : {}),
        expected,
        ...(q.key ? { model: q.key.model } : {}),
        ...(image !== null ? { image } : {}),
        ...(b.kind === "question" && toleranceText(b.question) ? { judged: toleranceText(b.question) } : {}),
      });
    }
  return out;
}

/** A lab named by id (in labs/) or by path, as labs check finds it. */
export function labPath(name: string): string {
  if (existsSync(name)) return name;
  if (/^[a-z0-9][a-z0-9-]*$/.test(name) && existsSync(join("labs", name, "lab.md"))) return join("labs", name);
  throw new UsageError(`labs key: no lab ${name} (a lab's id in labs/, its folder or its lab.md)`);
}

export async function labsKey(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, options: { learner: { type: "string" }, json: { type: "boolean", default: false } } });
  } catch (e) {
    throw new UsageError(`labs key: ${e instanceof Error ? e.message : e}`);
  }
  const { values: v, positionals } = parsed;
  if (positionals.length !== 1) throw new UsageError("labs key takes one lab (its id, folder or lab.md) and --learner ID");
  if (!v.learner?.trim()) throw new UsageError("labs key needs --learner ID: the learner's name or ID as their progress file gives it");
  const target = findLabs(labPath(positionals[0]));
  if ("error" in target) throw new UsageError(`labs key: ${target.error}`);
  if (target.labs.length !== 1) throw new UsageError(`labs key: ${positionals[0]} holds ${target.labs.length} labs: name one`);
  const { views, answers, topics } = await labContext();
  const found = target.labs[0];
  const r = readLab(found, views, { identity: v.learner.trim(), answers, quiet: true });
  if (r.errors) {
    for (const e of r.errors) console.error(e);
    return 1;
  }
  const lab = r.lab;
  const entries = await labKey(lab, topics);
  if (v.json) {
    console.log(JSON.stringify({ lab: lab.meta.id, learner: lab.seed.identity, seed: lab.seed.values, answers: entries }, null, 2));
    return 0;
  }
  console.log(`${found.file}: ${lab.meta.title}`);
  console.log(`learner ${JSON.stringify(lab.seed.identity)}`);
  if (lab.meta.seed.length) for (const p of lab.meta.seed) console.log(`  ${p.name} = ${lab.seed.values[p.name]}   (drawn from ${p.text})`);
  else console.log("  (the lab declares no seed: every learner has the same problem)");
  for (const e of entries) {
    const answer = e.image
      ? `read from the learner's own disk as they answer: /mnt/host/${e.image}, parsed by the inspector   (${e.model}${e.judged ? `; judged ${e.judged}` : ""})`
      : e.expected === null
        ? "only the learner's run answers it (no model key)"
        : `${e.expected}${e.unit ? ` ${e.unit}` : ""}   (${e.model}${e.judged ? `; judged ${e.judged}` : ""})`;
    console.log(`step ${e.step} "${e.title}", ${e.kind === "predict" ? "prediction" : "question"} at line ${e.line}: ${e.question}\n  ${answer}`);
  }
  return 0;
}
