// wasi.ts — the few WASI calls libtavoliere's WebAssembly build imports
// (wasi_snapshot_preview1), written by hand: the clocks (the search's time
// budget), writes to standard output and error (the benchmark's lines, a
// message), random bytes, and the exit.  Nothing else is offered: files,
// the environment and arguments are empty.

const ERRNO_SUCCESS = 0;
const ERRNO_BADF = 8;
const ERRNO_NOSYS = 52;
const ERRNO_SPIPE = 70;

export class WasiExit extends Error {
  constructor(public code: number) {
    super(`the engine exited (${code})`);
  }
}

// `memory` is read at each call (it is the instance's, known only once it
// exists, and its buffer changes when it grows); `write` receives the text
// written to fd 1 or 2.
export function wasiImports(memory: () => WebAssembly.Memory, write: (fd: number, text: string) => void): Record<string, WebAssembly.ImportValue> {
  const dec = new TextDecoder();
  const view = () => new DataView(memory().buffer);
  const now = (id: number): bigint => {
    // 0 = realtime, else monotonic (nanoseconds)
    const ms = id === 0 ? Date.now() : performance.now();
    return BigInt(Math.round(ms * 1e6));
  };
  return {
    clock_time_get(id: number, _precision: bigint, out: number): number {
      view().setBigUint64(out, now(id), true);
      return ERRNO_SUCCESS;
    },
    clock_res_get(_id: number, out: number): number {
      view().setBigUint64(out, 1000n, true);
      return ERRNO_SUCCESS;
    },
    fd_write(fd: number, iovs: number, n: number, written: number): number {
      if (fd !== 1 && fd !== 2) return ERRNO_BADF;
      const v = view();
      let total = 0, text = "";
      for (let i = 0; i < n; i++) {
        const p = v.getUint32(iovs + i * 8, true), len = v.getUint32(iovs + i * 8 + 4, true);
        text += dec.decode(new Uint8Array(memory().buffer, p, len));
        total += len;
      }
      v.setUint32(written, total, true);
      write(fd, text);
      return ERRNO_SUCCESS;
    },
    fd_close: (): number => ERRNO_SUCCESS,
    fd_seek: (): number => ERRNO_SPIPE,
    fd_fdstat_get(fd: number, out: number): number {
      if (fd > 2) return ERRNO_BADF;
      const v = view();
      for (let i = 0; i < 24; i++) v.setUint8(out + i, 0);
      v.setUint8(out, 2);   // a character device: line-buffered text
      return ERRNO_SUCCESS;
    },
    random_get(p: number, len: number): number {
      const b = new Uint8Array(memory().buffer, p, len);
      for (let i = 0; i < len; i += 65536) crypto.getRandomValues(b.subarray(i, Math.min(len, i + 65536)));
      return ERRNO_SUCCESS;
    },
    environ_sizes_get(count: number, size: number): number {
      view().setUint32(count, 0, true);
      view().setUint32(size, 0, true);
      return ERRNO_SUCCESS;
    },
    environ_get: (): number => ERRNO_SUCCESS,
    args_sizes_get(count: number, size: number): number {
      view().setUint32(count, 0, true);
      view().setUint32(size, 0, true);
      return ERRNO_SUCCESS;
    },
    args_get: (): number => ERRNO_SUCCESS,
    poll_oneoff: (): number => ERRNO_NOSYS,
    sched_yield: (): number => ERRNO_SUCCESS,
    proc_exit(code: number): never {
      throw new WasiExit(code);
    },
  };
}
