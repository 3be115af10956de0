// The saved machine (kernel-image/dist/state.bin.xz) travels as xz: LZMA2 over the whole 16 MB
// state makes 3.42 MB where zstd --ultra -22 made 3.75 MB. v86 restores zstd or plain bytes only,
// so the page and the Node host un-xz it here (xz-embedded, as WebAssembly, about 0.3 s) and give
// v86 the plain state. Shared by fetch-ahead.ts (the page) and node-vm.ts.
import xz from "xz-decompress";

/** The state's bytes un-xz'd from `compressed`, which must come to exactly `rawBytes` (state.json). */
export async function unxzState(compressed: ReadableStream<Uint8Array>, rawBytes: number): Promise<ArrayBuffer> {
  const out = new Uint8Array(rawBytes);
  let at = 0;
  const reader = (new xz.XzReadableStream(compressed) as ReadableStream<Uint8Array>).getReader();
  let finished = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        finished = true;
        break;
      }
      if (at + value.length > rawBytes) throw new Error(`it holds more than the ${rawBytes} bytes state.json says`);
      out.set(value, at);
      at += value.length;
    }
  } catch (e) {
    // xz-embedded's codes (its xz.h, enum xz_ret); a stream cut short may also end without one
    const code = Number(/error code (\d+)/.exec(String(e))?.[1]);
    const why =
      { 3: "out of memory", 4: "its dictionary is larger than the decoder allows", 5: "not an xz file", 6: "xz options this decoder lacks", 7: "damaged xz data", 8: "the file is cut short" }[code] ??
      (e instanceof Error ? e.message : String(e));
    throw new Error(`the saved machine could not be unpacked: ${why}`);
  } finally {
    // Left before the end (more bytes than the state has): the decoder is given back.
    // xz-decompress (0.2.3) runs one decoder at a time, and one not read to its end nor
    // cancelled held it for ever: every later unpacking in the page waited for it
    if (!finished) await reader.cancel().catch(() => undefined);
  }
  if (at !== rawBytes) throw new Error(`the saved machine could not be unpacked: ${at} of its ${rawBytes} bytes came`);
  return out.buffer;
}
