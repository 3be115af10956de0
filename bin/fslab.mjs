#!/usr/bin/env node
// fslab's command line: TypeScript sources run through tsx, so the CLI, the page and the
// tests share one implementation of the cores' API and the guest host.
import { register } from "tsx/esm/api";

register();
await import("./commands/main.ts");
