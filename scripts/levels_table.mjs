#!/usr/bin/env node
// scripts/levels_table.mjs [--c] [GAME ...] — ratings of the levels from the
// ladder results in results/levels/GAME.csv (scripts/rate_levels.sh).
//
// One scale per game: random play = 0; level L+1's rating is level L's plus
// the Elo difference its games against level L show.  Games of one pair from
// several runs (different seeds) are added together.  The point estimate adds
// one drawn game to every pair (so a clean sweep gives a finite number); the
// 95% interval of a step comes from the games alone (a sweep has no upper
// end), and a level's interval adds up the variances of the steps below it.
//
// Prints Markdown (default) or, with --c, the rows of src/search/profiles.c
// (tav_level_rating).  --write puts both in place: each game's table under
// "### GAME" in docs/levels.md and its row in src/search/profiles.c; --check
// changes nothing and exits 1, naming the place, when either differs from what
// the results give (tests/docs_check.sh runs it).
import { readFileSync, readdirSync, existsSync, writeFileSync } from 'node:fs';

const args = process.argv.slice(2);
const cOut = args.includes('--c');
const write = args.includes('--write');
const check = args.includes('--check');
let games = args.filter((a) => !a.startsWith('--'));
if (games.length === 0)
    games = existsSync('results/levels')
        ? readdirSync('results/levels').filter((f) => f.endsWith('.csv')).map((f) => f.replace(/\.csv$/, '')).sort()
        : [];

const elo = (p) => -400 * Math.log10(1 / p - 1);
const levelOf = (p) => (p === 'random' ? 0 : Number((p.match(/^ai:level=(\d+)$/) || [])[1]));

function ladder(game) {
    const text = readFileSync(`results/levels/${game}.csv`, 'utf8').trim().split('\n').slice(1);
    const pairs = new Map();
    const seen = new Set();
    for (const line of text) {
        // jobs (games at once) is the 11th column; rows without it ran 2 at once
        const [a, b, n, w, d, l, seed, , , secs, jobs] = line.split(',');
        const la = levelOf(a), lb = levelOf(b);
        if (!(la === lb + 1)) throw new Error(`${game}: not an adjacent pair: ${line}`);
        const key = `${la}/${seed}`;
        if (seen.has(key)) throw new Error(`${game}: level ${la} against ${lb} twice with seed ${seed}`);
        seen.add(key);
        const p = pairs.get(la) || { n: 0, w: 0, d: 0, l: 0, secs: 0 };
        p.n += +n; p.w += +w; p.d += +d; p.l += +l; p.secs += +secs * (jobs ? +jobs : 2);
        pairs.set(la, p);
    }
    const rows = [];
    let rating = 0, variance = 0, open = false;
    for (let L = 1; pairs.has(L); L++) {
        const p = pairs.get(L);
        const s = (p.w + p.d / 2) / p.n;
        const sPrior = (p.w + p.d / 2 + 0.5) / (p.n + 1);
        const v = (p.w * (1 - s) ** 2 + p.d * (0.5 - s) ** 2 + p.l * s ** 2) / p.n / p.n;
        // A sweep has no spread: take the spread of the prior-adjusted score instead.
        const se = Math.max(Math.sqrt(v), Math.sqrt((sPrior * (1 - sPrior)) / p.n));
        const lo = s - 1.96 * se, hi = s + 1.96 * se;
        const step = elo(sPrior);
        // Variance in Elo of the step (delta method at the prior-adjusted score).
        const k = 400 / Math.LN10 / (sPrior * (1 - sPrior));
        const vStep = (k * Math.max(se, 0.5 / (p.n + 1))) ** 2;
        rating += step;
        variance += vStep;
        if (hi >= 1) open = true;
        rows.push({
            level: L, ...p, score: s, step,
            stepLo: lo <= 0 ? -Infinity : elo(lo), stepHi: hi >= 1 ? Infinity : elo(hi),
            rating, half: 1.96 * Math.sqrt(variance), open,
            secsPerGame: p.secs / p.n,
        });
    }
    return rows;
}

const sign = (x) => (x === Infinity ? '+∞' : x === -Infinity ? '−∞' : `${x >= 0 ? '+' : '−'}${Math.abs(Math.round(x))}`);

function cRow(game, rows) {
    // a level is rated once its step has the 200 games asked and is shown
    // stronger (the lower end of its 95% interval above 0)
    const rated = [];
    for (const x of rows) {
        if (x.n < 200 || !(x.stepLo > 0)) break;
        rated.push(x);
    }
    const r = rated.map((x) => Math.round(x.rating));
    while (r.length < 10) r.push(-1);
    return `    {"${game}", {0, ${r.join(', ')}}},`;
}

function mdTable(game, rows) {
    const out = [`### ${game}`, '',
        '| level | against | games | wins | draws | losses | score | step (Elo) | step 95% | rating | rating 95% | s/game |',
        '|---|---|---|---|---|---|---|---|---|---|---|---|'];
    for (const r of rows) {
        const against = r.level === 1 ? 'random' : `level ${r.level - 1}`;
        const stronger = (r.stepLo > 0 ? '' : ' (not shown stronger' + (r.n < 200 ? ')' : ': not rated yet)')) +
            (r.n < 200 ? ' (fewer than 200 games: not rated yet)' : '');
        out.push(`| ${r.level} | ${against} | ${r.n} | ${r.w} | ${r.d} | ${r.l} | ${(100 * r.score).toFixed(1)}% | ${sign(r.step)} | [${sign(r.stepLo)}, ${sign(r.stepHi)}]${stronger} | ${Math.round(r.rating)} | ±${Math.round(r.half)}${r.open ? ' (lower bound only above a sweep)' : ''} | ${r.secsPerGame.toFixed(1)} |`);
    }
    return out.join('\n');
}

if (write || check) {
    const docPath = 'docs/levels.md', cPath = 'src/search/profiles.c';
    let doc = readFileSync(docPath, 'utf8'), csrc = readFileSync(cPath, 'utf8');
    const stale = [];
    for (const game of games) {
        const rows = ladder(game);
        // the heading, a blank line, then the table's lines
        const tableRe = new RegExp(`^### ${game}\\n\\n(?:\\|.*\\n)+`, 'm');
        const rowRe = new RegExp(`^ *\\{"${game}", \\{0(?:, -?\\d+)*\\}\\},$`, 'm');
        if (!tableRe.test(doc)) throw new Error(`${docPath}: no table under "### ${game}"`);
        if (!rowRe.test(csrc)) throw new Error(`${cPath}: no rating row for ${game}`);
        const newDoc = doc.replace(tableRe, mdTable(game, rows) + '\n');
        const newC = csrc.replace(rowRe, cRow(game, rows));
        if (newDoc !== doc) stale.push(`${docPath}: the ${game} table`);
        if (newC !== csrc) stale.push(`${cPath}: the ${game} row`);
        doc = newDoc;
        csrc = newC;
    }
    if (check) {
        for (const x of stale) console.log(`${x} is not what results/levels give (node scripts/levels_table.mjs --write)`);
        process.exit(stale.length ? 1 : 0);
    }
    writeFileSync(docPath, doc);
    writeFileSync(cPath, csrc);
    for (const x of stale) console.log(`updated ${x}`);
} else {
    for (const game of games) {
        const rows = ladder(game);
        console.log(cOut ? cRow(game, rows) : `\n${mdTable(game, rows)}`);
    }
}
