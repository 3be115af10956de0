// The function_graph parser, against traces the guest kernel wrote while running the
// write-path lab's steps (traces/, captured with the lab's own `graph` helper), and
// against hand-made lines for the cases a real capture seldom shows.
import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { layerOf, parseFunctionGraph, pathTo, selfTimeByLayer, walk, type CallNode } from "./ftrace-graph";

const trace = (name: string) => gunzipSync(readFileSync(new URL(`./traces/write-path-${name}.trace.gz`, import.meta.url))).toString("utf8");
const names = (p: CallNode[] | null) => p?.map((n) => n.name.replace(/\..*$/, ""));
const tasksOf = (roots: CallNode[], name: string) => roots.filter((r) => r.name === name).map((r) => r.task.replace(/-\d+$/, ""));

describe("function_graph from the guest", () => {
  it("a buffered write stops in the page cache: no bio, no scheduler, no driver", () => {
    const g = parseFunctionGraph(trace("buffered"));
    expect(g.unparsed).toBe(0);
    expect(g.command).toMatch(/^dd .*conv=notrunc/);
    const dd = g.roots.filter((r) => r.task.startsWith("dd-"));
    expect(names(pathTo(dd, "generic_perform_write"))).toEqual(["vfs_write", "ext4_file_write_iter", "ext4_buffered_write_iter", "generic_perform_write"]);
    for (const f of ["submit_bio", "dd_insert_requests", "loop_queue_rq"]) expect(pathTo(g.roots, f)).toBeNull();
    // every call returned, so every duration is known, and each parent outlasts its children;
    // but where an interrupt came in (irqs untraced, funcgraph-irqs 0), the functions around its
    // entry and exit (irq_enter_rcu, the hrtimer's rearm) are traced as the call's children
    // while its duration leaves the interrupt's time out
    for (const r of dd)
      for (const n of walk(r)) {
        expect(n.durationUs).not.toBeNull();
        if (n.children.some((c) => c.name === "irq_enter_rcu")) continue;
        const kids = n.children.reduce((s, c) => s + c.durationUs!, 0);
        expect(kids).toBeLessThanOrEqual(n.durationUs! + 0.01 * n.children.length);
      }
  });

  it("sync: the flusher's wb_workfn submits the bio, flushes its plug into mq-deadline and dispatches to loop", () => {
    const g = parseFunctionGraph(trace("sync"));
    expect(tasksOf(g.roots, "wb_workfn")).toContain("kworker");
    const toBio = names(pathTo(g.roots, "submit_bio"))!;
    expect(toBio.slice(0, 2)).toEqual(["wb_workfn", "wb_writeback"]);
    expect(toBio).toEqual(expect.arrayContaining(["writeback_sb_inodes", "do_writepages", "ext4_writepages"]));
    expect(names(pathTo(g.roots, "loop_queue_rq"))).toEqual(expect.arrayContaining(["blk_finish_plug", "blk_mq_run_hw_queue", "blk_mq_dispatch_rq_list"]));
    const dispatch = names(pathTo(g.roots, "dd_dispatch_request"))!;
    expect(dispatch.indexOf("blk_finish_plug")).toBeLessThan(dispatch.indexOf("blk_mq_run_hw_queue"));
    expect(tasksOf(g.roots, "jbd2_journal_commit_transaction")).toEqual(["jbd2/lo"]);
  });

  it("fsync: the writer itself writes back, under do_fsync, and the loop worker completes the request", () => {
    const g = parseFunctionGraph(trace("fsync"));
    const dd = g.roots.filter((r) => r.task.startsWith("dd-"));
    expect(names(pathTo(dd, "submit_bio"))!.slice(0, 3)).toEqual(["do_fsync", "ext4_sync_file", "file_write_and_wait_range"]);
    expect(pathTo(dd, "dd_dispatch_request")).not.toBeNull();
    const done = pathTo(g.roots, "blk_mq_complete_request")!;
    expect(done[0].task).toMatch(/^kworker/);
    expect(done[0].name).toBe("loop_process_work");
  });

  it("O_DIRECT: vfs_write reaches submit_bio through iomap, no page-cache copy on the way", () => {
    const g = parseFunctionGraph(trace("direct"));
    const dd = g.roots.filter((r) => r.task.startsWith("dd-"));
    expect(names(pathTo(dd, "submit_bio"))!.slice(0, 3)).toEqual(["vfs_write", "ext4_file_write_iter", "iomap_dio_rw"]);
    expect(pathTo(dd, "generic_perform_write")).toBeNull();
    const self = selfTimeByLayer(dd);
    expect(self.get("blk-mq")!).toBeGreaterThan(0);
    expect(self.get("scheduler")!).toBeGreaterThan(0);
    expect(self.get("driver")!).toBeGreaterThan(0);
  });
});

describe("function_graph, hand-made lines", () => {
  const head = "# tracer: function_graph\n";
  const l = (t: string, task: string, dur: string, fn: string) => ` ${t} |   0)   ${task}   | ${dur.padStart(12)}  |  ${fn}`;

  it("keeps a stack per task, so a writer asleep inside a call and a worker running meanwhile both nest right", () => {
    const g = parseFunctionGraph(
      head +
        [
          l("1.000001", "dd-7", "", "do_fsync() {"),
          l("1.000002", "dd-7", "", "  schedule() {"),
          " ------------------------------------------",
          " 0)    dd-7     =>   kworker-2  ",
          l("1.000003", "kworker-2", "", "loop_process_work() {"),
          l("1.000004", "kworker-2", "2.000 us", "  lo_complete_rq();"),
          l("1.000005", "kworker-2", "+ 12.500 us", "} /* loop_process_work */"),
          l("1.000006", "dd-7", "! 150.250 us", "  } /* schedule */"),
          l("1.000007", "dd-7", "# 1500.000 us", "} /* do_fsync */"),
        ].join("\n"),
    );
    expect(g.roots.map((r) => `${r.task} ${r.name} ${r.durationUs}`)).toEqual(["dd-7 do_fsync 1500", "kworker-2 loop_process_work 12.5"]);
    expect(g.roots[0].children[0].durationUs).toBe(150.25);
    expect(g.roots[1].children[0]).toMatchObject({ name: "lo_complete_rq", layer: "driver", durationUs: 2, start: 1.000004 });
  });

  it("a return whose call began before the trace adopts the calls before it; a call still running has no duration", () => {
    const g = parseFunctionGraph(
      head +
        [
          l("2.0", "dd-7", "1.000 us", "  mutex_lock();"),
          l("2.1", "dd-7", "3.000 us", "} /* vfs_write */"),
          l("2.2", "dd-7", "", "vfs_write() {"),
          l("2.3", "dd-7", "1.000 us", "  rw_verify_area();"),
        ].join("\n"),
    );
    expect(g.roots).toHaveLength(2);
    expect(g.roots[0]).toMatchObject({ name: "vfs_write", partial: true, durationUs: 3 });
    expect(g.roots[0].children.map((c) => c.name)).toEqual(["mutex_lock"]);
    expect(g.roots[1]).toMatchObject({ name: "vfs_write", partial: false, durationUs: null });
  });

  it("reads a module's functions, named with their module as the tracer prints them", () => {
    const g = parseFunctionGraph(
      [
        "# tracer: function_graph",
        "   12.5 |   0)     dd-89      |               |  vfs_write() {",
        "   12.5 |   0)     dd-89      |               |    ext4_buffered_write_iter [ext4]() {",
        "   12.5 |   0)     dd-89      |   3.1 us      |      ext4_da_write_begin [ext4]();",
        "   12.5 |   0)     dd-89      | + 24.8 us     |    } /* ext4_buffered_write_iter [ext4] */",
        "   12.5 |   0)     dd-89      | + 30.0 us     |  } /* vfs_write */",
      ].join("\n"),
    );
    expect(g.unparsed).toBe(0);
    const [w] = g.roots;
    expect(w.module).toBeUndefined();
    expect(w.children.map((c) => [c.name, c.module, c.layer, c.durationUs])).toEqual([["ext4_buffered_write_iter", "ext4", "fs", 24.8]]);
    expect(w.children[0].children.map((c) => [c.name, c.module])).toEqual([["ext4_da_write_begin", "ext4"]]);
    // the guest's own: ext4 and jbd2 are modules there
    const sync = parseFunctionGraph(trace("sync"));
    expect(sync.unparsed).toBe(0);
    expect(pathTo(sync.roots, "ext4_writepages")!.at(-1)!.module).toBe("ext4");
  });

  it("reads the default format too (no abstime, no proc, no tail)", () => {
    const g = parseFunctionGraph(head + [" 0)               |  vfs_write() {", " 0)   1.500 us    |    rw_verify_area();", " 0) + 20.100 us   |  }"].join("\n"));
    expect(g.roots[0]).toMatchObject({ name: "vfs_write", durationUs: 20.1, task: "?" });
    expect(Number.isNaN(g.roots[0].start)).toBe(true);
  });

  it("refuses text that is not function_graph output, and counts lines it cannot read", () => {
    expect(() => parseFunctionGraph("hello\nworld\n")).toThrow(/not function_graph output/);
    expect(parseFunctionGraph(head + "garbage line\n").unparsed).toBe(1);
  });

  it("puts helpers in their caller's layer and kernel names in theirs", () => {
    expect(layerOf("dd_dispatch_request")).toBe("scheduler");
    expect(layerOf("lo_rw_aio.isra.0")).toBe("driver");
    expect(layerOf("ext4_da_write_begin")).toBe("fs");
    expect(layerOf("mutex_lock", "fs")).toBe("fs");
    expect(layerOf("mutex_lock")).toBe("other");
  });
});

describe("the write-path playground's question", () => {
  it("the writer's own calls reach the page cache when buffered, the driver with fsync, O_DIRECT, and the flusher's sync", async () => {
    const { deepestLayer } = await import("./PlayWritePath");
    expect(deepestLayer(parseFunctionGraph(trace("buffered")), "dd")).toBe("page cache");
    expect(deepestLayer(parseFunctionGraph(trace("fsync")), "dd")).toBe("driver");
    expect(deepestLayer(parseFunctionGraph(trace("direct")), "dd")).toBe("driver");
    expect(deepestLayer(parseFunctionGraph(trace("sync")), "kworker")).toBe("driver");
  });
});
