// The live scoreboard: victory points so far (R-TURN-2: objectives held, enemy units
// destroyed, own units lost) as far as the seat may know them by rule — its side's view of
// the objectives (own units present, enemy seen), the enemy units its log says were
// destroyed, its own losses. The GM's view holds everything, so its board is exact. After
// the game the server's final score (game_over) replaces the estimate. Pure functions.

import type { EventView, GameView } from "./types";

export interface Victory {
  destroyed_enemy_vp: number;
  own_loss_vp: number;
}

export type Holder = "blue" | "red" | "contested" | null;

export interface ObjectiveScore {
  id: string;
  name: { fi: string; en: string };
  vp: number;
  holder: Holder;
  /** How the holder was read: "seen" (units there now), "start" (nobody there, the
   * holder at the start keeps it), "exact" (the GM's view). */
  how: "seen" | "start" | "exact";
}

export interface SideScore {
  objectives: number;
  destroyed_enemy: number;
  own_losses: number;
  total: number;
  /** Units: enemy destroyed, own lost. */
  kills: number;
  lost: number;
}

export interface Board {
  objectives: ObjectiveScore[];
  sides: Record<"blue" | "red", SideScore>;
  /** True when every number is known exactly (the GM, or the final score). */
  exact: boolean;
}

const other = (s: string): "blue" | "red" => (s === "blue" ? "red" : "blue");

/** Enemy units the side's log reports destroyed (each once). */
export function killsInLog(log: readonly EventView[], side: string, own: ReadonlySet<string>): number {
  const seen = new Set<string>();
  for (const e of log) {
    if (e.kind !== "destroyed") continue;
    const u = e.data["unit"];
    const key = typeof u === "string" ? u : u && typeof u === "object" ? String((u as Record<string, unknown>)["contact"] ?? "") : "";
    if (!key || own.has(key)) continue;
    seen.add(key);
  }
  void side;
  return seen.size;
}

function sideScore(objectives: number, kills: number, lost: number, v: Victory | null): SideScore {
  const destroyed_enemy = v ? kills * v.destroyed_enemy_vp : 0;
  const own_losses = v ? lost * v.own_loss_vp : 0;
  return { objectives, destroyed_enemy, own_losses, total: objectives + destroyed_enemy + own_losses, kills, lost };
}

/** The board for the view `v` (a side's, a seat's or the GM's). */
export function scoreboard(v: GameView, victory: Victory | null): Board {
  const objectives: ObjectiveScore[] = v.objectives.map((o) => {
    let holder: Holder;
    let how: ObjectiveScore["how"];
    if (v.side === null || o.occupied_by) {
      const here = new Set(o.occupied_by ?? []);
      how = here.size ? "exact" : "start";
      holder = here.size === 1 ? ([...here][0] as "blue" | "red") : here.size > 1 ? "contested" : ((o.holder_at_start as Holder) ?? null);
    } else if (o.own_present && o.enemy_seen) {
      holder = "contested";
      how = "seen";
    } else if (o.own_present) {
      holder = v.side as "blue" | "red";
      how = "seen";
    } else if (o.enemy_seen) {
      holder = other(v.side);
      how = "seen";
    } else {
      holder = (o.holder_at_start as Holder) ?? null;
      how = "start";
    }
    return { id: o.id, name: o.name, vp: o.vp, holder, how };
  });
  const held = (s: string) => objectives.filter((o) => o.holder === s).reduce((n, o) => n + o.vp, 0);
  const destroyed = (v["destroyed"] ?? {}) as Record<string, unknown>;
  const list = (x: unknown) => (Array.isArray(x) ? x.length : 0);
  let blueLost: number;
  let redLost: number;
  if (v.side === null) {
    blueLost = list(destroyed["blue"]);
    redLost = list(destroyed["red"]);
  } else {
    const own = new Set(v.units.filter((u) => u.side === v.side).map((u) => u.id));
    const lostOwn = Array.isArray(destroyed["own"]) ? (destroyed["own"] as string[]) : [];
    for (const id of lostOwn) own.add(id);
    const kills = killsInLog(v.log, v.side, own);
    blueLost = v.side === "blue" ? lostOwn.length : kills;
    redLost = v.side === "red" ? lostOwn.length : kills;
  }
  return {
    objectives,
    sides: {
      blue: sideScore(held("blue"), redLost, blueLost, victory),
      red: sideScore(held("red"), blueLost, redLost, victory),
    },
    exact: v.side === null,
  };
}

/** The final score from the game's `game_over` event (every side sees it), if any. */
export function finalScore(log: readonly EventView[]): {
  winner: string; reason: string; vp: Record<string, number>;
  detail: Record<string, { objectives?: number; destroyed_enemy?: number; own_losses?: number }>;
  holders: Record<string, string | null>;
} | null {
  const e = [...log].reverse().find((x) => x.kind === "game_over");
  if (!e) return null;
  const d = e.data;
  const detail = (d["detail"] ?? {}) as Record<string, unknown>;
  const out: Record<string, { objectives?: number; destroyed_enemy?: number; own_losses?: number }> = {};
  for (const s of ["blue", "red"]) {
    const x = detail[s];
    if (x && typeof x === "object") out[s] = x as { objectives?: number; destroyed_enemy?: number; own_losses?: number };
  }
  return {
    winner: String(d["winner"] ?? ""),
    reason: String(d["reason"] ?? ""),
    vp: (d["vp"] ?? {}) as Record<string, number>,
    detail: out,
    holders: (detail["objectives"] ?? {}) as Record<string, string | null>,
  };
}
