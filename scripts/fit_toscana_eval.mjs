// scripts/fit_toscana_eval.mjs — fits Toscana's evaluation to game outcomes.
//
//   node scripts/fit_toscana_eval.mjs features.csv [--target reward|result] [--l2 X]
//
// features.csv comes from build/tosfeat (one line per position, white's side:
// game,left,result,margin,hand,f0..f15).  Logistic regression (Newton's method,
// small L2 penalty, no intercept: the features are differences between the
// colours, so the fitted value for black is one minus white's) on the target:
//   result — the outcome, 1 / 0.5 / 0;
//   reward — what the search's finished playouts score (mcts.c, Toscana's
//            profile: margin 0.5, scale 3): 0.5 * result
//            + 0.5 * (1 + tanh(margin / 3)) / 2  (default).
// Games whose number is 0 mod 5 are held out; the report compares the fitted
// evaluation with the shipped one (column `hand`) on them, by log loss and
// mean squared error, overall and by tiles left; then prints the weights as a
// C initializer for toscana.c.
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
let file = null, target = 'reward', l2 = 1e-3;
for (let i = 0; i < args.length; i++) {
    if (args[i] === '--target') target = args[++i];
    else if (args[i] === '--l2') l2 = Number(args[++i]);
    else file = args[i];
}
if (!file || !['reward', 'result'].includes(target)) {
    console.error('usage: node scripts/fit_toscana_eval.mjs features.csv [--target reward|result] [--l2 X]');
    process.exit(2);
}
const rows = [];
for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line) continue;
    const v = line.split(',').map(Number);
    if (v.some(Number.isNaN)) throw new Error(`bad line: ${line}`);
    const [game, left, result, margin, hand] = v;
    const y = target === 'result' ? result : 0.5 * result + 0.25 * (1 + Math.tanh(margin / 3));
    rows.push({ game, left, y, hand, x: v.slice(5) });
}
const K = rows[0].x.length;
const train = rows.filter((r) => r.game % 5 !== 0), test = rows.filter((r) => r.game % 5 === 0);
const sig = (z) => 1 / (1 + Math.exp(-z));
const dot = (w, x) => x.reduce((s, xi, i) => s + w[i] * xi, 0);

// Newton's method on the penalised log loss.
function solve(A, b) {
    const n = b.length, M = A.map((row, i) => [...row, b[i]]);
    for (let c = 0; c < n; c++) {
        let p = c;
        for (let r = c + 1; r < n; r++) if (Math.abs(M[r][c]) > Math.abs(M[p][c])) p = r;
        [M[c], M[p]] = [M[p], M[c]];
        for (let r = 0; r < n; r++) {
            if (r === c) continue;
            const f = M[r][c] / M[c][c];
            for (let k = c; k <= n; k++) M[r][k] -= f * M[c][k];
        }
    }
    return M.map((row, i) => row[n] / row[i]);
}
let w = new Array(K).fill(0);
for (let it = 0; it < 30; it++) {
    const g = new Array(K).fill(0), H = Array.from({ length: K }, () => new Array(K).fill(0));
    for (const r of train) {
        const p = sig(dot(w, r.x)), d = p - r.y, s = p * (1 - p);
        for (let i = 0; i < K; i++) {
            g[i] += d * r.x[i];
            for (let j = 0; j < K; j++) H[i][j] += s * r.x[i] * r.x[j];
        }
    }
    for (let i = 0; i < K; i++) {
        g[i] += l2 * train.length * w[i];
        H[i][i] += l2 * train.length;
    }
    const step = solve(H, g);
    w = w.map((wi, i) => wi - step[i]);
    if (Math.max(...step.map(Math.abs)) < 1e-9) break;
}

const clamp = (p) => Math.min(1 - 1e-6, Math.max(1e-6, p));
function score(set, pred) {
    let ll = 0, se = 0;
    for (const r of set) {
        const p = clamp(pred(r));
        ll -= r.y * Math.log(p) + (1 - r.y) * Math.log(1 - p);
        se += (p - r.y) ** 2;
    }
    return { n: set.length, ll: ll / set.length, mse: se / set.length };
}
const fitted = (r) => sig(dot(w, r.x)), hand = (r) => r.hand, flat = () => 0.5;
const fmt = (s) => `log loss ${s.ll.toFixed(4)}  mse ${s.mse.toFixed(4)}`;
console.log(`target ${target}, ${train.length} training positions (${new Set(train.map((r) => r.game)).size} games), ` +
    `${test.length} held out (${new Set(test.map((r) => r.game)).size} games)`);
for (const [name, set] of [['held out', test], ['training', train]]) {
    console.log(`${name}: fitted ${fmt(score(set, fitted))} | shipped ${fmt(score(set, hand))} | 0.5 ${fmt(score(set, flat))}`);
}
console.log('held out by tiles left:   fitted ll / mse    shipped ll / mse    positions');
for (const [lo, hi] of [[25, 32], [17, 24], [9, 16], [1, 8], [0, 0]]) {
    const set = test.filter((r) => r.left >= lo && r.left <= hi);
    if (!set.length) continue;
    const a = score(set, fitted), b = score(set, hand);
    console.log(`  ${String(lo).padStart(2)}-${String(hi).padEnd(2)}  ${a.ll.toFixed(4)} / ${a.mse.toFixed(4)}` +
        `    ${b.ll.toFixed(4)} / ${b.mse.toFixed(4)}    ${set.length}`);
}
console.log(`static const double tos_fit_w[TOSCANA_FEATURES] = {\n    ${w.map((x) => x.toFixed(5)).join(', ')}};`);
