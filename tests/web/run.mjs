// run.mjs — the browser test suite: starts `$BUILD/tavoliere serve` on a free
// port with a temporary database, launches Chromium, runs every
// tests/web/*.test.mjs (each exports `async run(env)`), then prints
// "N passed, N failed".  A test file may be named on the command line to run
// it alone.  env: { url, browser, tally, shot(page, name), newPage(label, opts, allow) }.
//
// Every page opened through env.newPage is watched for console errors and
// uncaught exceptions; each one counts as a failure.

import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { launch, screenshot, startServer, Tally } from "./harness.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2);
const files = fs.readdirSync(here).filter((f) => f.endsWith(".test.mjs")).sort()
  .filter((f) => !only.length || only.some((o) => f.includes(o)));

const tally = new Tally();
let server = null, browser = null;
const t0 = Date.now();
try {
  server = await startServer();
  browser = await launch();
  const contexts = [];
  const env = {
    url: server.url,
    browser,
    tally,
    shot: screenshot,
    // A page in a new browser context (its own storage), watched for errors.
    async newPage(label, opts = {}, allow = null) {
      const ctx = await browser.newContext({ viewport: { width: 1280, height: 860 }, ...opts });
      contexts.push(ctx);
      return tally.watch(await ctx.newPage(), label, allow);
    },
  };
  for (const f of files) {
    const t = Date.now();
    const before = tally.failed;
    const checksBefore = tally.passed + tally.failed;
    let result;
    try {
      const mod = await import(path.join(here, f));
      result = await mod.run(env);
    } catch (e) {
      tally.check(`${f} ran to its end`, false, e && e.stack ? e.stack.split("\n").slice(0, 6).join("\n") : String(e));
    }
    // A test file that made no check tested nothing: a failure (a file that
    // may skip says so with a check of its own, or is allowed by name).
    const made = tally.passed + tally.failed - checksBefore;
    if (made === 0 && result !== "skipped") tally.check(`${f} made at least one check`, false, "it returned without checking anything");
    console.log(`${f}: ${tally.failed === before ? "ok" : "FAILED"} (${made} checks, ${((Date.now() - t) / 1000).toFixed(1)} s)`);
    for (const c of contexts.splice(0)) await c.close().catch(() => {});
  }
} catch (e) {
  tally.check("browser suite set up", false, String(e && e.message ? e.message : e));
} finally {
  if (browser) await browser.close().catch(() => {});
  if (server) await server.stop(tally);
}
// Each distinct console error once, with how often it was seen.
const seen = new Map();
for (const e of tally.errors) seen.set(e, (seen.get(e) ?? 0) + 1);
for (const [e, n] of seen) tally.check("no console errors", false, n > 1 ? `${e} (${n} times)` : e);
tally.check("no console errors on any page", tally.errors.length === 0);
if (tally.failed && server) console.log(server.log().split("\n").slice(-20).join("\n"));
console.log(`browser suite: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
console.log(`${tally.passed} passed, ${tally.failed} failed`);
process.exit(tally.failed ? 1 : 0);
