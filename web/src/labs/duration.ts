// A duration as a lab's frontmatter states it (`time:`, `walk:`, `think:`), read by the lab
// format and by the time rule (lab-time.ts) alike.

/**
 * A duration in the frontmatter, in seconds: a number (minutes), or a text "25 s", "1.7 min",
 * "about 35 min", "1 h". Null when it states none.
 */
export function durationSeconds(v: unknown): number | null {
  if (typeof v === "number") return v > 0 ? v * 60 : null;
  if (typeof v !== "string") return null;
  const m = v.trim().match(/^(?:about\s+)?(\d+(?:\.\d+)?)\s*(s|sec|seconds?|min|minutes?|h|hours?)$/i);
  if (!m) return null;
  const n = Number(m[1]);
  const unit = m[2].toLowerCase();
  return unit.startsWith("s") ? n : unit.startsWith("m") ? n * 60 : n * 3600;
}
