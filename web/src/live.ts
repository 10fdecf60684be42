// live.ts — the page's WebSockets.  LiveSocket keeps one open: when it drops
// it reconnects with a growing delay, a ping every 25 s keeps it from idling
// out, and each message is handed over parsed.  Live is the game's socket
// (/api/games/ID/live): every message with an "id" is the game's JSON; on
// each (re)connection it sends {"since": N} so the server sends the game
// again if it moved on meanwhile; it asks for presence (?presence=1):
// {"type": "presence"} messages say which seats have a page open.

import type { Game, Presence } from "./types";

export class LiveSocket {
  private ws: WebSocket | null = null;
  private closed = false;
  private delay = 500;
  private pingTimer = 0;
  private retryTimer = 0;

  // path: the socket's address on this host ("/api/lobby"); onOpen may send.
  constructor(
    private path: string,
    private onData: (data: unknown) => void,
    private onState: (connected: boolean) => void,
    private onOpen: (send: (msg: unknown) => void) => void = () => {},
  ) {
    this.open();
  }

  private open(): void {
    if (this.closed) return;
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    let ws: WebSocket;
    try {
      ws = new WebSocket(`${proto}//${location.host}${this.path}`);
    } catch {
      this.retry();
      return;
    }
    this.ws = ws;
    const send = (msg: unknown) => {
      try {
        if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(msg));
      } catch {
        /* closing anyway */
      }
    };
    ws.onopen = () => {
      this.delay = 500;
      this.onState(true);
      this.onOpen(send);
      window.clearInterval(this.pingTimer);
      this.pingTimer = window.setInterval(() => send({ type: "ping" }), 25000);
    };
    ws.onmessage = (ev) => {
      let data: unknown;
      try {
        data = JSON.parse(String(ev.data));
      } catch {
        return;
      }
      // The server drains before it stops (SIGTERM): reconnect at once.
      if (data && typeof data === "object" && (data as { type?: string }).type === "restarting") {
        this.delay = 250;
        return;
      }
      this.onData(data);
    };
    ws.onclose = (ev) => {
      window.clearInterval(this.pingTimer);
      if (this.ws === ws) this.ws = null;
      // 1001 "going away": the server is restarting (it drains on SIGTERM);
      // another instance, or the same one back, answers at once.
      if (ev.code === 1001) this.delay = 250;
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

export class Live {
  private sock: LiveSocket;

  constructor(
    id: string,
    seat: string | null,
    since: () => number,
    onGame: (g: Game) => void,
    onState: (connected: boolean) => void,
    onPresence: (p: Presence) => void = () => {},
    onOther: (data: unknown) => void = () => {},   // any other message (chat.ts: {"type": "chat"})
  ) {
    const q = `?presence=1${seat ? `&seat=${encodeURIComponent(seat)}` : ""}`;
    this.sock = new LiveSocket(`/api/games/${encodeURIComponent(id)}/live${q}`, (data) => {
      if (data && typeof data === "object" && "id" in data && "moves" in data) onGame(data as Game);
      else if (data && typeof data === "object" && (data as { type?: string }).type === "presence") {
        const p = data as Presence;
        onPresence({ white: !!p.white, black: !!p.black });
      } else onOther(data);
    }, onState, (send) => send({ since: since() }));
  }

  close(): void {
    this.sock.close();
  }
}
