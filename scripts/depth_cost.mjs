#!/usr/bin/env node
// scripts/depth_cost.mjs [SEED] [EVERY] [DEPTHS] — what one alpha-beta search to a
// fixed depth costs along an Epaminondas game, in processor seconds of one core.
//
// Plays one game of level 8 against itself (`go level=8`, engine seed SEED,
// default 7) and, every EVERY plies (default 6), searches the position afresh
// (`position` clears the table) to each depth of DEPTHS (default 4,5,6,7) with
// one thread and a 30 s cap.  The figure is the engine's user + system time
// over the search (from /proc), so it holds on a loaded machine too.  Prints
// one Markdown row per position.  T: the program (default build/tavoliere).
// docs/levels.md uses it for the depths of Epaminondas's levels 7-9.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

const [seed = '7', every = '6', depthList = '4,5,6,7'] = process.argv.slice(2);
const depths = depthList.split(',').map(Number);
const prog = process.env.T || 'build/tavoliere';
const eng = spawn(prog, ['engine', '--seed', seed], { stdio: ['pipe', 'pipe', 'inherit'] });
const lines = createInterface({ input: eng.stdout });
const waiting = [];
const got = [];
lines.on('line', (l) => {
    if (l.startsWith('info')) return;
    if (waiting.length) waiting.shift()(l);
    else got.push(l);
});
const cmd = (c) =>
    new Promise((res) => {
        eng.stdin.write(c + '\n');
        if (got.length) res(got.shift());
        else waiting.push(res);
    });
// utime + stime of the engine, in seconds (fields 14 and 15 of /proc/PID/stat)
const cpu = () => {
    const f = readFileSync(`/proc/${eng.pid}/stat`, 'utf8').split(')')[1].trim().split(/\s+/);
    return (Number(f[11]) + Number(f[12])) / 100;
};

await cmd('newgame epaminondas');
console.log(`| ply | ${depths.map((d) => `depth ${d}`).join(' | ')} |`);
console.log(`|---|${depths.map(() => '---|').join('')}`);
for (let ply = 0; ; ply++) {
    if (ply % Number(every) === 0) {
        const pos = (await cmd('getposition')).slice('position '.length);
        const row = [];
        for (const d of depths) {
            await cmd('position ' + pos);
            const c0 = cpu();
            await cmd(`go depth=${d} threads=1 movetime=30000`);
            row.push((cpu() - c0).toFixed(2) + ' s');
        }
        console.log(`| ${ply} | ${row.join(' | ')} |`);
    }
    const best = await cmd('go level=8');
    if (!best.startsWith('bestmove')) {
        console.log(`\ngame over after ${ply} plies`);
        break;
    }
    await cmd('play ' + best.split(' ')[1]);
}
await cmd('quit');
