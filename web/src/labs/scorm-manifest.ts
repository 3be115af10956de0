// The imsmanifest.xml of a SCORM package of labs (`fslab export scorm`, bin/commands/export-scorm.ts):
// SCORM 1.2 (the IMS Content Packaging 1.1.2 manifest with ADL's adlcp extensions) or SCORM 2004
// 4th Edition (IMS CP 1.1.4 with adlcp, and IMS Simple Sequencing for the mastery score). One
// organization; one item (a SCO) per lab, each launching the site's page at its lab with the
// version's query (`?scorm=1.2#/lab/<id>`, read by labs/scorm.ts), or the launch page of a
// package that loads the hosted site (`launch.html?lab=<id>`, scorm-launch.ts). The XML is built from
// escaped text only. Validated against the standards' schemas in scorm-manifest.test.ts.
import type { ScormVersion } from "./scorm";
import { MASTERY } from "./scorm";

export interface ManifestLab {
  id: string;
  title: string;
}

export interface ManifestInput {
  version: ScormVersion;
  /** the package's title (the course's, or its one lab's) */
  title: string;
  labs: readonly ManifestLab[];
  /** the page each item launches, relative to the package (index.html; launch.html for a package that loads a hosted site) */
  href: string;
  /** the package's files, relative paths with "/" */
  files: readonly string[];
  /** what each item adds to `href` to open its lab (default: the site's page at the lab, `?scorm=<version>#/lab/<id>`) */
  parameters?: (lab: string) => string;
}

const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&apos;");
/** an XML ID (xs:ID: a letter or _, then letters, digits, - _ .) from a lab's id */
const xmlId = (prefix: string, id: string) => `${prefix}-${id.replace(/[^A-Za-z0-9_.-]/g, "_")}`;

export function scormManifest(m: ManifestInput): string {
  if (!m.labs.length) throw new Error("a package needs at least one lab");
  const v12 = m.version === "1.2";
  const items = m.labs
    .map((l) => {
      const params = esc(m.parameters ? m.parameters(l.id) : `?scorm=${m.version}#/lab/${l.id}`);
      const mastery = v12
        ? `\n        <adlcp:masteryscore>${Math.round(MASTERY * 100)}</adlcp:masteryscore>`
        : `\n        <imsss:sequencing>
          <imsss:objectives>
            <imsss:primaryObjective objectiveID="${xmlId("pass", l.id)}" satisfiedByMeasure="true">
              <imsss:minNormalizedMeasure>${MASTERY}</imsss:minNormalizedMeasure>
            </imsss:primaryObjective>
          </imsss:objectives>
        </imsss:sequencing>`;
      return `      <item identifier="${xmlId("item", l.id)}" identifierref="site" isvisible="true" parameters="${params}">
        <title>${esc(l.title)}</title>${mastery}
      </item>`;
    })
    .join("\n");
  const files = m.files.map((f) => `      <file href="${esc(f)}"/>`).join("\n");
  const head = v12
    ? `<manifest identifier="${xmlId("fslab", m.labs.map((l) => l.id).join("-"))}" version="1"
  xmlns="http://www.imsproject.org/xsd/imscp_rootv1p1p2"
  xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2"
  xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
  xsi:schemaLocation="http://www.imsproject.org/xsd/imscp_rootv1p1p2 imscp_rootv1p1p2.xsd http://www.imsglobal.org/xsd/imsmd_rootv1p2p1 imsmd_rootv1p2p1.xsd http://www.adlnet.org/xsd/adlcp_rootv1p2 adlcp_rootv1p2.xsd">
  <metadata>
    <schema>ADL SCORM</schema>
    <schemaversion>1.2</schemaversion>
  </metadata>`
    : `<manifest identifier="${xmlId("fslab", m.labs.map((l) => l.id).join("-"))}" version="1"
  xmlns="http://www.imsglobal.org/xsd/imscp_v1p1"
  xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_v1p3"
  xmlns:adlseq="http://www.adlnet.org/xsd/adlseq_v1p3"
  xmlns:adlnav="http://www.adlnet.org/xsd/adlnav_v1p3"
  xmlns:imsss="http://www.imsglobal.org/xsd/imsss"
  xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
  xsi:schemaLocation="http://www.imsglobal.org/xsd/imscp_v1p1 imscp_v1p1.xsd http://www.adlnet.org/xsd/adlcp_v1p3 adlcp_v1p3.xsd http://www.adlnet.org/xsd/adlseq_v1p3 adlseq_v1p3.xsd http://www.adlnet.org/xsd/adlnav_v1p3 adlnav_v1p3.xsd http://www.imsglobal.org/xsd/imsss imsss_v1p0.xsd">
  <metadata>
    <schema>ADL SCORM</schema>
    <schemaversion>2004 4th Edition</schemaversion>
  </metadata>`;
  return `<?xml version="1.0" encoding="UTF-8"?>
${head}
  <organizations default="fslab">
    <organization identifier="fslab">
      <title>${esc(m.title)}</title>
${items}
    </organization>
  </organizations>
  <resources>
    <resource identifier="site" type="webcontent" ${v12 ? "adlcp:scormtype" : "adlcp:scormType"}="sco" href="${esc(m.href)}">
${files}
    </resource>
  </resources>
</manifest>
`;
}
