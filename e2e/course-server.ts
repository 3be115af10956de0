// The built site as an instructor may host it: web/dist copied under /course/ of python's
// http.server (no rewrite rules, no COOP/COEP headers), on a port of its own.
import { spawn } from "node:child_process";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const repo = new URL("..", import.meta.url).pathname;

export interface CourseSite {
  /** the site's address, ending in /course/ */
  url: string;
  close(): void;
}

export async function serveUnderCourse(): Promise<CourseSite> {
  const dir = mkdtempSync(join(tmpdir(), "fslab-site-"));
  cpSync(join(repo, "web/dist"), join(dir, "course"), { recursive: true });
  // its log of each request goes to stderr: left in a pipe nobody reads, it fills the pipe and
  // the server stops answering (the page's next load never ends)
  const server = spawn("python3", ["-m", "http.server", "0", "--bind", "127.0.0.1", "--directory", dir], { stdio: ["ignore", "pipe", "ignore"] });
  const url = await new Promise<string>((resolve, reject) => {
    server.stdout!.on("data", (d: Buffer) => {
      const m = String(d).match(/port (\d+)/);
      if (m) resolve(`http://127.0.0.1:${m[1]}/course/`);
    });
    server.on("exit", (c) => reject(new Error(`http.server exited ${c}`)));
  });
  return {
    url,
    close() {
      server.kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
