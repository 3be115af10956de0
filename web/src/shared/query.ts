// Playground parameters from the link's query: a value outside its range or options falls
// back to the default, so a hand-edited link still opens a valid scenario.

/** a whole number in lo..hi, or dflt */
export function intParam(v: string | null, lo: number, hi: number, dflt: number): number {
  const n = Number(v);
  return v !== null && Number.isInteger(n) && n >= lo && n <= hi ? n : dflt;
}

/** one of the options, or dflt */
export const oneOf = <T extends string>(v: string | null, options: readonly T[], dflt: T): T => (options.includes(v as T) ? (v as T) : dflt);
