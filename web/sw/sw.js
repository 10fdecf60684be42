// sw.js — the service worker: keeps the page, its script and style, the
// engine (tavoliere.wasm) and its worker in the browser, so a player who
// opened the site once can play the computer (/play/GAME) with no network.
// `make` writes the version below from the files' contents: a new build is a
// new cache, and the old one is dropped.
//   - the page's own addresses (navigations: /, /play/..., /games/...): the
//     network first (the page as the server has it now), the kept page when
//     the server cannot be reached;
//   - the kept files: from the cache (they change only with the version);
//   - everything else (/api/...): the network, untouched.
const VERSION = "@VERSION@";
const CACHE = `tavoliere-${VERSION}`;
const FILES = ["/index.html", "/app.js", "/app.css", "/favicon.svg", "/tavoliere.wasm", "/engine-worker.js",
  "/manifest.webmanifest", "/icon-192.png", "/icon-512.png"];

self.addEventListener("install", (ev) => {
  ev.waitUntil(caches.open(CACHE).then((c) => c.addAll(FILES.map((f) => new Request(f, { cache: "reload" })))).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (ev) => {
  ev.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((k) => k.startsWith("tavoliere-") && k !== CACHE).map((k) => caches.delete(k))))
    .then(() => self.clients.claim()));
});

// The network, given up after a few seconds (a server that does not answer).
function network(req, ms) {
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error("timeout")), ms);
    fetch(req).then((r) => { clearTimeout(t); resolve(r); }, (e) => { clearTimeout(t); reject(e); });
  });
}

self.addEventListener("fetch", (ev) => {
  const req = ev.request;
  if (req.method !== "GET") return;
  const url = new URL(req.url);
  if (url.origin !== self.location.origin || url.pathname.startsWith("/api/")) return;
  if (req.mode === "navigate") {
    ev.respondWith(network(req, 4000).then((r) => {
      if (!r.ok) throw new Error(`status ${r.status}`);
      return r;
    }).catch(() => caches.match("/index.html", { cacheName: CACHE }).then((r) => r || Response.error())));
    return;
  }
  if (FILES.includes(url.pathname)) {
    ev.respondWith(caches.match(url.pathname, { cacheName: CACHE }).then((r) => r || fetch(req)));
  }
});
