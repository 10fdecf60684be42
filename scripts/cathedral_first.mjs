#!/usr/bin/env node
// scripts/cathedral_first.mjs [--json] SOURCE[+SOURCE...] ... — Cathedral's
// first-player question from self-play (tavoliere match cathedral ... --save DIR).
//
// A SOURCE is a directory of saved match records or a summary file (*.json,
// written by --json).  Each argument is one row; SOURCE+SOURCE+... pools
// several runs (the same players and opening, other seeds) into that row.
// For each row: the opening, how often the first builder won (classic: black
// places the first building, white the Cathedral; late: white places the
// first building), the first builder's share (wins + half the draws) with its
// 95% interval, and a histogram of the score margins seen from the first
// builder (the other's squares left minus his: > 0 means the first builder
// won by that many squares).
//
// Prints Markdown on standard output; with --json, one summary per row
// instead (counts, the histogram's bins and the sum of the margins), which is
// all a later pooling needs: results/cathedral-first-player/*.json keep them,
// so the records themselves need not be kept.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const LO = -13, HI = 13;   // histogram: one bin per point, open ends at LO and HI

function tag(text, name) {
    const m = text.match(new RegExp(`^\\[${name} "([^"]*)"\\]`, 'm'));
    return m ? m[1] : '';
}

function emptySummary() {
    const bins = {};
    for (let v = LO; v <= HI; v++) bins[v] = 0;
    return { opening: '', players: '', events: [], n: 0, first: 0, draws: 0, second: 0, bins, marginSum: 0 };
}

function binOf(m) {
    return m <= LO ? LO : m >= HI ? HI : m;
}

// Add one run (a directory of records or a summary file) to the summary s.
function addSource(s, src) {
    if (!statSync(src).isDirectory()) {
        const t = JSON.parse(readFileSync(src, 'utf8'));
        merge(s, t, src);
        return;
    }
    const files = readdirSync(src).filter((f) => f.endsWith('.rec')).sort();
    const t = emptySummary();
    for (const f of files) {
        const text = readFileSync(join(src, f), 'utf8');
        const result = tag(text, 'Result');
        const score = tag(text, 'Score').split(':').map(Number);
        if (!['white', 'black', 'draw'].includes(result) || score.length !== 2 || score.some(Number.isNaN))
            throw new Error(`${join(src, f)}: not a finished game (Result "${result}")`);
        const op = (tag(text, 'Options').match(/opening=(\w+)/) || [, 'classic'])[1];
        const wh = tag(text, 'White'), bl = tag(text, 'Black');
        if (wh !== bl)
            throw new Error(`${join(src, f)}: not self-play (${wh} against ${bl})`);
        if ((t.opening && op !== t.opening) || (t.players && wh !== t.players))
            throw new Error(`${join(src, f)}: another opening or player than the rest of ${src}`);
        t.opening = op;
        t.players = wh;
        const ev = tag(text, 'Event').replace(/, game \d+/, '');
        if (!t.events.includes(ev)) t.events.push(ev);
        const builder = op === 'late' ? 'white' : 'black';
        const [w, b] = score;
        // Squares left in hand: the lower wins.  Margin from the first builder.
        const margin = builder === 'white' ? b - w : w - b;
        t.bins[binOf(margin)]++;
        t.marginSum += margin;
        t.n++;
        if (result === 'draw') t.draws++;
        else if (result === builder) t.first++;
        else t.second++;
    }
    merge(s, t, src);
}

function merge(s, t, src) {
    if (!t.n) return;
    if ((s.opening && t.opening !== s.opening) || (s.players && t.players !== s.players))
        throw new Error(`${src}: ${t.opening} with ${t.players}, but the row so far is ${s.opening} with ${s.players}`);
    s.opening = t.opening;
    s.players = t.players;
    for (const e of t.events) if (!s.events.includes(e)) s.events.push(e);
    s.n += t.n;
    s.first += t.first;
    s.draws += t.draws;
    s.second += t.second;
    for (let v = LO; v <= HI; v++) s.bins[v] += t.bins[v] ?? 0;
    s.marginSum += t.marginSum;
}

// Share and its 95% interval from the per-game scores (1, 1/2, 0).
function share(s) {
    const p = (s.first + s.draws / 2) / s.n;
    const mean2 = (s.first + s.draws / 4) / s.n;
    const sd = Math.sqrt(Math.max(0, mean2 - p * p));
    const half = (1.96 * sd) / Math.sqrt(s.n);
    return { p, half };
}

function pct(x) {
    return `${(100 * x).toFixed(1)}%`;
}

function label(v) {
    if (v === LO) return `≤ −${-LO}`;
    if (v === HI) return `≥ +${HI}`;
    return v > 0 ? `+${v}` : v < 0 ? `−${-v}` : '0';
}

function histogram(bins) {
    const counts = [];
    for (let v = LO; v <= HI; v++) counts.push([v, bins[v]]);
    const max = Math.max(1, ...counts.map(([, c]) => c));
    const lines = ['```', 'margin  games'];
    for (const [v, c] of counts)
        lines.push(`${label(v).padStart(6)}  ${String(c).padStart(5)}  ${'#'.repeat(Math.round((50 * c) / max))}`.trimEnd());
    lines.push('```');
    return lines.join('\n');
}

const args = process.argv.slice(2);
const json = args.includes('--json');
const rowsArgs = args.filter((a) => a !== '--json');
if (rowsArgs.length === 0) {
    console.error('usage: scripts/cathedral_first.mjs [--json] SOURCE[+SOURCE...] ...   (SOURCE: a records directory or a summary .json)');
    process.exit(2);
}
const rows = rowsArgs.map((arg) => {
    const s = emptySummary();
    for (const src of arg.split('+')) addSource(s, src);
    if (!s.n) throw new Error(`${arg}: no games`);
    return s;
});
if (json) {
    for (const s of rows) console.log(JSON.stringify(s));
    process.exit(0);
}
console.log('| opening | players | games | first builder wins | draws | second wins | first builder\'s share | 95% interval | mean margin |');
console.log('|---|---|---|---|---|---|---|---|---|');
for (const s of rows) {
    const { p, half } = share(s);
    const mean = s.marginSum / s.n;
    console.log(`| ${s.opening} | ${s.players} | ${s.n} | ${s.first} | ${s.draws} | ${s.second} | ${pct(p)} | ±${(100 * half).toFixed(1)} pp [${pct(p - half)}, ${pct(p + half)}] | ${mean >= 0 ? '+' : ''}${mean.toFixed(2)} |`);
}
for (const s of rows) {
    console.log(`\n**${s.opening}, ${s.players}** (${s.n} games; ${s.events.join('; ')}): score margin seen from the first builder\n`);
    console.log(histogram(s.bins));
}
