// The launch page of a SCORM package that loads its lab from the instructor's hosted site
// (`fslab export scorm --base URL`): the package holds only this page, its script and the
// manifest; the page, served by the LMS, finds the LMS's API (as scorm.ts does), opens the
// hosted lab in a frame, and carries the session over messages (the frame is another origin,
// which may not reach the API itself):
//
//   lab -> launcher   {fslab: "scorm", type: "hello"}
//   launcher -> lab   {fslab: "scorm", type: "start", version, learnerId, learnerName, suspend} | {type: "no-lms", reason}
//   lab -> launcher   {fslab: "scorm", type: "report", values: [[element, value], ...]}   (set each, then commit)
//   launcher -> lab   {fslab: "scorm", type: "reported", error?}
//   lab -> launcher   {fslab: "scorm", type: "finish"}
//
// The launcher takes messages only from its frame and the hosted site's origin, and sets only
// the data model elements a lab reports (REPORTED); the lab takes them only from its parent,
// and pins the origin of the first "start" (scorm.ts BridgeChannel).
import type { ScormVersion } from "./scorm";

/** the data model elements a lab reports: the launcher sets these and nothing else */
export const REPORTED = /^cmi\.(suspend_data|location|exit|session_time|score\.(raw|min|max|scaled)|completion_status|success_status|core\.(lesson_location|lesson_status|exit|session_time|score\.(raw|min|max))|interactions\.\d{1,3}\.(id|type|description|result|student_response|learner_response|correct_responses\.0\.pattern))$/;

export interface LaunchConfig {
  version: ScormVersion;
  /** the hosted site's address (its index.html's folder), ending in / */
  base: string;
}

/** launch.html: no inline script (an LMS's own Content-Security-Policy may forbid it) */
export function launchHtml(title: string): string {
  const esc = title.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>${esc}</title>
    <style>html, body, iframe { margin: 0; width: 100%; height: 100%; border: 0; } p { font: 16px sans-serif; margin: 1em; }</style>
    <script src="launch.js" defer></script>
  </head>
  <body>
    <p id="status">Opening the lab…</p>
  </body>
</html>
`;
}

/** launch.js, the launcher's script, with this package's version and site */
export function launchScript(c: LaunchConfig): string {
  return `// fslab's SCORM launcher (web/src/labs/scorm-launch.ts): the LMS's API here, the lab from ${c.base}
"use strict";
(function () {
  var VERSION = ${JSON.stringify(c.version)};
  var BASE = ${JSON.stringify(c.base)};
  var ORIGIN = new URL(BASE).origin;
  var REPORTED = ${REPORTED.toString()};
  var v12 = VERSION === "1.2";
  var status = document.getElementById("status");
  var lab = new URLSearchParams(location.search).get("lab") || "";
  if (!/^[a-z0-9][a-z0-9-]*$/.test(lab)) { status.textContent = "This package names no lab to open."; return; }
  function findApi(win) {
    var name = v12 ? "API" : "API_1484_11";
    function up(w) {
      for (var tries = 0; w && tries <= 7; tries++) {
        try { if (w[name] && typeof w[name] === "object") return w[name]; } catch (e) {}
        if (w.parent === w) break;
        w = w.parent;
      }
      return null;
    }
    var opener = null;
    try { opener = win.opener; } catch (e) {}
    return up(win) || up(opener);
  }
  var api = findApi(window);
  var open = false;
  function call(n12, n2004) {
    var args = Array.prototype.slice.call(arguments, 2);
    return String(api[v12 ? n12 : n2004].apply(api, args));
  }
  function lastError() {
    var code = call("LMSGetLastError", "GetLastError");
    return code + ": " + call("LMSGetErrorString", "GetErrorString", code);
  }
  var start;
  if (!api) start = { type: "no-lms", reason: "no SCORM " + VERSION + " API in the windows around this package" };
  else if (call("LMSInitialize", "Initialize", "") !== "true") start = { type: "no-lms", reason: "the LMS refused to start a session (" + lastError() + ")" };
  else {
    open = true;
    start = {
      type: "start",
      version: VERSION,
      learnerId: call("LMSGetValue", "GetValue", v12 ? "cmi.core.student_id" : "cmi.learner_id"),
      learnerName: call("LMSGetValue", "GetValue", v12 ? "cmi.core.student_name" : "cmi.learner_name"),
      suspend: call("LMSGetValue", "GetValue", "cmi.suspend_data"),
    };
  }
  var frame = document.createElement("iframe");
  frame.title = "The lab";
  frame.allow = "cross-origin-isolated";
  frame.src = BASE + "index.html?scorm=bridge#/lab/" + lab;
  status.replaceWith(frame);
  function send(m) { m.fslab = "scorm"; frame.contentWindow.postMessage(m, ORIGIN); }
  function finish() {
    if (!open) return;
    open = false;
    try { call("LMSFinish", "Terminate", ""); } catch (e) {}
  }
  window.addEventListener("message", function (e) {
    if (e.origin !== ORIGIN || e.source !== frame.contentWindow) return;
    var m = e.data;
    if (!m || m.fslab !== "scorm") return;
    if (m.type === "hello") return send(start);
    if (m.type === "finish") return finish();
    if (m.type !== "report" || !open || !Array.isArray(m.values) || m.values.length > 400) return;
    var error = null;
    for (var i = 0; i < m.values.length && !error; i++) {
      var kv = m.values[i];
      if (!Array.isArray(kv) || typeof kv[0] !== "string" || typeof kv[1] !== "string" || !REPORTED.test(kv[0]) || kv[1].length > 64000) error = "a value the lab may not set";
      else if (call("LMSSetValue", "SetValue", kv[0], kv[1]) !== "true") error = "the LMS refused " + kv[0] + " (" + lastError() + ")";
    }
    if (!error && call("LMSCommit", "Commit", "") !== "true") error = "the LMS refused to keep the progress (" + lastError() + ")";
    send({ type: "reported", error: error });
  });
  window.addEventListener("pagehide", finish);
})();
`;
}
