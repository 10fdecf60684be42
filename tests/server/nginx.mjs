// nginx.mjs — nginx in front of instances for the tests, with
// deploy/nginx.conf itself (only the lines marked "(site)" change: the
// port, the page's folder, the instances' addresses and the log files).
import { spawn } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { BUILD, check, freePort, sleep } from "./lib.mjs";

// A directory the postgres user (tests run as root) and nginx's workers can reach.
export function reachableDir(prefix) {
  const d = mkdtempSync(join("/tmp", prefix));
  chmodSync(d, 0o755);
  return d;
}

export async function startNginx(ports) {
  const dir = reachableDir("tav-nginx-");
  const port = await freePort();
  let conf = readFileSync("deploy/nginx.conf", "utf8");
  // Only the lines marked "(site)" change: the instances, the port, the page.
  const site = conf.split("\n").filter((l) => l.includes("# (site)"));
  check(site.length === 8, "deploy/nginx.conf marks its site lines", site.length);
  conf = conf
    .replace(/^(\s*)server 127\.0\.0\.1:8001[^\n]*\n(\s*server 127\.0\.0\.1:800[23][^\n]*\n)+/m,
      (_m, ind) => ports.map((p) => `${ind}server 127.0.0.1:${p} max_fails=1 fail_timeout=2s;\n`).join(""))
    .replace(/listen 8080;/, `listen 127.0.0.1:${port};`)
    .replace(/root \/srv\/tavoliere\/build\/web;/, `root ${resolve(BUILD, "web")};`)
    .replace(/\/var\/log\/nginx\//g, `${dir}/`);
  writeFileSync(join(dir, "tavoliere.conf"), conf);
  for (const t of ["body", "proxy", "fastcgi", "uwsgi", "scgi"]) mkdirSync(join(dir, t), { mode: 0o777 });
  writeFileSync(join(dir, "nginx.conf"), `daemon off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 2048; }
http {
  include /etc/nginx/mime.types;
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  include ${dir}/tavoliere.conf;
}
`);
  const child = spawn("nginx", ["-p", dir, "-c", join(dir, "nginx.conf")], { stdio: ["ignore", "ignore", "pipe"] });
  let err = "";
  child.stderr.on("data", (d) => (err += d));
  const base = `http://127.0.0.1:${port}`;
  const end = Date.now() + 10000;
  for (;;) {
    try {
      const r = await fetch(base + "/index.html");
      if (r.status === 200) break;
    } catch {}
    if (Date.now() > end || child.exitCode !== null) throw new Error("nginx did not start: " + err);
    await sleep(50);
  }
  return {
    base,
    log: () => { try { return readFileSync(join(dir, "error.log"), "utf8").slice(-3000); } catch { return ""; } },
    accessLog: () => { try { return readFileSync(join(dir, "tavoliere.log"), "utf8"); } catch { return ""; } },
    errorLog: () => { try { return readFileSync(join(dir, "tavoliere-error.log"), "utf8"); } catch { return ""; } },
    async stop() {
      child.kill("SIGQUIT");
      await new Promise((r) => (child.exitCode !== null ? r() : child.on("exit", r)));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

