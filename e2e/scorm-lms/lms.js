// The stand-in LMS's page (lms.html): ?v=1.2|2004&learner=ID&lab=LAB[&suspend=TEXT][&launcher=1][&frame=1],
// the learner, what the LMS kept of their last attempt, whether the package is a --base one, and
// whether the SCO opens in a frame of this page (else in a window of its own). Each commit's CMI is kept in window.lmsKept.
/* global Scorm12API, Scorm2004API */
const q = new URLSearchParams(location.search);
const v = q.get("v");
const learner = q.get("learner");
const suspend = q.get("suspend") || "";
window.lmsCommits = 0;
window.lmsKept = null;
const api = v === "1.2" ? new Scorm12API({ logLevel: 5 }) : new Scorm2004API({ logLevel: 5 });
if (v === "1.2") api.loadFromJSON({ core: { student_id: learner, student_name: "Learner, Test", entry: suspend ? "resume" : "ab-initio" }, suspend_data: suspend });
else api.loadFromJSON({ learner_id: learner, learner_name: "Test Learner", entry: suspend ? "resume" : "ab-initio", suspend_data: suspend });
if (v === "1.2") window.API = api;
else window.API_1484_11 = api;
api.on(v === "1.2" ? "LMSCommit" : "Commit", () => {
  window.lmsCommits++;
  window.lmsKept = JSON.parse(api.renderCMIToJSONString());
});
api.on(v === "1.2" ? "LMSFinish" : "Terminate", () => {
  window.lmsFinished = true;
});
addEventListener("DOMContentLoaded", () => {
  // the package's launch: the site inside it, or (a --base package) its launch page
  const entry = q.get("launcher") ? `pkg/launch.html?lab=${q.get("lab")}` : `pkg/index.html?scorm=${v}#/lab/${q.get("lab")}`;
  document.getElementById("launch").onclick = () => {
    // in the LMS's own page (a frame: Moodle's "current window"), or a window of its own
    if (!q.get("frame")) return window.open(entry, "sco");
    const frame = document.createElement("iframe");
    frame.src = entry;
    frame.style.cssText = "width: 100%; height: 900px; border: 0";
    document.body.append(frame);
  };
});
