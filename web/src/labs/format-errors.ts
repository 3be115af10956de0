// A lab file's errors as their messages ("lab.md:12: ..."), or none: what the format's tests
// hold parseLab and its parts to (a throw of anything but a LabFormatError is thrown on).
import { LabFormatError } from "./lab-format";

export function formatErrors(read: () => unknown): string[] {
  try {
    read();
  } catch (e) {
    if (e instanceof LabFormatError) return e.errors.map((x) => x.message);
    throw e;
  }
  return [];
}
