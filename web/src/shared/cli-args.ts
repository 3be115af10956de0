// Argument parsing every `fslab` command shares: sizes (4k, 1M), whole numbers in a range,
// non-negative numbers and comma lists, each with an error that names the option. A bad
// argument is a UsageError: the command line prints it with the command's usage and exits 2.

/** An argument the command cannot take (exit status 2, with the usage); `usage`: the command's own, when known. */
export class UsageError extends Error {
  constructor(message: string, readonly usage?: string) {
    super(message);
  }
}

/** A usage error: ours, or node:util parseArgs's (an unknown option, a missing value, a stray argument). */
export const isUsageError = (e: unknown): e is Error =>
  e instanceof UsageError || (e instanceof Error && String((e as NodeJS.ErrnoException).code ?? "").startsWith("ERR_PARSE_ARGS"));

/** SIZE: a number of bytes with an optional k, M or G (powers of 1024) */
export function size(s: string, what: string): number {
  const m = s.match(/^(\d+)([kKmMgG]?)$/);
  if (!m) throw new UsageError(`${what}: "${s}" is not a size (e.g. 4k, 1M)`);
  return Number(m[1]) * 1024 ** " kmg".indexOf((m[2] || " ").toLowerCase());
}

/** a whole number in min..max */
export function int(s: string, what: string, min: number, max: number): number {
  const n = Number(s);
  if (!Number.isInteger(n) || n < min || n > max) throw new UsageError(`${what}: "${s}" is not a whole number in ${min}..${max}`);
  return n;
}

/** a number >= 0 */
export function num(s: string, what: string): number {
  const n = Number(s);
  if (!Number.isFinite(n) || n < 0) throw new UsageError(`${what}: "${s}" is not a number >= 0`);
  return n;
}

/** a comma-separated list of whole numbers in min..max */
export function list(s: string, what: string, min: number, max: number): number[] {
  return s.split(",").map((x) => int(x.trim(), what, min, max));
}
