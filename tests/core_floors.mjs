// The server core's rooms stand one floor above another (ARCHITECTURE.md,
// "The server core"): no room calls a room that calls it back, directly or
// round about.  Read from the compiled objects (nm): room A calls room B
// when A needs a symbol that B alone defines.  Prints each room's floor,
// then "N passed, N failed" (a check per room: it is in no circle).  The
// store (store.c, store_sqlite*.c, store_pg*.c) is read as one room: its
// backends fill its table of operations and share their helpers, below
// every other room.
// Usage: BUILD=build node tests/core_floors.mjs
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const dir = join(process.env.BUILD || 'build', 'obj/src/server/core');
const objs = readdirSync(dir).filter((f) => f.endsWith('.o')).sort();
const defs = new Map();
const needs = new Map();
for (const o of objs) {
  const room = o.startsWith('store') ? 'store' : o.slice(0, -2);
  const out = execFileSync('nm', [join(dir, o)], { encoding: 'utf8' });
  const need = needs.get(room) || new Set();
  for (const line of out.split('\n')) {
    const p = line.trim().split(/\s+/);
    if (p.length === 3 && 'TDBR'.includes(p[1])) defs.set(p[2], room);
    else if (p.length === 2 && p[0] === 'U') need.add(p[1]);
  }
  needs.set(room, need);
}
const calls = new Map();
for (const [room, need] of needs) {
  const to = new Map();
  for (const sym of need) {
    const b = defs.get(sym);
    if (b && b !== room) to.set(b, [...(to.get(b) || []), sym]);
  }
  calls.set(room, to);
}

// Tarjan's strongly connected components: a component of more than one
// room is a circle.
let index = 0;
const idx = new Map(), low = new Map(), on = new Set(), stack = [], circles = [];
function visit(v) {
  idx.set(v, index); low.set(v, index); index++;
  stack.push(v); on.add(v);
  for (const w of calls.get(v).keys()) {
    if (!idx.has(w)) { visit(w); low.set(v, Math.min(low.get(v), low.get(w))); }
    else if (on.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
  }
  if (low.get(v) === idx.get(v)) {
    const c = [];
    let w;
    do { w = stack.pop(); on.delete(w); c.push(w); } while (w !== v);
    if (c.length > 1) circles.push(c.sort());
  }
}
for (const v of calls.keys()) if (!idx.has(v)) visit(v);

let passed = 0, failed = 0;
const inCircle = new Set(circles.flat());
if (calls.size >= 20) passed++;
else { failed++; console.log(`FAIL: only ${calls.size} rooms read from ${dir}`); }
for (const c of circles) {
  console.log(`FAIL: a circle of ${c.length} rooms: ${c.join(', ')}`);
  for (const a of c)
    for (const [b, syms] of calls.get(a))
      if (c.includes(b)) console.log(`  ${a} -> ${b}: ${syms.slice(0, 6).join(' ')}`);
}
for (const room of calls.keys()) inCircle.has(room) ? failed++ : passed++;
if (!circles.length) {
  const floor = new Map();
  const f = (v) => {
    if (!floor.has(v)) floor.set(v, 1 + Math.max(0, ...[...calls.get(v).keys()].map(f)));
    return floor.get(v);
  };
  const by = new Map();
  for (const v of calls.keys()) by.set(f(v), [...(by.get(f(v)) || []), v]);
  for (const k of [...by.keys()].sort((a, b) => b - a))
    console.log(`floor ${String(k).padStart(2)}: ${by.get(k).sort().join(' ')}`);
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
