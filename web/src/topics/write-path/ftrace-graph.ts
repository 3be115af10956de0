// The kernel's function_graph tracer output (/sys/kernel/tracing/trace with the options
// funcgraph-proc, -abstime and -tail; the others optional) as call trees, one forest per
// task. Lines look like
//     8.635608 |   0)     dd-72      |               |  vfs_write() {
//     8.635700 |   0)     dd-72      |   9.230 us    |    rw_verify_area();
//     8.650362 |   0)     dd-72      | + 14.754 us   |  } /* vfs_write */
// A task can sleep inside a call while another runs (the writer waits for the loop worker),
// so each task keeps its own stack of open calls.

export type Layer = "vfs" | "fs" | "page cache" | "writeback" | "blk-mq" | "scheduler" | "driver" | "other";

/** The write path's layers, top down, in the order a write crosses them. */
export const LAYERS: Layer[] = ["vfs", "fs", "page cache", "writeback", "blk-mq", "scheduler", "driver", "other"];

// First match wins; names are the kernel's, with compiler suffixes (.isra.0, .constprop.0) cut.
const LAYER_RULES: Array<[Layer, RegExp]> = [
  ["driver", /^(loop_|lo_|virtblk_|virtio_queue_rq|ata_|scsi_|null_)/],
  ["scheduler", /^(dd_|deadline_|kyber_|bfq_|elv_|__elv_|blk_mq_sched_)/],
  ["writeback", /^(wb_|writeback_|__writeback|do_writepages|filemap_fdatawrite|__filemap_fdatawrite|file_write_and_wait|filemap_write_and_wait|file_check_and_advance_wb_err|balance_dirty|folio_clear_dirty_for_io|__folio_start_writeback|folio_end_writeback|write_cache_pages|writeback_iter|folio_wait_writeback)/],
  ["blk-mq", /^(blk_|__blk_|bio_|__bio_|submit_bio|__submit_bio|submit_bh)/],
  ["fs", /^(ext4_|__ext4_|jbd2_|__jbd2_|exfat_|__exfat_|f2fs_|__f2fs_|fat_|vfat_|iomap_|__iomap_|mpage_|block_write_|__block_write_|block_commit_write|create_empty_buffers|mark_buffer_dirty|__mark_inode_dirty|generic_write_end)/],
  ["page cache", /^(filemap_|__filemap_|folio_|__folio_|pagecache_|page_cache_|generic_perform_write|copy_page_from_iter|copy_folio_from_iter)/],
  ["vfs", /^(vfs_|ksys_|__ia32_sys_|__x64_sys_|do_fsync|rw_verify_area|file_modified|file_update_time|file_remove_privs|generic_write_checks|generic_file_write_iter|__generic_file_write_iter|kiocb_)/],
];

/**
 * The layer a function belongs to by its name; a helper with no layer of its own (a lock, an
 * allocation, the loop device's tmpfs backing file) works for its caller's layer.
 */
export function layerOf(name: string, caller: Layer = "other"): Layer {
  const base = name.replace(/\..*$/, "");
  for (const [layer, re] of LAYER_RULES) if (re.test(base)) return layer;
  return caller;
}

export interface CallNode {
  name: string;
  layer: Layer;
  task: string; // "dd-72"
  cpu: number;
  /** seconds since boot when the call began (abstime), or NaN without funcgraph-abstime */
  start: number;
  /** microseconds, or null when the call had not returned when tracing stopped */
  durationUs: number | null;
  children: CallNode[];
  /** the trace began inside this call: its entry line is missing */
  partial: boolean;
  /** the module the function is in, as the tracer names it ("ext4" for `ext4_da_write_begin [ext4]()`); none for the kernel's own */
  module?: string;
}

export interface CallGraph {
  /** top-level calls of every task, in trace order */
  roots: CallNode[];
  calls: number;
  /** what was traced, from a "# command: …" line (the lab's `graph` helper writes one) */
  command: string | null;
  /** lines that looked like neither a call, a return, a comment nor a header */
  unparsed: number;
}

const LINE = /^\s*(?:([\d.]+)\s*\|)?\s*(\d+)\)\s*(?:(\S.*?)\s*\|)?\s*([+!#*@$]?)\s*([\d.]+)?\s*(?:us)?\s*\|(\s*)(.*?)\s*$/;
// a function in a module is printed with the module's name: `ext4_da_write_begin [ext4]() {`,
// `} /* ext4_da_write_begin [ext4] */` (ext4, jbd2 and F2FS are modules in fslab's guest)
const OPEN = /^([\w.$]+)(?: \[([\w-]+)\])?\(\)\s*\{$/;
const LEAF = /^([\w.$]+)(?: \[([\w-]+)\])?\(\);$/;
const CLOSE = /^\}(?:\s*\/\*\s*([\w.$]+)(?: \[[\w-]+\])?\s*\*\/)?$/;

/** Parse function_graph text. Throws if nothing in it is function_graph output. */
export function parseFunctionGraph(text: string): CallGraph {
  const stacks = new Map<string, CallNode[]>();
  const roots: CallNode[] = [];
  let calls = 0;
  let unparsed = 0;
  let sawHeader = false;
  let command: string | null = null;

  for (const raw of text.split("\n")) {
    const line = raw.replace(/\r$/, "");
    if (!line.trim()) continue;
    if (line.startsWith("#")) {
      if (/tracer: function_graph/.test(line)) sawHeader = true;
      const c = line.match(/^# command: (.*)$/);
      if (c) command = c[1];
      continue;
    }
    // context-switch banners: " ------", " 0)    bash-61     =>   kworker-20  "
    if (/^\s*-{6,}\s*$/.test(line) || /=>/.test(line)) continue;
    const m = line.match(LINE);
    if (!m) {
      unparsed++;
      continue;
    }
    const [, abstime, cpu, task = "?", , dur, , what] = m;
    if (what.startsWith("/*")) continue; // an event or trace_printk, not a call
    const key = `${cpu}:${task}`;
    let stack = stacks.get(key);
    if (!stack) stacks.set(key, (stack = []));
    const node = (name: string, durationUs: number | null, module?: string): CallNode => ({
      name,
      ...(module ? { module } : {}),
      layer: layerOf(name, stack!.at(-1)?.layer),
      task,
      cpu: +cpu,
      start: abstime === undefined ? NaN : +abstime,
      durationUs,
      children: [],
      partial: false,
    });
    const attach = (n: CallNode) => {
      if (stack!.length) stack!.at(-1)!.children.push(n);
      else roots.push(n);
      calls++;
    };
    let f: RegExpMatchArray | null;
    if ((f = what.match(OPEN))) {
      const n = node(f[1], null, f[2]);
      attach(n);
      stack.push(n);
    } else if ((f = what.match(LEAF))) {
      attach(node(f[1], dur === undefined ? null : +dur, f[2]));
    } else if ((f = what.match(CLOSE))) {
      const name = f[1];
      const d = dur === undefined ? null : +dur;
      const open = stack.pop();
      if (open && (!name || open.name === name)) {
        open.durationUs = d;
      } else {
        // A return whose entry was before the trace began: the calls seen so far at this
        // level were its children.
        if (open) stack.push(open);
        const n = node(name ?? "?", d);
        n.partial = true;
        const siblings = stack.length ? stack.at(-1)!.children : roots;
        const mine = siblings.filter((s) => s.task === task && s.cpu === +cpu);
        n.children = mine;
        const rest = siblings.filter((s) => !mine.includes(s));
        siblings.length = 0;
        siblings.push(...rest, n);
        calls++;
      }
    } else {
      unparsed++;
    }
  }
  if (!sawHeader && calls === 0) throw new Error("not function_graph output: no '# tracer: function_graph' header and no calls");
  return { roots, calls, command, unparsed };
}

/** Every node below (and including) n, depth first. */
export function* walk(n: CallNode): Generator<CallNode> {
  yield n;
  for (const c of n.children) yield* walk(c);
}

/** The chain of calls from a root down to the first call named `name`, or null. */
export function pathTo(roots: CallNode[], name: string): CallNode[] | null {
  const find = (n: CallNode, path: CallNode[]): CallNode[] | null => {
    const here = [...path, n];
    if (n.name.replace(/\..*$/, "") === name) return here;
    for (const c of n.children) {
      const p = find(c, here);
      if (p) return p;
    }
    return null;
  };
  for (const r of roots) {
    const p = find(r, []);
    if (p) return p;
  }
  return null;
}

/** Time spent in each layer's own code (a call's duration less its children's). */
export function selfTimeByLayer(roots: CallNode[]): Map<Layer, number> {
  const out = new Map<Layer, number>(LAYERS.map((l) => [l, 0]));
  for (const r of roots)
    for (const n of walk(r)) {
      if (n.durationUs === null) continue;
      const kids = n.children.reduce((s, c) => s + (c.durationUs ?? 0), 0);
      out.set(n.layer, out.get(n.layer)! + Math.max(0, n.durationUs - kids));
    }
  return out;
}
