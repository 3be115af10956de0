// A lab block's `key:`: the answer its topic's wasm model computes for this learner's problem
// (shared/answers.ts). Written in a predict or question block, after the seed's templates are
// filled in:
//
//   key:
//     model: exfat.delete-discards   # <topic>.<answer id>, as the topic's manifest declares it
//     pieces: {{pieces}}             # the answer's parameters, each a number or a word
//     piece_clusters: {{piece_kib / 4}}
//     batch_discard: 0
//
// `fslab labs key` prints each learner's keys, `fslab labs test` holds the kernel's measured
// answer to the key, and the page and the report grade a question's answer against it.
import type { TopicManifest } from "../shared/topic";
import type { AnswerParams, TopicAnswers } from "../shared/answers";
import type { CoreModules } from "@wasm/cores.mjs";

export interface ModelKey {
  /** `<topic>.<answer id>` */
  model: string;
  params: AnswerParams;
}

/** An answer a lab may name: its qualified id and its parameters' names. */
export interface KnownAnswer {
  id: string;
  params: string[];
  summary: string;
}

export function knownAnswers(topics: readonly TopicManifest[]): KnownAnswer[] {
  return topics.flatMap((t) => (t.answers?.specs ?? []).map((s) => ({ id: `${t.id}.${s.id}`, params: Object.keys(s.params), summary: s.summary })));
}

const MODEL = /^[a-z0-9][a-z0-9-]*\.[a-z0-9][a-z0-9-]*$/;

/** `key:` as written in a block, checked for its shape (parseLab checks the names against the manifests). */
export function parseKey(v: unknown): { key: ModelKey } | { error: string } {
  if (!v || typeof v !== "object" || Array.isArray(v)) return { error: "key: is a mapping: model: <topic>.<answer>, then the answer's parameters (pieces: {{pieces}})" };
  const { model, ...rest } = v as Record<string, unknown>;
  if (typeof model !== "string" || !MODEL.test(model)) return { error: `key: model: names a topic's model answer as <topic>.<answer> (exfat.delete-discards), not ${JSON.stringify(model)}` };
  const params: AnswerParams = {};
  for (const [k, x] of Object.entries(rest)) {
    if (typeof x === "number" && Number.isFinite(x)) params[k] = x;
    else if (typeof x === "string" && x.trim()) params[k] = x.trim();
    else return { error: `key: ${k}: is a number or a word, not ${JSON.stringify(x)}` };
  }
  return { key: { model, params } };
}

/** What is wrong with a key against the answers the topics declare; null if nothing. */
export function keyError(key: ModelKey, known: readonly KnownAnswer[]): string | null {
  const a = known.find((k) => k.id === key.model);
  if (!a) return `key: no topic declares a model answer "${key.model}" (known: ${known.map((k) => k.id).join(", ") || "none"})`;
  const missing = a.params.filter((p) => !(p in key.params));
  const extra = Object.keys(key.params).filter((p) => !a.params.includes(p));
  if (missing.length) return `key: ${key.model} needs ${missing.join(", ")} (it takes ${a.params.join(", ")})`;
  if (extra.length) return `key: ${key.model} takes no ${extra.join(", ")} (it takes ${a.params.join(", ")})`;
  return null;
}

/** How a host hands a topic's answers their wasm core (Node: node-load.ts; the page: core-web.ts). */
export type CoreLoader = <C extends keyof CoreModules>(core: C) => Promise<CoreModules[C]>;

/** A key's value for one learner's problem: the topic's model run on their parameters. */
export async function computeKey(topics: readonly TopicManifest[], key: ModelKey, load: CoreLoader): Promise<string> {
  const [topicId, id] = key.model.split(".");
  const topic = topics.find((t) => t.id === topicId);
  if (!topic?.answers) throw new Error(`no topic "${topicId}" with model answers`);
  const answers: TopicAnswers = await topic.answers.load();
  const f = answers.answers[id];
  if (!f) throw new Error(`${topicId}/answers.ts has no answer "${id}"`);
  const module = await load(answers.core);
  return String((f as (m: unknown, p: AnswerParams) => number | string)(module, key.params));
}
