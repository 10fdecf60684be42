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
console.log(`${P} passed, ${F} failed`);
process.exit(F ? 1 : 0);
