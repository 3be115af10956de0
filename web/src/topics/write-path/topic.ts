// The write path from write() to the driver, from function_graph traces of our kernel. No C
// core: the traces are parsed in TypeScript (ftrace-graph.ts); lab write-path.
import { defineTopic } from "../../shared/topic";
import { WRITE_PATH_PARAMS } from "./params";

export default defineTopic({
  id: "write-path",
  title: "The write path",
  playgrounds: [
    {
      route: "write-path",
      layer: "syscall",
      title: "The write path: how far down does the writer go?",
      blurb: "Call trees our kernel recorded for a buffered write, fsync, O_DIRECT and sync; predict the deepest layer, then open the tree.",
      params: WRITE_PATH_PARAMS,
      widest: ["Reveal without predicting"],
      load: () => import("./PlayWritePath").then((m) => m.PlayWritePath),
    },
  ],
  views: [{ id: "write-path", title: "the call tree of `/mnt/host/write-path.trace` (function_graph output), or of a trace recorded on our kernel", params: {}, widest: ["buffered write"], load: () => import("./lab-views").then((m) => m.WritePathLab) }],
  cli: [],
});
