// Bytes that may be gzip (a recorded trace, a test image), unpacked with the browser's own
// DecompressionStream; a server may already have undone the gzip, so plain bytes pass through.
export async function gunzipMaybe(bytes: Uint8Array): Promise<Uint8Array> {
  if (bytes[0] !== 0x1f || bytes[1] !== 0x8b) return bytes;
  const stream = new Blob([bytes as BlobPart]).stream().pipeThrough(new DecompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

export async function fetchBytes(url: string): Promise<Uint8Array> {
  const r = await fetch(url);
  if (!r.ok) throw new Error(`${url}: HTTP ${r.status}`);
  return gunzipMaybe(new Uint8Array(await r.arrayBuffer()));
}
