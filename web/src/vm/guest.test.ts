import { describe, expect, it } from "vitest";
import { BootWatcher } from "./guest";

describe("BootWatcher", () => {
  it("follows a boot from kernel to prompt, across chunk boundaries", () => {
    const w = new BootWatcher();
    expect(w.feed("[    0.000000] Linux version 7.2.13\r\n")).toBeNull();
    expect(w.feed("fslab: init do")).toBeNull();
    expect(w.feed("ne, 7.2.13\r\n")).toBe("userland");
    expect(w.feed("\x1b[?2004hfslab:~")).toBeNull();
    expect(w.feed("# ")).toBe("ready");
    expect(w.phase).toBe("ready");
  });

  it("reports a panic with the kernel's own line", () => {
    const w = new BootWatcher();
    w.feed("[    1.2] Kernel panic - not syncing: No working init found.\r\n");
    expect(w.phase).toBe("failed");
    expect(w.failure).toBe("The guest kernel panicked: Kernel panic - not syncing: No working init found.");
  });

  it("does not take a prompt-like string mid-line for the prompt", () => {
    const w = new BootWatcher();
    w.feed("echo fslab:~# and more\r\n");
    expect(w.phase).toBe("booting");
  });
});
