// A 32-bit hash of a string: a learner's seed values are drawn with it (labs/seed.ts), and the
// course's cards name the lab text they were made from with it (labs/course-cards.ts).

/** FNV-1a over a string's UTF-16 code units, then murmur3's finalizer for a good spread. */
export function hash32(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}
