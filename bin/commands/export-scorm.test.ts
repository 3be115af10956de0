// fslab export scorm against a built site that is older than the lab it packages: the package
// would hold the site's copy, so an edit since the build is refused, with the file that differs.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { unzipSync } from "fflate";
import { exportScorm, labDiffers } from "./export-scorm";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "fslab-scorm-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const LAB = "---\nid: one\ntitle: \"Lab one\"\n---\n\n## Make it\n\n```vm\ntouch /tmp/made\n```\n\n```check\ntest -e /tmp/made\n```\n";

/** a lab folder and a built site holding a copy of it (index.html, labs/<id>/) */
function setUp(): { labs: string; site: string } {
  const labs = join(dir, "labs");
  const site = join(dir, "site");
  mkdirSync(join(labs, "one", "files"), { recursive: true });
  writeFileSync(join(labs, "one", "lab.md"), LAB);
  writeFileSync(join(labs, "one", "files", "prep.sh"), "echo prep\n");
  mkdirSync(join(site, "labs"), { recursive: true });
  writeFileSync(join(site, "index.html"), "<!doctype html><title>fslab</title>");
  cpSync(join(labs, "one"), join(site, "labs", "one"), { recursive: true });
  return { labs, site };
}

describe("labDiffers", () => {
  it("finds no difference in a copy, and the first file that differs, is missing or is extra", () => {
    const { labs, site } = setUp();
    const [a, b] = [join(labs, "one"), join(site, "labs", "one")];
    expect(labDiffers(a, b)).toBeNull();
    writeFileSync(join(a, "lab.md"), LAB.replace("Lab one", "Lab one, edited"));
    expect(labDiffers(a, b)).toBe("lab.md");
    cpSync(join(a, "lab.md"), join(b, "lab.md"));
    writeFileSync(join(a, "files", "new.sh"), "true\n");
    expect(labDiffers(a, b)).toBe("files/new.sh");
    rmSync(join(a, "files", "new.sh"));
    rmSync(join(a, "files", "prep.sh"));
    expect(labDiffers(a, b)).toBe("files/prep.sh");
    // what the build does not copy (a folder other than files/) is not compared
    cpSync(join(b, "files", "prep.sh"), join(a, "files", "prep.sh"));
    mkdirSync(join(a, "notes"));
    writeFileSync(join(a, "notes", "todo.txt"), "later\n");
    expect(labDiffers(a, b)).toBeNull();
  });
});

describe("fslab export scorm", () => {
  it("packages a lab as the built site has it, and refuses one edited since the build", async () => {
    const { labs, site } = setUp();
    const zip = join(dir, "out.zip");
    expect(await exportScorm(["one", "--labs", labs, "--site", site, "--out", zip])).toBe(0);
    const files = unzipSync(new Uint8Array(readFileSync(zip)));
    expect(new TextDecoder().decode(files["labs/one/lab.md"])).toBe(LAB);
    expect(Object.keys(files)).toContain("imsmanifest.xml");

    writeFileSync(join(labs, "one", "lab.md"), LAB.replace("touch /tmp/made", "touch /tmp/made2"));
    await expect(exportScorm(["one", "--labs", labs, "--site", site, "--out", join(dir, "again.zip")])).rejects.toThrow(
      /labs\/one\/lab\.md is not as the built site has it \(.*site\/labs\/one\/lab\.md\): build the site again \(npm run build\)/,
    );
  });
});
