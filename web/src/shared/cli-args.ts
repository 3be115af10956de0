// Argument parsing every `fslab simulate` command shares: sizes (4k, 1M), whole numbers in a
// range, non-negative numbers and comma lists, each with an error that names the option.

/** SIZE: a number of bytes with an optional k, M or G (powers of 1024) */
export function size(s: string, what: string): number {
  const m = s.match(/^(\d+)([kKmMgG]?)$/);
  if (!m) throw new Error(`${what}: "${s}" is not a size (e.g. 4k, 1M)`);
  return Number(m[1]) * 1024 ** " kmg".indexOf((m[2] || " ").toLowerCase());
}

/** a whole number in min..max */
export function int(s: string, what: string, min: number, max: number): number {
  const n = Number(s);
  if (!Number.isInteger(n) || n < min || n > max) throw new Error(`${what}: "${s}" is not a whole number in ${min}..${max}`);
  return n;
}

/** a number >= 0 */
export function num(s: string, what: string): number {
  const n = Number(s);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${what}: "${s}" is not a number >= 0`);
  return n;
}

/** a comma-separated list of whole numbers in min..max */
export function list(s: string, what: string, min: number, max: number): number[] {
  return s.split(",").map((x) => int(x.trim(), what, min, max));
}
