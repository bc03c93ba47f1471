// The event log: each event the seat may see (its own copies from the server), with every
// die rolled shown as the dice, the kept dice and the total.

import { h } from "./dom";
import { lang } from "./i18n";
import type { EventView } from "./types";

interface Roll {
  purpose?: string;
  expr?: string;
  dice?: number[];
  kept?: number[];
  modifier?: number;
  total?: number;
}

const KIND_FI: Record<string, string> = {
  game_started: "Peli alkoi", turn_started: "Vuoro alkoi", turn_ended: "Vuoro päättyi",
  phase: "Vaihe", order: "Käsky", move: "Liike", attack: "Tulitus", damage: "Vahinko",
  morale: "Moraali", status: "Tila", destroyed: "Tuhottu", contact: "Havainto",
  recon: "Tiedustelu", recon_report: "Tiedusteluraportti", kp: "KP", seat_done: "Valmis",
  rally: "Moraalin kohotus", tactic: "Taktiikka", kp_transfer: "KP-siirto",
  game_over: "Peli päättyi", setback: "Takaisku", hidden: "Piiloutui",
  mine_found: "Miinoite löytyi", mine_clear: "Miinanraivaus", mine_rush: "Rynnistys",
  strike_ordered: "Tuli-isku tilattu", strike_boosted: "Tuli-isku tehostettu",
  strike_landed: "Tuli-isku", strike_hit: "Tuli-iskun osuma", undo: "Peruttu",
};

export function eventTitle(ev: EventView): string {
  return lang() === "fi" ? (KIND_FI[ev.kind] ?? ev.kind) : ev.kind.replace(/_/g, " ");
}

/** A short one-line summary of an event's data (ids, cells, outcome), without the rolls. */
export function eventSummary(ev: EventView): string {
  const parts: string[] = [];
  for (const [k, v] of Object.entries(ev.data)) {
    if (k === "rolls" || v === null || v === undefined || v === "" ) continue;
    if (Array.isArray(v) && v.length === 0) continue;
    if (Array.isArray(v) && v.length === 2 && typeof v[0] === "number") parts.push(`${k} ${v[0]},${v[1]}`);
    else if (typeof v === "object") parts.push(`${k} ${compact(v)}`);
    else parts.push(`${k} ${String(v)}`);
  }
  return parts.join(" · ");
}

function compact(v: unknown): string {
  if (Array.isArray(v)) return v.map(compact).join(" ");
  if (v && typeof v === "object") {
    return Object.entries(v as Record<string, unknown>).map(([k, x]) => `${k}=${compact(x)}`).join(",");
  }
  return String(v);
}

export function rollsOf(ev: EventView): Roll[] {
  const r = ev.data["rolls"];
  return Array.isArray(r) ? (r as Roll[]) : [];
}

export function eventRow(ev: EventView, index: number): HTMLElement {
  const rolls = rollsOf(ev);
  return h(
    "li",
    { class: `ev ev-${ev.kind}`, "data-kind": ev.kind },
    h("span", { class: "ev-seq" }, `${index + 1}.`),
    " ",
    h("strong", {}, eventTitle(ev)),
    " ",
    h("span", { class: "ev-data" }, eventSummary(ev)),
    ...rolls.map((r) =>
      h(
        "span",
        { class: "die", title: r.purpose ?? "" },
        `🎲 ${r.expr ?? ""} [${(r.dice ?? []).join(",")}]` +
          (r.kept && r.dice && r.kept.length !== r.dice.length ? ` → [${r.kept.join(",")}]` : "") +
          (r.modifier ? ` ${r.modifier > 0 ? "+" : ""}${r.modifier}` : "") +
          ` = ${r.total ?? ""}`,
      ),
    ),
  );
}
