// The server's HTTP and WebSocket API (issue 10), for one seat token. The token is read from
// the seat link and sent only as `Authorization: Bearer` (never in a URL the page requests,
// never stored: the link itself is the key).

import type { components } from "./api-types";
import type { EventView, GameView, MapData } from "./types";

type Schemas = components["schemas"];
export type OddsOut = Schemas["OddsOut"];
export type LosOut = Schemas["LosOut"];
export type GameCreated = Schemas["GameCreated"];
export type ScenarioOut = Schemas["ScenarioOut"];
export type ScenarioDetailOut = Schemas["ScenarioDetailOut"];
export type RevealOut = Schemas["RevealOut"];

export interface Seat {
  game: string;
  token: string;
}

/** The game id and token of a seat link: `/g/ID#TOKEN`, `/g/ID?token=T`, `#/g/ID/TOKEN`, or
 * `?game=ID&token=T` (the token in the fragment is never sent to any server). */
export function seatFromLocation(loc: { pathname: string; search: string; hash: string }): Seat | null {
  const q = new URLSearchParams(loc.search);
  const h = loc.hash.replace(/^#\/?/, "");
  const hq = new URLSearchParams(h.includes("=") ? h : "");
  const pathGame = /\/(?:g|games|game|play|table)\/([^/?#]+)/.exec(loc.pathname)?.[1];
  const hashPath = /^(?:g|games|game|play|table)\/([^/?#]+)\/([^/?#]+)/.exec(h);
  const game = pathGame ?? hashPath?.[1] ?? q.get("game") ?? hq.get("game");
  const token = hq.get("token") ?? q.get("token") ?? hashPath?.[2] ?? (h && !h.includes("=") && !h.includes("/") ? h : null);
  if (!game || !token) return null;
  return { game: decodeURIComponent(game), token: decodeURIComponent(token) };
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly text: { fi: string; en: string },
    readonly body: unknown,
  ) {
    super(text.en);
  }
}

export async function answer<T>(res: Response): Promise<T> {
  const text = await res.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = text;
  }
  if (!res.ok) {
    const err = (body as { error?: { code?: string; message?: unknown } } | null)?.error;
    const msg = err?.message;
    const both =
      typeof msg === "object" && msg !== null
        ? (msg as { fi: string; en: string })
        : { fi: String(msg ?? res.statusText), en: String(msg ?? res.statusText) };
    throw new ApiError(res.status, err?.code ?? String(res.status), both, body);
  }
  return body as T;
}

export class GameApi {
  constructor(readonly seat: Seat) {}

  private get base(): string {
    return `/api/games/${encodeURIComponent(this.seat.game)}`;
  }

  private headers(extra: Record<string, string> = {}): Record<string, string> {
    return { Authorization: `Bearer ${this.seat.token}`, ...extra };
  }

  async get<T>(path: string): Promise<T> {
    return answer<T>(await fetch(this.base + path, { headers: this.headers() }));
  }

  /** The seat's view and its legal orders at that version (one request). */
  async view(): Promise<{ version: number; view: GameView; orders: string[] }> {
    const out = await this.get<Schemas["SeatViewOut"]>("/view");
    return { version: out.version, view: out.view as unknown as GameView, orders: out.orders };
  }

  async viewAs(side: string): Promise<{ version: number; view: GameView }> {
    const out = await this.get<Schemas["ViewOut"]>(`/view-as?side=${encodeURIComponent(side)}`);
    return { version: out.version, view: out.view as unknown as GameView };
  }

  map(): Promise<MapData> {
    return this.get<Schemas["MapOut"]>("/map");
  }

  orders(): Promise<Schemas["OrdersOut"]> {
    return this.get("/orders");
  }

  cost(order: string): Promise<Schemas["CostOut"]> {
    return this.get(`/cost?order=${encodeURIComponent(order)}`);
  }

  odds(order: string): Promise<OddsOut> {
    return this.get(`/odds?order=${encodeURIComponent(order)}`);
  }

  los(from: readonly [number, number], to: readonly [number, number]): Promise<LosOut> {
    return this.get(`/los?from=${from[0]},${from[1]}&to=${to[0]},${to[1]}`);
  }

  events(after: number): Promise<Schemas["ChangesOut"]> {
    return this.get(`/events?after=${after}`);
  }

  reveal(): Promise<RevealOut> {
    return this.get("/reveal");
  }

  /** The game file (`tk20 replay` reads it): every seat after the end. */
  exportGame(): Promise<{ seed?: string; state?: { events?: EventView[] } | null; seed_commitment?: string }> {
    return this.get("/export");
  }

  undo(): Promise<Schemas["Change"]> {
    return this.post("/undo");
  }

  async order(order: string, version: number): Promise<Schemas["Change"]> {
    const key = crypto.randomUUID ? crypto.randomUUID() : `${Date.now()}-${Math.random()}`;
    return answer(
      await fetch(`${this.base}/orders`, {
        method: "POST",
        headers: this.headers({ "Content-Type": "application/json", "Idempotency-Key": key }),
        body: JSON.stringify({ order, version } satisfies Schemas["OrderPost"]),
      }),
    );
  }

  async post<T>(path: string, body: unknown = {}): Promise<T> {
    return answer<T>(
      await fetch(this.base + path, {
        method: "POST",
        headers: this.headers({ "Content-Type": "application/json" }),
        body: JSON.stringify(body),
      }),
    );
  }

  /** A live connection: every change as `{version, events}`; `onChange` is called for each,
   * and on every (re)connect with the version it resumed after. Reconnects with back-off. */
  live(
    after: () => number,
    onMessage: (msg: { version: number; events?: EventView[] }) => void,
    onState: (connected: boolean) => void,
  ): () => void {
    let ws: WebSocket | null = null;
    let closed = false;
    let delay = 250;
    const open = () => {
      if (closed) return;
      const proto = location.protocol === "https:" ? "wss:" : "ws:";
      ws = new WebSocket(`${proto}//${location.host}${this.base}/ws?after=${after()}`);
      ws.onopen = () => {
        delay = 250;
        ws?.send(JSON.stringify({ token: this.seat.token, after: after() }));
        onState(true);
      };
      ws.onmessage = (ev) => {
        try {
          const msg = JSON.parse(String(ev.data)) as { version?: number; events?: EventView[] };
          if (typeof msg.version === "number") onMessage({ version: msg.version, events: msg.events });
        } catch {
          /* not ours: ignore */
        }
      };
      ws.onclose = () => {
        onState(false);
        if (!closed) {
          setTimeout(open, delay);
          delay = Math.min(4000, delay * 2);
        }
      };
    };
    open();
    return () => {
      closed = true;
      ws?.close();
    };
  }
}

export async function listScenarios(): Promise<ScenarioOut[]> {
  return answer(await fetch("/api/scenarios"));
}

export async function scenarioDetail(id: string): Promise<ScenarioDetailOut> {
  return answer(await fetch(`/api/scenarios/${encodeURIComponent(id)}`));
}

export async function createGame(body: Schemas["GameCreate"]): Promise<GameCreated> {
  return answer(
    await fetch("/api/games", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    }),
  );
}
