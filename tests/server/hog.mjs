// hog.mjs — one address signing in many-wide (limits.mjs, scripts/attack.mjs).
import { Worker } from "node:worker_threads";

// The hog: `width` sign-in loops from one address, in a thread of its own
// (an attacker's machine is not ours: its loops must not slow the
// measuring client's).  stop() resolves its counts.
export function hogWorker(base, name, password, from, width) {
  const code = `
    const { parentPort, workerData: w } = require("node:worker_threads");
    const http = require("node:http");
    const u = new URL(w.base);
    const body = JSON.stringify({ name: w.name, password: w.password });
    let stop = false;
    const c = { ok: 0, limited: 0, other: 0 };
    parentPort.on("message", () => { stop = true; });
    const one = () => new Promise((resolve) => {
      const r = http.request({ host: u.hostname, port: u.port, method: "POST", path: "/api/login", agent: false,
        localAddress: w.from, headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) } }, (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode));
        res.on("error", () => resolve(0));
      });
      r.on("error", () => resolve(0));
      r.end(body);
    });
    Promise.all(Array.from({ length: w.width }, async () => {
      while (!stop) {
        const s = await one();
        if (s === 200) c.ok++; else if (s === 429) c.limited++; else c.other++;
      }
    })).then(() => parentPort.postMessage(c));
  `;
  const wk = new Worker(code, { eval: true, workerData: { base, name, password, from, width } });
  const done = new Promise((resolve) => wk.once("message", resolve));
  return {
    async stop() {
      wk.postMessage("stop");
      const c = await done;
      await wk.terminate();
      return c;
    },
  };
}

