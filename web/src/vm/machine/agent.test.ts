// The host side of the check agent's protocol: what the page says when no agent answers (a
// machine saved before the agent existed), long requests cut to the guest's buffer size, and
// checks in flight given up when the machine is restored. The agent itself is tested in the
// guest (e2e/guest.e2e.ts).
import { describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { AGENT_VERSION, AgentClient, AgentError, failLines, fromAgentOutput, toPrintfB } from "./agent";

describe("AgentClient", () => {
  it("says a machine without an agent has none, and how to get one", async () => {
    const a = new AgentClient(() => undefined);
    const e = await a.ready(50).catch((x) => x);
    expect(e).toBeInstanceOf(AgentError);
    expect(e.message).toMatch(/No check agent answered in the guest within 0.05 s .* A machine saved by an older fslab has none: a cold boot starts one/);
  });

  it("writes a request in pieces the guest's receive buffers take, and reads a reply split anywhere", async () => {
    const writes: Uint8Array[] = [];
    const a = new AgentClient((b) => writes.push(b.slice()));
    const ping = a.ready(1000);
    await new Promise((r) => setTimeout(r, 0)); // the request is written
    a.feed(new TextEncoder().encode("r1 po"));
    a.feed(new TextEncoder().encode(`ng ${AGENT_VERSION}\n`));
    expect(await ping).toBe(AGENT_VERSION);
    const script = "echo " + "x".repeat(3000);
    const run = a.run(script, 5);
    await new Promise((r) => setTimeout(r, 0));
    expect(writes.slice(1).every((w) => w.length <= 1024)).toBe(true);
    const line = new TextDecoder().decode(Uint8Array.from(writes.slice(1).flatMap((w) => [...w])));
    const [id, limit, field, ...rest] = line.replace(/\n$/, "").split(" ");
    expect([id, limit, field, rest]).toEqual(["r2", "5", toPrintfB(script), []]);
    // the output's spaces split the reply's line: they are put back
    a.feed(new TextEncoder().encode("r2 1 12 FAIL: not  yet\\n\n"));
    expect(await run).toMatchObject({ status: 1, output: "FAIL: not  yet\n", guestMs: 12 });
    expect(failLines("ok\nFAIL: one\nFAIL:   two  \nFAIL:\n")).toEqual(["one", "two"]);
  });

  it("refuses an agent of another version, naming both, and sends it no script", async () => {
    const writes: string[] = [];
    const a = new AgentClient((b) => writes.push(new TextDecoder().decode(b)));
    const ping = a.ready(1000);
    await new Promise((r) => setTimeout(r, 0));
    a.feed(new TextEncoder().encode("r1 pong 1\n"));
    expect(await ping).toBe(1);
    const e = await a.run("true", 5).catch((x) => x);
    expect(e).toBeInstanceOf(AgentError);
    expect(e.message).toMatch(/check agent speaks version 1, this fslab version 2: its checks would be misread/);
    expect(writes).toEqual(["r1 ping\n"]);
  });

  it("speaks the version of the guest's agent", () => {
    const script = readFileSync(new URL("../../../../kernel-image/rootfs/overlay/usr/local/sbin/fslab-agent", import.meta.url), "utf8");
    expect(Number(/^VERSION=(\d+)$/m.exec(script)?.[1])).toBe(AGENT_VERSION);
  });

  it("gives up the checks in flight when the machine is restored, and asks for the agent again", async () => {
    const a = new AgentClient(() => undefined);
    const ping = a.ready(1000);
    await new Promise((r) => setTimeout(r, 0));
    a.feed(new TextEncoder().encode(`r1 pong ${AGENT_VERSION}\n`));
    await ping;
    const run = a.run("sleep 100", 100);
    await new Promise((r) => setTimeout(r, 0));
    a.reset();
    await expect(run).rejects.toThrow(/restored while a check ran/);
    await expect(a.ready(20)).rejects.toThrow(/No check agent answered/);
  });

  it("takes a snapshot between checks: after the one in flight has answered, before the one asked meanwhile", async () => {
    const written: string[] = [];
    const a = new AgentClient((b) => written.push(new TextDecoder().decode(b)));
    const ping = a.ready(1000);
    await new Promise((r) => setTimeout(r, 0));
    a.feed(new TextEncoder().encode(`r1 pong ${AGENT_VERSION}\n`));
    await ping;
    const order: string[] = [];
    let sentWhileSaving = -1;
    const first = a.run("mount; sleep 1; umount", 5).then(() => order.push("check 1 answered"));
    await new Promise((r) => setTimeout(r, 0));
    const saved = a.between(async () => {
      order.push("snapshot");
      await new Promise((r) => setTimeout(r, 20));
      sentWhileSaving = written.length;
      return "state";
    });
    const second = a.run("true", 5).then(() => order.push("check 2 answered"));
    await new Promise((r) => setTimeout(r, 30));
    expect(order).toEqual([]); // the snapshot waits for check 1's reply
    expect(written.length).toBe(2); // and check 2 is not sent: only the ping and check 1
    a.feed(new TextEncoder().encode("r2 0 5 \n")); // check 1's reply: the snapshot may go
    expect(await saved).toBe("state");
    expect(sentWhileSaving).toBe(2); // check 2 was held while the machine was saved
    await new Promise((r) => setTimeout(r, 0));
    expect(written.length).toBe(3); // check 2 goes once the snapshot is done
    a.feed(new TextEncoder().encode("r3 0 5 \n"));
    await Promise.all([first, second]);
    expect([...order].sort()).toEqual(["check 1 answered", "check 2 answered", "snapshot"]);
    expect(order.indexOf("snapshot")).toBeLessThan(order.indexOf("check 2 answered"));
  });

  // The agent's own lines, run by this machine's bash (the guest's is Debian's too): what the
  // host writes is the script printf %b writes back, and what the agent prints reads back as
  // the output, byte for byte (but NUL, which a shell variable cannot hold)
  const agent = readFileSync(new URL("../../../../kernel-image/rootfs/overlay/usr/local/sbin/fslab-agent", import.meta.url), "utf8");
  const line = (re: RegExp) => agent.split("\n").find((l) => re.test(l))!.trim();
  const texts = fc.string({ unit: "binary", maxLength: 300 }).filter((t) => !t.includes("\0"));

  it("writes a script the agent's printf %b turns back into the same bytes", () => {
    expect(line(/printf '%b'/)).toBe(`printf '%b' "$script" > /run/fslab-agent.sh`);
    fc.assert(
      fc.property(texts, (text) => {
        const field = toPrintfB(text);
        expect(field).not.toMatch(/[\s]/);
        const back = execFileSync("bash", ["-c", `printf '%b' "$1"`, "-", field]);
        expect(back.toString("utf8")).toBe(text);
      }),
      { numRuns: 40 },
    );
  });

  it("reads back the output the agent escapes, with its spaces and line ends", () => {
    const escapes = agent.split("\n").filter((l) => /^\s*out=\$\{out\/\//.test(l)).map((l) => l.trim());
    expect(escapes).toHaveLength(3);
    fc.assert(
      fc.property(texts, (text) => {
        const field = execFileSync("bash", ["-c", `out="$1"; ${escapes.join("; ")}; printf '%s' "$out"`, "-", text]).toString("utf8");
        expect(field).not.toMatch(/[\n\r]/);
        expect(fromAgentOutput(field)).toBe(text);
      }),
      { numRuns: 40 },
    );
  });
});
