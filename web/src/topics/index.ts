// Every topic's manifest (topics/<id>/topic.ts), found at build time: adding a topic folder
// adds its playgrounds, views and commands everywhere (routes, home page, labs, CLI) with no
// list to edit. Node (the CLI) finds the same files with topics/node-index.ts.
import type { PlaygroundSpec, TopicManifest, ViewSpec, BenchSpec } from "../shared/topic";
import { knownAnswers, type KnownAnswer } from "../labs/keys";
import { knownGraders, type KnownGrader } from "../labs/code-block";

const found = import.meta.glob("./*/topic.ts", { eager: true, import: "default" }) as Record<string, TopicManifest>;

export const TOPICS: TopicManifest[] = Object.values(found).sort((a, b) => a.id.localeCompare(b.id));

export const PLAYGROUNDS: PlaygroundSpec[] = TOPICS.flatMap((t) => t.playgrounds);
export const VIEWS: ViewSpec[] = TOPICS.flatMap((t) => t.views);
export const BENCHES: BenchSpec[] = TOPICS.flatMap((t) => t.benches ?? []);
export const VIEW_IDS: string[] = VIEWS.map((v) => v.id);
/** the model answers a lab's `key:` may name, `<topic>.<id>` with their parameters (shared/answers.ts) */
export const ANSWERS: KnownAnswer[] = knownAnswers(TOPICS);
/** the code graders a lab's `code` block may name, `<topic>.<id>` (shared/grade.ts) */
export const GRADERS: KnownGrader[] = knownGraders(TOPICS);

export const playground = (route: string) => PLAYGROUNDS.find((p) => p.route === route);
export const view = (id: string) => VIEWS.find((v) => v.id === id);
export const bench = (route: string) => BENCHES.find((b) => b.route === route);
