#!/usr/bin/env node
// scripts/cathedral_first.mjs DIR[+DIR...] ... — Cathedral's first-player
// question from saved match records (tavoliere match cathedral ... --save DIR).
//
// Each argument is one row; DIR+DIR+... pools the records of several runs (the
// same players and opening, other seeds) into that row.  For each row: the opening (Options tag), how often the first builder
// won (classic: black places the first building, white the Cathedral; late:
// white places the first building), the first builder's share (wins + half
// the draws) with its 95% interval, and a histogram of the score margins seen
// from the first builder (the other's squares left minus his: > 0 means the
// first builder won by that many squares).
//
// Prints Markdown on standard output.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

function tag(text, name) {
    const m = text.match(new RegExp(`^\\[${name} "([^"]*)"\\]`, 'm'));
    return m ? m[1] : '';
}

function summarise(arg) {
    const dirs = arg.split('+');
    const files = dirs.flatMap((dir) =>
        readdirSync(dir).filter((f) => f.endsWith('.rec')).sort().map((f) => [dir, f]));
    const dir = arg;
    let opening = '', white = '', black = '';
    const events = [];
    let first = 0, draws = 0, second = 0, n = 0;
    const margins = [];
    for (const [d, f] of files) {
        const text = readFileSync(join(d, f), 'utf8');
        const result = tag(text, 'Result');
        const score = tag(text, 'Score').split(':').map(Number);
        if (!['white', 'black', 'draw'].includes(result) || score.length !== 2 || score.some(Number.isNaN))
            throw new Error(`${join(d, f)}: not a finished game (Result "${result}")`);
        const op = (tag(text, 'Options').match(/opening=(\w+)/) || [, 'classic'])[1];
        if (opening && op !== opening) throw new Error(`${dir}: records of two openings (${opening}, ${op})`);
        opening = op;
        const ev = tag(text, 'Event').replace(/, game \d+/, '');
        if (!events.includes(ev)) events.push(ev);
        const wh = tag(text, 'White'), bl = tag(text, 'Black');
        if ((white && wh !== white) || (black && bl !== black))
            throw new Error(`${join(d, f)}: other players (${wh} against ${bl}, not ${white} against ${black})`);
        white = wh;
        black = bl;
        const builder = opening === 'late' ? 'white' : 'black';
        const [w, b] = score;
        // Squares left in hand: the lower wins.  Margin from the first builder.
        const margin = builder === 'white' ? b - w : w - b;
        margins.push(margin);
        n++;
        if (result === 'draw') draws++;
        else if (result === builder) first++;
        else second++;
    }
    return { dir, opening, event: events.join('; '), white, black, n, first, draws, second, margins };
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

function histogram(margins) {
    // One bin per point from -12 to +12 (0 is a draw), open ends beyond.
    const bins = [{ label: '≤ −13', test: (m) => m <= -13 }];
    for (let v = -12; v <= 12; v++)
        bins.push({ label: v > 0 ? `+${v}` : v < 0 ? `−${-v}` : '0', test: (m) => m === v });
    bins.push({ label: '≥ +13', test: (m) => m >= 13 });
    const counts = bins.map((bin) => margins.filter(bin.test).length);
    const max = Math.max(1, ...counts);
    const lines = ['```', 'margin  games'];
    bins.forEach((bin, i) => {
        const bar = '#'.repeat(Math.round((50 * counts[i]) / max));
        lines.push(`${bin.label.padStart(6)}  ${String(counts[i]).padStart(5)}  ${bar}`);
    });
    lines.push('```');
    return lines.join('\n');
}

const dirs = process.argv.slice(2);
if (dirs.length === 0) {
    console.error('usage: scripts/cathedral_first.mjs DIR[+DIR...] ...');
    process.exit(2);
}
const rows = dirs.map(summarise);
console.log('| opening | players | games | first builder wins | draws | second wins | first builder\'s share | 95% interval | mean margin |');
console.log('|---|---|---|---|---|---|---|---|---|');
for (const s of rows) {
    const { p, half } = share(s);
    const mean = s.margins.reduce((a, b) => a + b, 0) / s.n;
    console.log(`| ${s.opening} | ${s.white} | ${s.n} | ${s.first} | ${s.draws} | ${s.second} | ${pct(p)} | ±${(100 * half).toFixed(1)} pp [${pct(p - half)}, ${pct(p + half)}] | ${mean >= 0 ? '+' : ''}${mean.toFixed(2)} |`);
}
for (const s of rows) {
    console.log(`\n**${s.opening}, ${s.white}** (${s.n} games; ${s.event}): score margin seen from the first builder\n`);
    console.log(histogram(s.margins));
}
