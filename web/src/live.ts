// live.ts — the game's WebSocket (/api/games/ID/live): every message with an
// "id" is the game's JSON.  When the socket drops it reconnects with a growing
// delay and sends {"since": N} so the server sends the game again if it moved
// on meanwhile.  A ping every 25 s keeps the connection from idling out.
// It asks for presence (?presence=1): {"type": "presence"} messages say
// which seats have a page open.

import type { Game, Presence } from "./types";

export class Live {
  private ws: WebSocket | null = null;
  private closed = false;
  private delay = 500;
  private pingTimer = 0;
  private retryTimer = 0;

  constructor(
    private id: string,
    private seat: string | null,
    private since: () => number,
    private onGame: (g: Game) => void,
    private onState: (connected: boolean) => void,
    private onPresence: (p: Presence) => void = () => {},
  ) {
    this.open();
  }

  private url(): string {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const q = `?presence=1${this.seat ? `&seat=${encodeURIComponent(this.seat)}` : ""}`;
    return `${proto}//${location.host}/api/games/${encodeURIComponent(this.id)}/live${q}`;
  }

  private open(): void {
    if (this.closed) return;
    let ws: WebSocket;
    try {
      ws = new WebSocket(this.url());
    } catch {
      this.retry();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      this.delay = 500;
      this.onState(true);
      try {
        ws.send(JSON.stringify({ since: this.since() }));
      } catch {
        /* closing anyway */
      }
      window.clearInterval(this.pingTimer);
      this.pingTimer = window.setInterval(() => {
        if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ type: "ping" }));
      }, 25000);
    };
    ws.onmessage = (ev) => {
      let data: unknown;
      try {
        data = JSON.parse(String(ev.data));
      } catch {
        return;
      }
      if (data && typeof data === "object" && "id" in data && "moves" in data) this.onGame(data as Game);
      else if (data && typeof data === "object" && (data as { type?: string }).type === "presence") {
        const p = data as Presence;
        this.onPresence({ white: !!p.white, black: !!p.black });
      }
    };
    ws.onclose = () => {
      window.clearInterval(this.pingTimer);
      if (this.ws === ws) this.ws = null;
      if (!this.closed) {
        this.onState(false);
        this.retry();
      }
    };
    ws.onerror = () => {
      /* onclose follows */
    };
  }

  private retry(): void {
    window.clearTimeout(this.retryTimer);
    this.retryTimer = window.setTimeout(() => this.open(), this.delay);
    this.delay = Math.min(this.delay * 2, 10000);
  }

  close(): void {
    this.closed = true;
    window.clearInterval(this.pingTimer);
    window.clearTimeout(this.retryTimer);
    if (this.ws) this.ws.close();
    this.ws = null;
  }
}
