// `fslab bench-vm`'s scenarios are the topics': each topic's module (its manifest's vmBench)
// has a table for every fslab-bench scenario its guest/ folder puts in the root filesystem,
// and for no other; the guest's fslab-bench finds them by file.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { loadTopics, loadVmBench } from "../../web/src/topics/node-index";
import { vmBenchScenarios } from "./bench-vm";

const TOPICS = new URL("../../web/src/topics/", import.meta.url);
const guestScenarios = (id: string): string[] => {
  const dir = new URL(`${id}/guest/usr/local/lib/fslab-bench/`, TOPICS);
  return existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith(".sh")).map((f) => f.slice(0, -3)).sort() : [];
};

describe("fslab bench-vm's scenarios", () => {
  it("each topic's are the scenarios its guest folder gives fslab-bench, each once", async () => {
    let n = 0;
    for (const topic of await loadTopics()) {
      const host = Object.keys(await loadVmBench(topic)).sort();
      expect(host, topic.id).toEqual(guestScenarios(topic.id));
      n += host.length;
    }
    expect(n).toBeGreaterThan(3);
    expect((await vmBenchScenarios()).size).toBe(n);
  });

  it("each scenario file starts with its usage line, which fslab-bench prints", () => {
    for (const id of readdirSync(TOPICS))
      for (const name of guestScenarios(id)) {
        const first = readFileSync(new URL(`${id}/guest/usr/local/lib/fslab-bench/${name}.sh`, TOPICS), "utf8").split("\n")[0];
        expect(first, `${id}: ${name}.sh`).toMatch(new RegExp(`^# ${name} `));
      }
  });

  it("the guest's fslab-bench names no scenario: it runs the file of the name it is given", () => {
    const script = readFileSync(new URL("../../kernel-image/rootfs/overlay/usr/local/bin/fslab-bench", import.meta.url), "utf8");
    for (const id of readdirSync(TOPICS)) for (const name of guestScenarios(id)) expect(script, name).not.toContain(name);
  });
});
