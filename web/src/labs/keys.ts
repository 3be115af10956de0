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
//
// A key may read the learner's own disk instead of a model's run (an answer whose manifest
// entry says `image:`): the block names an image the learner's commands copied to /mnt/host,
//
//   key:
//     model: exfat.file-discards     # the runs of a file on the learner's volume, as it is on disk
//     image: exfat.img               # /mnt/host/exfat.img, read from their guest as they answer
//     path: /frag
//
// and the inspectors parse it (shared/inspect): the key is what their kernel left on the disk.
// Only a host with the learner's machine computes it: the page, and `labs test` on its guest;
// `labs key` says where it is read, and `labs report` keeps the key the page recorded.
import type { TopicManifest } from "../shared/topic";
import type { AnswerParams, LearnerDisk, TopicAnswers } from "../shared/answers";
import type { CoreModules } from "@wasm/cores.mjs";
import { inspectImage } from "../shared/inspect/inspect";

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
  /** it reads the learner's disk (AnswerSpec.image): what it reads there */
  image?: string;
}

export function knownAnswers(topics: readonly TopicManifest[]): KnownAnswer[] {
  return topics.flatMap((t) =>
    (t.answers?.specs ?? []).map((s) => ({ id: `${t.id}.${s.id}`, params: [...(s.image ? ["image"] : []), ...Object.keys(s.params)], summary: s.summary, ...(s.image ? { image: s.image } : {}) })),
  );
}

/** A file in /mnt/host, as a key names it: a plain name, never a path out of the share. */
const SHARED_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** The image a key reads on the learner's disk (a file in /mnt/host), or null for a model's key. */
export function keyImage(key: ModelKey, known: readonly KnownAnswer[]): string | null {
  return known.find((k) => k.id === key.model)?.image ? String(key.params.image) : null;
}

/** A key that reads the learner's disk, asked where there is no learner's machine to read. */
export class NeedsLearnerDisk extends Error {
  constructor(readonly image: string) {
    super(`read from the learner's own disk (/mnt/host/${image}) as they answer`);
  }
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
  if (a.image && !SHARED_NAME.test(String(key.params.image)))
    return `key: image: names a file the learner's commands copy to /mnt/host (exfat.img), not ${JSON.stringify(key.params.image)}`;
  return null;
}

/** How a host hands a topic's answers their wasm core (Node: node-load.ts; the page: core-web.ts). */
export type CoreLoader = <C extends keyof CoreModules>(core: C) => Promise<CoreModules[C]>;

/** How a host reads a file of /mnt/host from the learner's machine (VmHandle.readSharedFile). */
export type SharedReader = (name: string) => Promise<Uint8Array>;

/**
 * A key's value for one learner's problem: the topic's model run on their parameters, or, for a
 * key that reads their disk, the image their commands copied to /mnt/host, as the inspectors
 * parse it (without `read`, NeedsLearnerDisk).
 */
export async function computeKey(topics: readonly TopicManifest[], key: ModelKey, load: CoreLoader, read?: SharedReader): Promise<string> {
  const [topicId, id] = key.model.split(".");
  const topic = topics.find((t) => t.id === topicId);
  if (!topic?.answers) throw new Error(`no topic "${topicId}" with model answers`);
  const image = keyImage(key, knownAnswers([topic]));
  let disk: LearnerDisk | undefined;
  if (image !== null) {
    if (!read) throw new NeedsLearnerDisk(image);
    const bytes = await read(image).catch((e) => {
      throw new Error(`/mnt/host/${image} could not be read (${e instanceof Error ? e.message : e}): copy the volume's image there as the step says`);
    });
    disk = { name: image, bytes, report: inspectImage(await load("inspect"), bytes) };
  }
  const answers: TopicAnswers = await topic.answers.load();
  const f = answers.answers[id];
  if (!f) throw new Error(`${topicId}/answers.ts has no answer "${id}"`);
  const module = await load(answers.core);
  const { image: _name, ...params } = key.params;
  return String((f as (m: unknown, p: AnswerParams, d?: LearnerDisk) => number | string)(module, image !== null ? params : key.params, disk));
}
