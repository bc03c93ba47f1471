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

export function oddsPanel(order: string, answer: Json): HTMLElement {
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
