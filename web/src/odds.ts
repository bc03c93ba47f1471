// The odds panel: what the server's odds endpoint answers for an order (the exact odds of
// each degree, expected damage and every modifier with its rule ID). Drawn as a stacked bar
// with the percentages, then the modifier list. The client computes nothing here.

import { h } from "./dom";
import { lang, num, pct } from "./i18n";

const DEGREES: readonly [string, string, string, string][] = [
  // key, fi, en, colour
  ["heavy_hit", "Raskas osuma", "Heavy hit", "#8e0000"],
  ["hit", "Osuma", "Hit", "#d84315"],
  ["pinning", "Sitova", "Pinning", "#f9a825"],
  ["miss", "Ohi", "Miss", "#9e9e9e"],
];

type Json = Record<string, unknown>;

function asNumber(v: unknown): number | null {
  if (typeof v === "number") return v;
  if (typeof v === "string" && /^-?\d+(\.\d+)?$/.test(v)) return Number(v);
  if (typeof v === "string" && /^\d+\/\d+$/.test(v)) {
    const [a, b] = v.split("/").map(Number) as [number, number];
    return a / b;
  }
  return null;
}

/** The degrees' probabilities, wherever the answer keeps them (`outcomes`, `odds` or top level). */
export function degreesOf(answer: Json): Record<string, number> {
  const inner = answer["odds"] as Json | undefined;
  const pools = [inner?.["outcomes"], answer["outcomes"], inner, answer];
  for (const pool of pools) {
    if (!pool || typeof pool !== "object") continue;
    const p = pool as Json;
    const out: Record<string, number> = {};
    for (const [key] of DEGREES) {
      const v = asNumber(p[key] ?? p[key.toUpperCase()]);
      if (v !== null) out[key] = v;
    }
    if (Object.keys(out).length === DEGREES.length) return out;
  }
  return {};
}

interface Modifier {
  name: string;
  value: number | string;
  rule?: string;
}

export function modifiersOf(answer: Json): Modifier[] {
  const m = answer["terms"] ?? answer["modifiers"];
  if (!Array.isArray(m)) return [];
  return m.map((x): Modifier => {
    if (Array.isArray(x)) return { name: String(x[0]), value: x[1] as number, rule: x[2] as string | undefined };
    const o = x as Json;
    return {
      name: String(o["name"] ?? o["label"] ?? o["id"] ?? ""),
      value: (o["value"] ?? o["amount"] ?? "") as number | string,
      rule: (o["rule"] ?? o["rule_id"]) as string | undefined,
    };
  });
}

/** A fire request's estimate (`organic`/`strike`): weapon, the delay before it lands (the
 * rule's range; the real off-board delay is a secret roll), the area, the chance the aimed
 * cell is hit, and every known unit at risk (own ones first: danger close). */
export function strikePanel(order: string, answer: Json): HTMLElement {
  const en = lang() === "en";
  const o = (answer["odds"] ?? {}) as Json;
  const delay = (o["delay"] ?? null) as { min?: number; max?: number; secret?: boolean; skilled?: boolean; rule?: string } | null;
  const area = Array.isArray(o["area"]) ? (o["area"] as unknown[]).length : 0;
  const pAim = asNumber(o["p_aimed_hit"]);
  const exposures = (Array.isArray(o["exposures"]) ? o["exposures"] : []) as Json[];
  const turns = (n: number) => (en ? `${n} own turn${n === 1 ? "" : "s"}` : `${n} oma${n === 1 ? "" : "a"} vuoro${n === 1 ? "" : "a"}`);
  let delayText = "";
  if (delay && typeof delay.min === "number" && typeof delay.max === "number") {
    const span = delay.min === delay.max ? turns(delay.min) : `${delay.min}–${turns(delay.max)}`;
    delayText = `${en ? "Delay" : "Viive"}: ${span}` +
      (delay.secret ? (en ? " (rolled in secret when ordered)" : " (heitetään salaa tilattaessa)") : "") +
      (delay.skilled ? (en ? ", skilled observer −1" : ", taitava tähystäjä −1") : "") +
      (delay.rule ? ` (${delay.rule})` : "");
  }
  return h(
    "section",
    { class: "odds strike", "aria-live": "polite", "data-order": order },
    h("h3", {}, en ? "Fire request" : "Tulipyyntö", " — ", h("code", {}, order)),
    h("p", {}, `${en ? "Weapon" : "Ase"}: ${String(o["weapon"] ?? "")}`),
    delayText ? h("p", { class: "delay", id: "strike-delay" }, delayText) : null,
    h("p", {}, `${en ? "Area" : "Alue"}: ${area} ${en ? "cells" : "ruutua"}` +
      (o["scatter"] ? ` · ${en ? "scatter" : "hajonta"} ${String(o["scatter"])}` : "")),
    pAim !== null ? h("p", {}, `${en ? "Aimed cell hit" : "Maaliruutuun osuu"}: ${pct(pAim)}`) : null,
    exposures.length
      ? h("ul", { class: "mods" }, ...exposures
        .sort((a, b) => Number(b["own"] === true) - Number(a["own"] === true))
        .map((e) => h("li", { class: e["own"] ? "own-risk" : "" },
          `${String(e["unit"])}${e["own"] ? (en ? " (own!)" : " (oma!)") : ""}: ${en ? "hit" : "osuma"} ${pct(asNumber(e["p_hit"]) ?? 0)}, ${en ? "morale test" : "moraalitesti"} ${pct(asNumber(e["p_morale_test"]) ?? 0)}`)))
      : null,
  );
}

export function oddsPanel(order: string, answer: Json): HTMLElement {
  if (answer["kind"] === "organic" || answer["kind"] === "strike") return strikePanel(order, answer);
  const deg = degreesOf(answer);
  const en = lang() === "en";
  const bar = h("div", { class: "odds-bar", role: "img", "aria-label": DEGREES.map(([k, fi, e]) => `${en ? e : fi} ${pct(deg[k] ?? 0)}`).join(", ") });
  for (const [key, , , colour] of DEGREES) {
    const p = deg[key] ?? 0;
    if (p <= 0) continue;
    bar.append(h("span", { style: `width:${(p * 100).toFixed(2)}%;background:${colour}` }));
  }
  const legend = h("ul", { class: "odds-legend" });
  for (const [key, fi, e, colour] of DEGREES) {
    legend.append(h("li", { "data-degree": key }, h("span", { class: "swatch", style: `background:${colour}` }), ` ${en ? e : fi} `, h("b", {}, pct(deg[key] ?? 0))));
  }
  const inner = (answer["odds"] ?? {}) as Json;
  const exp = asNumber(inner["expected_damage"] ?? answer["expected_damage"]);
  const mods = modifiersOf(answer);
  return h(
    "section",
    { class: "odds", "aria-live": "polite", "data-order": order },
    h("h3", {}, en ? "Odds" : "Todennäköisyydet", " — ", h("code", {}, order)),
    Object.keys(deg).length ? bar : null,
    Object.keys(deg).length ? legend : null,
    exp !== null ? h("p", {}, `${en ? "Expected damage" : "Odotettu vahinko"}: ${num(exp, 2)}`) : null,
    mods.length
      ? h(
          "ul",
          { class: "mods" },
          ...mods.map((m) =>
            h(
              "li",
              {},
              `${m.name} ${typeof m.value === "number" && m.value > 0 ? "+" : ""}${m.value}`,
              m.rule ? h("span", { class: "rule" }, ` (${m.rule})`) : null,
            ),
          ),
        )
      : null,
    ...extraLines(inner),
  );
}

function extraLines(answer: Json): HTMLElement[] {
  const skip = new Set(["outcomes", "expected_damage", "attacker", "target", ...DEGREES.map((d) => d[0])]);
  const out: HTMLElement[] = [];
  for (const [k, v] of Object.entries(answer)) {
    if (skip.has(k) || v === null || typeof v === "object") continue;
    out.push(h("p", { class: "odds-extra" }, `${k}: ${String(v)}`));
  }
  return out;
}
