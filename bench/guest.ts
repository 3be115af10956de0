// The guest in Node for a topic's bench part (web/src/topics/<t>/bench.ts): topics import the
// bench harness, not vm/ (web/src/import-rules.test.ts), as their e2e tests boot it through
// e2e/guest.ts.
export { NodeVm } from "../web/src/vm/node/node-vm";
