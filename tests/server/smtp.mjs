// smtp.mjs — a real SMTP server on loopback for the e-mail tests
// (tests/server/smtp_sink.py, Debian's python3-aiosmtpd) and the messages it
// received, read back from its folder.
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { until } from "./lib.mjs";

const SINK = join(fileURLToPath(new URL(".", import.meta.url)), "smtp_sink.py");

// A real SMTP server writing every message to a folder.
export async function startSink(port, folder) {
  const child = spawn("/usr/bin/python3", [SINK, String(port), folder], { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stdout.on("data", (d) => (out += d));
  child.stderr.on("data", (d) => (out += d));
  const exited = new Promise((r) => child.on("exit", r));
  const ok = await until(() => out.includes("ready") || child.exitCode !== null, 20000);
  if (!ok || !out.includes("ready")) throw new Error(`the SMTP server did not start: ${out}`);
  return { async stop() { child.kill("SIGTERM"); await exited; } };
}

// The messages that arrived: {to, headers, subject, body}.
function decodeWord(v) {
  return v.replace(/=\?UTF-8\?B\?([A-Za-z0-9+/=]+)\?=/g, (_, b) => Buffer.from(b, "base64").toString("utf8"));
}
export function mails(folder) {
  return readdirSync(folder).filter((f) => f.endsWith(".eml")).sort().map((f) => {
    const text = readFileSync(join(folder, f), "utf8");
    const cut = text.indexOf("\r\n\r\n");
    const head = text.slice(0, cut), body = text.slice(cut + 4);
    const headers = {};
    for (const line of head.split("\r\n")) {
      const i = line.indexOf(":");
      if (i > 0) headers[line.slice(0, i).toLowerCase()] = line.slice(i + 1).trim();
    }
    return { file: f, to: headers["x-envelope-to"], headers, subject: decodeWord(headers.subject ?? ""), body };
  });
}
