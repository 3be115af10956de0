#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# A wasm module's surface, from its C: every non-static fx_* function defined in the module's
# src/<core>/exports.c (and fx_malloc/fx_free from src/common/alloc.c). Run by the Makefile's
# wasm rule, twice per module:
#
#   gen-dts.py exports FILE.c...                   the list for emcc's -sEXPORTED_FUNCTIONS
#   gen-dts.py dts MODULE MODULE.mjs OUT FILE.c... the TypeScript declarations of MODULE.mjs
#                                                  (written to OUT, a .d.mts beside the .mjs)
#
# The declarations give each function as emcc exports it (a leading _), typed from its C
# prototype: in wasm32 pointers, integers and doubles all cross as JS numbers; void returns
# void. Types that do not cross as one number (64-bit integers without WASM_BIGINT, structs by
# value, function pointers) are refused, so the C side cannot export what TypeScript would
# call wrongly. The heap views are those the built .mjs puts on the module, and every function
# declared must be exported by it: the .d.mts never promises more than the .mjs has.
import re
import sys

NUMBER_TYPES = {
    "int", "unsigned", "signed", "short", "long", "char", "float", "double", "_Bool", "bool",
    "size_t", "ssize_t", "ptrdiff_t", "intptr_t", "uintptr_t",
    "int8_t", "uint8_t", "int16_t", "uint16_t", "int32_t", "uint32_t",
}
REFUSED_TYPES = {"int64_t", "uint64_t", "off_t", "time_t"}  # two i32s (or a BigInt) in JS, not one number
QUALIFIERS = {"const", "volatile", "restrict", "extern", "inline", "register"}
HEAP_TYPES = {
    "HEAP8": "Int8Array", "HEAPU8": "Uint8Array", "HEAP16": "Int16Array", "HEAPU16": "Uint16Array",
    "HEAP32": "Int32Array", "HEAPU32": "Uint32Array", "HEAPF32": "Float32Array", "HEAPF64": "Float64Array",
}
JS_RESERVED = set(
    "break case catch class const continue debugger default delete do else enum export extends false finally for "
    "function if import in instanceof new null return super switch this throw true try typeof var void while with "
    "yield let static implements interface package private protected public await arguments eval".split()
)


class Refused(Exception):
    pass


def strip_comments(src):
    out = re.sub(r"/\*.*?\*/", lambda m: " " * len(m.group(0)) if "\n" not in m.group(0) else "\n" * m.group(0).count("\n"), src, flags=re.S)
    out = re.sub(r"//[^\n]*", "", out)
    out = re.sub(r'"(?:\\.|[^"\\])*"', '""', out)
    out = re.sub(r"'(?:\\.|[^'\\])*'", "''", out)
    return re.sub(r"^[ \t]*#[^\n]*(?:\\\n[^\n]*)*", "", out, flags=re.M)


def top_level(src):
    """the file with every brace's contents dropped: what remains is at file scope"""
    out, depth = [], 0
    for ch in src:
        if ch == "{":
            if depth == 0:
                out.append("{")
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                out.append("}")
        elif depth == 0:
            out.append(ch)
    return "".join(out)


def close_paren(text, i):
    depth = 0
    for j in range(i, len(text)):
        if text[j] == "(":
            depth += 1
        elif text[j] == ")":
            depth -= 1
            if depth == 0:
                return j
    raise Refused("unbalanced parentheses")


def c_type(decl, where, is_return=False):
    """'const uint32_t *' or 'uint32_t' -> 'number', 'void' -> 'void' (returns only)"""
    if "(" in decl:
        raise Refused(f"{where}: function pointer '{decl.strip()}': pass a table index as a number instead")
    if "*" in decl or "[" in decl:
        return "number"  # a pointer: an offset into linear memory
    words = [w for w in decl.split() if w not in QUALIFIERS]
    if words == ["void"] and is_return:
        return "void"
    if not words:
        raise Refused(f"{where}: no type")
    if words[0] in ("struct", "union"):
        raise Refused(f"{where}: '{decl.strip()}' by value: pass a pointer or flat words")
    if words[0] == "enum":
        return "number"
    if words.count("long") > 1 or any(w in REFUSED_TYPES for w in words):
        raise Refused(f"{where}: '{decl.strip()}' is 64 bits: JS gets two halves (no WASM_BIGINT); pass a double")
    if all(w in NUMBER_TYPES for w in words):
        return "number"
    raise Refused(f"{where}: unknown type '{decl.strip()}': add it to gen-dts.py if it crosses as one number")


def split_param(p, i):
    """'const uint32_t *tun' -> ('const uint32_t *', 'tun'); an unnamed parameter gets arg<i>"""
    p = " ".join(p.split())
    m = re.match(r"^(.*?)(\w+)\s*((?:\[[^\]]*\]\s*)*)$", p)
    if m and m.group(1).strip() and m.group(2) not in QUALIFIERS and not m.group(1).strip().endswith(("struct", "enum", "union")):
        return m.group(1) + m.group(3), m.group(2)
    return p, f"arg{i}"


def functions(path):
    """[(name, return type, [(param name, TS type)], C prototype)] of the non-static fx_* definitions"""
    with open(path, encoding="utf-8") as f:
        text = top_level(strip_comments(f.read()))
    out = []
    for m in re.finditer(r"\b(fx_\w+)\s*\(", text):
        name = m.group(1)
        close = close_paren(text, m.end() - 1)
        after = text[close + 1:].lstrip()
        if not after.startswith("{"):
            continue  # a declaration (or a call at file scope): the definition is what counts
        start = max(text.rfind(";", 0, m.start()), text.rfind("}", 0, m.start())) + 1
        ret = text[start:m.start()]
        if "static" in ret.split():
            continue
        where = f"{path}: {name}"
        params = [p.strip() for p in split_top(text[m.end():close])]
        if params == ["void"] or params == [""]:
            params = []
        if "..." in params:
            raise Refused(f"{where}: variadic")
        typed = []
        for i, p in enumerate(params):
            decl, pname = split_param(p, i)
            typed.append((pname + "_" if pname in JS_RESERVED else pname, c_type(decl, f"{where} parameter {i + 1}")))
        proto = " ".join(f"{' '.join(ret.split())} {name}({', '.join(' '.join(p.split()) for p in params) or 'void'})".split())
        proto = proto.replace("* ", "*")
        out.append((name, c_type(ret, f"{where} return", is_return=True), typed, proto))
    return out


def split_top(s):
    parts, depth, cur = [], 0, []
    for ch in s:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    parts.append("".join(cur))
    return parts


def collect(paths):
    fns, seen = [], {}
    for path in paths:
        for fn in functions(path):
            if fn[0] in seen:
                raise Refused(f"{fn[0]} is defined in both {seen[fn[0]]} and {path}")
            seen[fn[0]] = path
            fns.append(fn)
    if not fns:
        raise Refused(f"no fx_* function in {' '.join(paths)}")
    return fns


def dts(module, mjs_path, paths):
    fns = collect(paths)
    with open(mjs_path, encoding="utf-8") as f:
        mjs = f.read()
    missing = [name for name, *_ in fns if f'Module["_{name}"]' not in mjs]
    if missing:
        raise Refused(f"{mjs_path} does not export {' '.join(missing)}")
    heaps = [h for h in HEAP_TYPES if f'Module["{h}"]' in mjs]
    iface = module[:1].upper() + module[1:] + "Module"
    sources = " and ".join(paths)
    lines = [
        f"// Generated by wasm/gen-dts.py from {sources} when {module}.mjs was built: do not edit.",
        f"// The {module} module's surface: each exported C function as emcc names it (a leading _),",
        "// its parameters named as in C. In wasm32 pointers, integers and doubles all cross as numbers.",
        "",
        f"export interface {iface} {{",
    ]
    for name, ret, params, proto in fns:
        lines.append(f"  /** {proto} */")
        lines.append(f"  _{name}({', '.join(f'{p}: {t}' for p, t in params)}): {ret};")
    lines.append("  // views of linear memory: replaced when memory grows, so read them after each call")
    for h in heaps:
        lines.append(f"  readonly {h}: {HEAP_TYPES[h]};")
    lines += [
        "}",
        "",
        "export interface FactoryOptions {",
        "  /** the .wasm's bytes (Node), instead of fetching it */",
        "  wasmBinary?: ArrayBuffer | Uint8Array;",
        "  /** where the .wasm is (the page: Vite's ?url of it) */",
        "  locateFile?: (f: string) => string;",
        "}",
        "",
        f"/** Instantiates the {module} module (Emscripten's MODULARIZE factory). */",
        f"export default function factory(opts?: FactoryOptions): Promise<{iface}>;",
        "",
    ]
    return "\n".join(lines)


def cores(modules):
    """Every module's interface in one map, CoreModules (web/src/shared/node-load.ts loads by it)."""
    iface = lambda m: m[:1].upper() + m[1:] + "Module"
    lines = [
        "// Generated by wasm/gen-dts.py from the modules wasm/Makefile builds (one per src/<core>/exports.c,",
        "// and inspect): do not edit. Each core's module by its name, for loadCoreModule().",
        "",
    ]
    lines += [f'import type {{ {iface(m)} }} from "./{m}.mjs";' for m in modules]
    lines += ["", "export interface CoreModules {"]
    lines += [f"  {m}: {iface(m)};" for m in modules]
    lines += ["}", ""]
    return "\n".join(lines)


def main(argv):
    try:
        if len(argv) >= 3 and argv[0] == "cores":
            with open(argv[1], "w", encoding="utf-8") as f:
                f.write(cores(sorted(argv[2:])))
        elif len(argv) >= 2 and argv[0] == "exports":
            print("[" + ",".join(f"'_{name}'" for name, *_ in collect(argv[1:])) + "]")
        elif len(argv) >= 5 and argv[0] == "dts":
            text = dts(argv[1], argv[2], argv[4:])
            with open(argv[3], "w", encoding="utf-8") as f:
                f.write(text)
        else:
            print("usage: gen-dts.py exports FILE.c... | gen-dts.py dts MODULE MODULE.mjs OUT FILE.c... | gen-dts.py cores OUT MODULE...", file=sys.stderr)
            return 2
    except (Refused, OSError) as e:
        print(f"gen-dts.py: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
