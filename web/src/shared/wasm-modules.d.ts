// Emscripten's ES6 factories (wasm/build/wasm/*.mjs, built by `make -C wasm wasm`).
declare module "@wasm/*.mjs" {
  const factory: (opts?: { wasmBinary?: ArrayBuffer | Uint8Array; locateFile?: (f: string) => string }) => Promise<any>;
  export default factory;
}
