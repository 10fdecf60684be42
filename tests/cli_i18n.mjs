// cli_i18n.mjs — the terminal's catalog (src/cli/i18n.c): each Italian text
// has the same printf conversions, in the same order, as its English one
// (the compiler checks the English against the arguments: format_arg), and
// no English text is there twice.  Prints "N passed, N failed".
import fs from "node:fs";

const src = fs.readFileSync(new URL("../src/cli/i18n.c", import.meta.url), "utf8");
const body = src.slice(src.indexOf("catalog[] = {"), src.indexOf("};", src.indexOf("catalog[] = {")));
// the entries: {"en" "en...", "it" "it..."} with adjacent literals joined
const lit = (s) => [...s.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1]).join("");
const entries = [...body.matchAll(/\{((?:"(?:[^"\\]|\\.)*"\s*)+),\s*((?:"(?:[^"\\]|\\.)*"\s*)+)\}/g)].map((m) => [lit(m[1]), lit(m[2])]);
const conv = (s) => [...s.replace(/%%/g, "").matchAll(/%[-+ #0]*\d*(?:\.\d+)?(?:hh|h|ll|l|z)?[diouxXcsfgep]/g)].map((m) => m[0]);
let P = 0, F = 0;
const check = (ok, what) => { if (ok) P++; else { F++; console.log(`FAIL ${what}`); } };
check(entries.length > 40, `the catalog read (${entries.length} entries)`);
const seen = new Set();
for (const [en, it] of entries) {
  check(JSON.stringify(conv(en)) === JSON.stringify(conv(it)), `conversions of "${en}": ${conv(en)} vs ${conv(it)}`);
  check(!seen.has(en), `"${en}" twice`);
  seen.add(en);
  check(en !== it || !/[a-z]{4} [a-z]{3}/.test(en), `"${en}" left in English`);
}
// The library's sentences (src/cli/i18n_lib.c): the same conversions, "%_"
// standing for one the Italian does not print; each format is one the
// library really writes (found in src/games or src/session, joined literals).
const lsrc = fs.readFileSync(new URL("../src/cli/i18n_lib.c", import.meta.url), "utf8");
const lbody = lsrc.slice(lsrc.indexOf("library[] = {"), lsrc.indexOf("};", lsrc.indexOf("library[] = {")));
const lentries = [...lbody.matchAll(/\{((?:"(?:[^"\\]|\\.)*"\s*)+),\s*((?:"(?:[^"\\]|\\.)*"\s*)+)\}/g)].map((m) => [lit(m[1]), lit(m[2])]);
check(lentries.length > 20, `the library's formats read (${lentries.length})`);
const libsrc = [];
for (const d of ["../src/games/", "../src/session/"])
  for (const f of fs.readdirSync(new URL(d, import.meta.url))) if (f.endsWith(".c"))
    libsrc.push(fs.readFileSync(new URL(d + f, import.meta.url), "utf8"));
// the library's string literals, adjacent ones joined
const libLits = libsrc.map((t) => t.replace(/"\s+"/g, "")).join("\n");
for (const [en, it] of lentries) {
  const a = conv(en), b = [...it.replace(/%%/g, "").matchAll(/%[-+ #0]*\d*(?:\.\d+)?(?:hh|h|ll|l|z)?[diouxXcsfgep_]/g)].map((m) => m[0]);
  check(a.length === b.length && a.every((c, i) => b[i] === "%_" || b[i] === c), `library format "${en}": ${a} vs ${b}`);
  check(en !== it, `library format "${en}" left in English`);
  // where it comes from: the whole format, or (a part of a line: the status
  // line without its score, a district's line) its literal pieces
  // (a side's name is written by tav_side_name: "%s" in the library)
  const pieces = en.replace(/\b(white|black)\b/g, "%s").split(/%[lz]*[dusc]/).filter((x) => x.trim().length > 3);
  check(libLits.includes(en) || pieces.every((x) => libLits.includes(x)), `library format "${en}" is the library's`);
}
console.log(`${P} passed, ${F} failed`);
process.exit(F ? 1 : 0);
