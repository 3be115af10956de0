// The vfat-names image's recipe data (wasm/tests/images/vfat-names.img.gz), shared by
// wasm/tests/images/make-images.ts (which makes it in the guest) and the tests (which predict
// every entry with the model): names in creation order, and the mounts that created them, one
// directory each. It lives with the topic, which imports only shared/ and its own folder.
export const VFAT_NAMES = ["ＳＪＩＳ", "README.TXT", "readme.txt", "a long file name.html", "日本語.txt", "café.txt", "x[1].c", ".profile", "Mixed Case.Txt", "two.dots.tar.gz", "longname1.txt", "longname2.txt", "ﾃｽﾄ.TXT"];

export const VFAT_MOUNTS = [
  { dir: "u932", options: "utf8,codepage=932", io: "utf8", codepage: 932 },
  { dir: "u437", options: "utf8,codepage=437", io: "utf8", codepage: 437 },
  { dir: "l932", options: "iocharset=iso8859-1,codepage=932", io: "iso8859-1", codepage: 932 },
] as const;
