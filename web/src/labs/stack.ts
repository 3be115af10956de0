// The storage stack's layers and the difficulties live in shared/stack.ts (topic manifests
// name a playground's layer, and shared/ imports nothing from labs/); the lab format reads
// them from here as before.
export * from "../shared/stack";
