// The GM's scenario editor (issue 14), at `/#editor`: start from a scenario on the server or
// an empty W×H map; paint terrain, heights and roads; place Blue platoons and Red battle
// groups from the unit cards; objectives with VP, minefields, fortified cells, fire support,
// rule options, title and briefing in both languages. Every change is validated by the
// server with the loader `tk20` uses (file, key, line, problem); save as TOML or publish
// to the server's scenario folder.

import "./editor.css";
import { clear, h } from "./dom";
import { fitViewport, cellAt, type Viewport } from "./geometry";
import { lang, setLang, type Lang } from "./i18n";
import { MapRenderer, type Layers, type Scene } from "./render";
import type { MapData } from "./types";
import {
  addObjective, allUnits, classifyPicture, eraseRoad, fullLegend, groups, IMPORT_COLOURS, importTerrain,
  minefieldCells, minefields, objectives, paint, placeUnit, problemCells, raise, removeUnitsAt, secrets,
  toggleFortified, toggleMinefield, toggleObjectiveCell,
  type EditorModel, type Rgb, type TerrainInfo,
} from "./editor-model";

interface Card { id: string; fi: string; en: string; side: string; role: string }
interface OptionInfo { name: string; rule: string; kind: string; value: unknown; choices: unknown[] | null; fi: string; en: string }
interface Catalog {
  terrain: TerrainInfo[];
  legend: Record<string, string[]>;
  cards: Card[];
  options: OptionInfo[];
  scenarios: { id: string; bundled: boolean }[];
  playtest: boolean;
  playtest_max_games: number;
  publish: boolean;
}
interface Problem { file: string; key: string; line: number | null; problem: string }

type Tool = "terrain" | "road" | "noroad" | "raise" | "lower" | "unit" | "erase" | "objective" | "mine" | "fort";

const WORDS = {
  editor: ["Skenaarioeditori", "Scenario editor"],
  open: ["Avaa", "Open"],
  empty: ["Uusi tyhjä kartta", "New empty map"],
  tools: ["Työkalut", "Tools"],
  terrain: ["Maasto", "Terrain"],
  road: ["Tie", "Road"],
  noroad: ["Poista tie", "Remove road"],
  raise: ["Nosta maata", "Raise ground"],
  lower: ["Laske maata", "Lower ground"],
  unit: ["Yksikkö", "Unit"],
  erase: ["Poista yksiköt", "Remove units"],
  objective: ["Tavoite", "Objective"],
  mine: ["Miinoite", "Minefield"],
  fort: ["Linnoitettu ruutu", "Fortified cell"],
  brush: ["Sivellin", "Brush"],
  force: ["Joukko", "Force"],
  card: ["Yksikkökortti", "Unit card"],
  new_objective: ["Uusi tavoite", "New objective"],
  title: ["Nimi", "Title"],
  briefing: ["Tilannekatsaus", "Briefing"],
  rounds: ["Kierroksia", "Rounds"],
  first_side: ["Aloittaja", "First side"],
  fire_support: ["Tulituki", "Fire support"],
  requests: ["Epäsuoran tulen pyyntöjä", "Off-board requests"],
  organic: ["Oman epäsuoran tulen laukauksia", "Organic fire support rounds"],
  options: ["Sääntövalinnat", "Rule options"],
  add: ["Lisää", "Add"],
  remove: ["Poista", "Remove"],
  problems: ["Tarkistus", "Validation"],
  valid: ["Kelpaa: tk20 lataa skenaarion.", "Valid: tk20 loads the scenario."],
  checking: ["Tarkistetaan…", "Checking…"],
  save: ["Tallenna TOML", "Save TOML"],
  publish: ["Julkaise palvelimelle", "Publish to the server"],
  published: ["Julkaistu: pelin voi aloittaa aulasta.", "Published: start a game from the lobby."],
  edit_key: [
    "Muokkausavain (säilytä: vain sillä skenaarion asetelma avautuu editoriin muualla)",
    "Edit key (keep it: only with it does the scenario's set-up open in the editor elsewhere)",
  ],
  ask_key: [
    "Skenaarion asetelma on pelinjohtajan. Anna julkaisun antama muokkausavain:",
    "The scenario's set-up is the game master's. Give the edit key its publishing gave:",
  ],
  import: ["Tuo kartta kuvasta", "Import a map from a picture"],
  width: ["Leveys", "Width"],
  height: ["Korkeus", "Height"],
  playtest: ["Koepeli", "Play test"],
  games: ["pelejä", "games"],
  running: ["Pelataan…", "Playing…"],
  blue_wins: ["Sininen voittaa", "Blue wins"],
  red_wins: ["Punainen voittaa", "Red wins"],
  draws: ["Tasapeli", "Draw"],
  mean_vp: ["VP keskimäärin", "Mean VP"],
  mean_rounds: ["Kierroksia keskimäärin", "Mean rounds"],
  playtest_off: [
    "Koepeli (tasapainoluvut) ei ole vielä käytössä tällä palvelimella.",
    "Play test (balance figures) is not available on this server yet.",
  ],
  id: ["Tunnus", "Id"],
  vp: ["VP", "VP"],
  blue: ["Sininen", "Blue"],
  red: ["Punainen", "Red"],
} as const;

type WordKey = keyof typeof WORDS;

function w(key: WordKey): string {
  const pair = WORDS[key];
  return lang() === "en" ? pair[1] : pair[0];
}

async function call<T>(url: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> {
  const res = await fetch(url, body === undefined ? { headers } : {
    method: "POST", headers: { "Content-Type": "application/json", ...headers }, body: JSON.stringify(body),
  });
  const text = await res.text();
  const data: unknown = text ? JSON.parse(text) : null;
  if (!res.ok) {
    const err = (data as { error?: { code?: string; message?: { fi: string; en: string }; problems?: Problem[] } } | null)?.error;
    const msg = err?.message ? (lang() === "en" ? err.message.en : err.message.fi) : res.statusText;
    throw Object.assign(new Error(msg), { problems: err?.problems ?? [], code: err?.code ?? "" });
  }
  return data as T;
}

/** The edit keys this browser was given for the scenarios it published (localStorage
 * "tk20.editKeys": scenario id → key). A published scenario's set-up is its GM's secret:
 * the server opens it in the editor only with its key. */
const EDIT_KEYS = "tk20.editKeys";

function editKeys(): Record<string, string> {
  try {
    const raw = JSON.parse(localStorage.getItem(EDIT_KEYS) ?? "{}") as unknown;
    if (raw && typeof raw === "object" && !Array.isArray(raw)) {
      return Object.fromEntries(Object.entries(raw).filter((e): e is [string, string] => typeof e[1] === "string"));
    }
  } catch {
    // a broken entry is as none
  }
  return {};
}

function keepEditKey(id: string, key: string): void {
  try {
    localStorage.setItem(EDIT_KEYS, JSON.stringify({ ...editKeys(), [id]: key }));
  } catch {
    // storage full or off: the GM still has the key shown after publishing
  }
}

type ScenarioRef = { id: string; bundled: boolean };

export class Editor {
  private catalog!: Catalog;
  private model: EditorModel | null = null;
  private renderer: MapRenderer | null = null;
  private canvas!: HTMLCanvasElement;
  private vp: Viewport = { scale: 16, ox: 0, oy: 0 };
  private tool: Tool = "terrain";
  private terrain = "forest";
  private brush = 1;
  private force = "blue:0";
  private card = "";
  private objective = 0;
  private mineType: "AP" | "AT" = "AP";
  private problems: Problem[] = [];
  private painting = false;
  private touched = new Set<string>();
  private timer: number | undefined;
  private status = "";
  private side!: HTMLElement;
  private problemsEl: HTMLElement | null = null;
  private statusEl: HTMLElement | null = null;
  private playBox: HTMLElement | null = null;
  /** Edits so far: a validation answers for the model as it was at one of them. */
  private edits = 0;
  /** Models shown so far, published as `body[data-loaded]`: a page (or a test) can tell
   * that an opened scenario has arrived, even when it has the same id as the one before. */
  private loads = 0;

  constructor(private root: HTMLElement) {}

  async start(): Promise<void> {
    this.catalog = await call<Catalog>("/api/editor/catalog");
    this.card = this.catalog.cards.find((c) => c.side === "blue")?.id ?? "";
    const scenarios: ScenarioRef[] = this.catalog.scenarios;
    const first = (scenarios.find((s) => s.bundled) ?? scenarios.find((s) => editKeys()[s.id]))?.id;
    if (first) await this.openScenario(first, false);
    else await this.load("/api/editor/empty");
    document.body.dataset.ready = "";
  }

  private async load(url: string, headers: Record<string, string> = {}): Promise<void> {
    try {
      this.show(await call<EditorModel>(url, undefined, headers));
    } catch (e) {
      this.status = (e as Error).message;
      this.render();
    }
  }

  private show(model: EditorModel): void {
    this.model = model;
    document.body.dataset.loaded = String(++this.loads);
    this.objective = 0;
    this.rebuildMap();
    this.render();
    this.validateSoon(0);
  }

  /** Open a scenario of the server: a published one with the edit key this browser
   * keeps, or (``ask``) the one the GM types in when the server asks for it. */
  private async openScenario(id: string, ask = true): Promise<void> {
    const url = `/api/editor/scenarios/${encodeURIComponent(id)}`;
    const known = editKeys()[id];
    try {
      this.show(await call<EditorModel>(url, undefined, known ? { "X-Edit-Key": known } : {}));
      return;
    } catch (e) {
      this.status = (e as Error).message;
      if ((e as { code?: string }).code !== "edit_key" || !ask) {
        this.render();
        return;
      }
    }
    const typed = window.prompt(w("ask_key"))?.trim() ?? "";
    if (!typed) {
      this.render();
      return;
    }
    try {
      this.show(await call<EditorModel>(url, undefined, { "X-Edit-Key": typed }));
      keepEditKey(id, typed);
      this.status = "";
    } catch (e) {
      this.status = (e as Error).message;
      this.render();
    }
  }

  private legend(): Record<string, string[]> {
    if (!this.model) return {};
    return fullLegend(this.catalog.terrain, this.catalog.legend, this.model.map);
  }

  private rebuildMap(): void {
    if (!this.model) return;
    const m = this.model.map;
    const width = m.rows[0]?.length ?? 0;
    const height = m.rows.length;
    const data: MapData = {
      name: m.name,
      width,
      height,
      rows: m.rows,
      legend: this.legend(),
      elevation: m.elevation ?? m.rows.map(() => new Array<number>(width).fill(0)),
      terrain: Object.fromEntries(this.catalog.terrain.map((t) => [t.id, { fi: t.fi, en: t.en }])),
    };
    this.renderer = new MapRenderer(data);
  }

  // ------------------------------------------------------------------ layout

  private render(): void {
    clear(this.root);
    const model = this.model;
    const langSel = h(
      "select",
      { id: "lang", "aria-label": "kieli / language", onchange: (ev: Event) => { setLang((ev.target as HTMLSelectElement).value as Lang); this.playBox = null; this.render(); } },
      h("option", { value: "fi", selected: lang() === "fi" }, "suomi"),
      h("option", { value: "en", selected: lang() === "en" }, "English"),
    );
    const pick = h("select", { id: "open-scenario" },
      ...this.catalog.scenarios.map((s) => h("option", { value: s.id, selected: model?.id === s.id }, s.id)));
    const openBtn = h("button", { id: "open", type: "button", onclick: () => void this.openScenario(pick.value) }, w("open"));
    const wIn = h("input", { id: "new-width", type: "number", min: 1, max: 500, value: 30, "aria-label": w("width") });
    const hIn = h("input", { id: "new-height", type: "number", min: 1, max: 500, value: 20, "aria-label": w("height") });
    const emptyBtn = h("button", { id: "new-empty", type: "button", onclick: () => void this.load(`/api/editor/empty?width=${wIn.value}&height=${hIn.value}`) }, w("empty"));
    const bar = h("header", { class: "bar" }, h("h1", {}, w("editor")), pick, openBtn, wIn, "×", hIn, emptyBtn, langSel);

    this.canvas = h("canvas", { id: "editor-map", "aria-label": "Kartta / map", role: "img" });
    this.canvas.addEventListener("mousedown", (ev) => this.pointer(ev, true));
    this.canvas.addEventListener("mousemove", (ev) => { if (this.painting) this.pointer(ev, false); });
    window.addEventListener("mouseup", () => this.endStroke());
    const mapBox = h("div", { class: "editor-mapbox" }, this.canvas);
    this.side = h("aside", { class: "editor-side" });
    const main = h("main", { class: "editor" }, bar,
      h("div", { class: "editor-body" }, this.toolbox(), mapBox, this.side));
    if (this.status) main.insertBefore(h("p", { class: "error", role: "alert" }, this.status), main.children[1] ?? null);
    this.root.append(main);
    this.renderSide();
    requestAnimationFrame(() => this.fit());
  }

  private toolbox(): HTMLElement {
    const radio = (tool: Tool, label: string) =>
      h("label", {}, h("input", { type: "radio", name: "tool", value: tool, checked: this.tool === tool, onchange: () => { this.tool = tool; } }), ` ${label}`);
    const terr = h("select", { id: "terrain", "aria-label": w("terrain"), onchange: (ev: Event) => { this.terrain = (ev.target as HTMLSelectElement).value; this.tool = "terrain"; this.syncTool(); } },
      ...this.catalog.terrain.filter((t) => t.id !== "road").map((t) => h("option", { value: t.id, selected: t.id === this.terrain }, lang() === "en" ? t.en : t.fi)));
    const brush = h("select", { id: "brush", "aria-label": w("brush"), onchange: (ev: Event) => { this.brush = Number((ev.target as HTMLSelectElement).value); } },
      ...[1, 3, 5].map((n) => h("option", { value: n, selected: n === this.brush }, `${n}×${n}`)));
    const forces: HTMLOptionElement[] = [];
    if (this.model) {
      for (const side of ["blue", "red"] as const) {
        groups(this.model, side).forEach((g, i) => forces.push(h("option", { value: `${side}:${i}`, selected: this.force === `${side}:${i}` }, `${w(side)}: ${g.id}`)));
      }
    }
    const forceSel = h("select", { id: "force", "aria-label": w("force"), onchange: (ev: Event) => { this.force = (ev.target as HTMLSelectElement).value; this.tool = "unit"; this.render(); } }, ...forces);
    const side = this.force.startsWith("red") ? "red" : "blue";
    const cards = this.catalog.cards.filter((c) => c.side === side);
    if (!cards.some((c) => c.id === this.card)) this.card = cards[0]?.id ?? "";
    const cardSel = h("select", { id: "card", "aria-label": w("card"), onchange: (ev: Event) => { this.card = (ev.target as HTMLSelectElement).value; this.tool = "unit"; this.syncTool(); } },
      ...cards.map((c) => h("option", { value: c.id, selected: c.id === this.card }, lang() === "en" ? c.en : c.fi)));
    const objs = this.model ? objectives(this.model) : [];
    const objSel = h("select", { id: "objective", "aria-label": w("objective"), onchange: (ev: Event) => { this.objective = Number((ev.target as HTMLSelectElement).value); this.tool = "objective"; this.syncTool(); } },
      ...objs.map((o, i) => h("option", { value: i, selected: i === this.objective }, `${lang() === "en" ? o.name.en : o.name.fi} (${o.vp} VP)`)));
    const newObj = h("button", { id: "new-objective", type: "button", onclick: () => {
      if (!this.model) return;
      addObjective(this.model, { fi: w("new_objective"), en: "New objective" }, 1);
      this.objective = objectives(this.model).length - 1;
      this.tool = "objective";
      this.changed(true);
    } }, w("new_objective"));
    const mineSel = h("select", { id: "mine-type", "aria-label": w("mine"), onchange: (ev: Event) => { this.mineType = (ev.target as HTMLSelectElement).value as "AP" | "AT"; this.tool = "mine"; this.syncTool(); } },
      h("option", { value: "AP", selected: this.mineType === "AP" }, "AP"), h("option", { value: "AT", selected: this.mineType === "AT" }, "AT"));
    return h("nav", { class: "editor-tools", "aria-label": w("tools") },
      h("h2", {}, w("tools")),
      radio("terrain", w("terrain")), terr,
      radio("road", w("road")), radio("noroad", w("noroad")),
      radio("raise", w("raise")), radio("lower", w("lower")),
      h("label", {}, `${w("brush")} `, brush),
      radio("unit", w("unit")), forceSel, cardSel,
      radio("erase", w("erase")),
      radio("objective", w("objective")), objSel, newObj,
      radio("mine", w("mine")), mineSel,
      radio("fort", w("fort")),
    );
  }

  private syncTool(): void {
    for (const el of this.root.querySelectorAll<HTMLInputElement>("input[name=tool]")) el.checked = el.value === this.tool;
  }

  private renderSide(): void {
    const side = this.side;
    clear(side);
    const model = this.model;
    if (!model) return;
    const s = model.scenario;
    const text = (key: "title" | "briefing", l: "fi" | "en", area: boolean) => {
      const obj = (s[key] ?? {}) as Record<string, string>;
      const attrs = { id: `${key}-${l}`, "aria-label": `${w(key)} (${l})`, oninput: (ev: Event) => {
        s[key] = { ...((s[key] ?? {}) as Record<string, string>), [l]: (ev.target as HTMLInputElement).value };
        this.changed(false);
      } };
      const el = area ? h("textarea", { ...attrs, rows: 4 }) : h("input", { ...attrs, type: "text" });
      el.value = obj[l] ?? "";
      return h("label", {}, `${w(key)} (${l}) `, el);
    };
    const idIn = h("input", { id: "scenario-id", type: "text", value: String(s.id ?? model.id), oninput: (ev: Event) => {
      const v = (ev.target as HTMLInputElement).value;
      s.id = v;
      model.id = v;
      this.changed(false);
    } });
    const rounds = h("input", { id: "rounds", type: "number", min: 1, max: 99, value: Number(s.rounds ?? 6), oninput: (ev: Event) => { s.rounds = Number((ev.target as HTMLInputElement).value); this.changed(false); } });
    const first = h("select", { id: "first-side", onchange: (ev: Event) => { s.first_side = (ev.target as HTMLSelectElement).value; this.changed(false); } },
      h("option", { value: "blue", selected: s.first_side !== "red" }, w("blue")), h("option", { value: "red", selected: s.first_side === "red" }, w("red")));
    side.append(h("h2", {}, w("editor")), h("label", {}, `${w("id")} `, idIn),
      text("title", "fi", false), text("title", "en", false), text("briefing", "fi", true), text("briefing", "en", true),
      h("label", {}, `${w("rounds")} `, rounds), h("label", {}, `${w("first_side")} `, first));

    // Objectives: name and VP.
    for (const [i, o] of objectives(model).entries()) {
      const nameFi = h("input", { type: "text", value: o.name.fi, "aria-label": `${w("objective")} ${i + 1} fi`, oninput: (ev: Event) => { o.name = { ...o.name, fi: (ev.target as HTMLInputElement).value }; this.changed(false); } });
      const nameEn = h("input", { type: "text", value: o.name.en, "aria-label": `${w("objective")} ${i + 1} en`, oninput: (ev: Event) => { o.name = { ...o.name, en: (ev.target as HTMLInputElement).value }; this.changed(false); } });
      const vp = h("input", { type: "number", min: 0, value: o.vp, class: "vp", "aria-label": `${w("objective")} ${i + 1} VP`, oninput: (ev: Event) => { o.vp = Number((ev.target as HTMLInputElement).value); this.changed(false); } });
      side.append(h("fieldset", { class: "objective" }, h("legend", {}, `${w("objective")} ${o.id}`), nameFi, nameEn, vp));
    }

    // Fire support allotment (R-OFF-1).
    const sec = secrets(model);
    const fs = (sec.fire_support ?? {}) as { off_board_requests?: number; weapons?: string[] };
    const req = h("input", { id: "fs-requests", type: "number", min: 0, value: fs.off_board_requests ?? 0, "aria-label": w("requests"), oninput: (ev: Event) => {
      // The current allotment (a weapon ticked since this panel was drawn stays ticked).
      sec.fire_support = { ...((sec.fire_support ?? {}) as object), off_board_requests: Number((ev.target as HTMLInputElement).value) };
      this.changed(false);
    } });
    const weapons = ["k9", "mlrs"].map((wpn) => h("label", {}, h("input", { type: "checkbox", value: wpn, checked: (fs.weapons ?? []).includes(wpn), onchange: (ev: Event) => {
      const on = (ev.target as HTMLInputElement).checked;
      const cur = new Set(((sec.fire_support ?? {}) as { weapons?: string[] }).weapons ?? []);
      if (on) cur.add(wpn); else cur.delete(wpn);
      sec.fire_support = { ...((sec.fire_support ?? {}) as object), weapons: [...cur].sort() };
      this.changed(false);
    } }), ` ${wpn.toUpperCase()}`));
    side.append(h("fieldset", { id: "fire-support" }, h("legend", {}, w("fire_support")), h("label", {}, `${w("requests")} `, req), ...weapons,
      this.organicRounds(model)));

    // Rule option overrides.
    const opts = (s.options ?? {}) as Record<string, unknown>;
    const optSel = h("select", { id: "option-name", "aria-label": w("options") },
      ...this.catalog.options.map((o) => h("option", { value: o.name }, `${o.name} (${o.rule})`)));
    const optVal = h("input", { id: "option-value", type: "text", "aria-label": "value" });
    const addOpt = h("button", { id: "option-add", type: "button", onclick: () => {
      const spec = this.catalog.options.find((o) => o.name === optSel.value);
      if (!spec) return;
      s.options = { ...opts, [spec.name]: parseValue(optVal.value, spec.value) };
      this.changed(true);
    } }, w("add"));
    const list = h("ul", { class: "options" }, ...Object.entries(opts).map(([k, v]) => h("li", { "data-option": k }, `${k} = ${JSON.stringify(v)} `,
      h("button", { type: "button", "aria-label": `${w("remove")} ${k}`, onclick: () => { const next = { ...opts }; delete next[k]; s.options = next; this.changed(true); } }, w("remove")))));
    side.append(h("fieldset", {}, h("legend", {}, w("options")), optSel, optVal, addOpt, list));

    // Picture import: each block of the picture → the nearest terrain colour.
    const file = h("input", { id: "import-file", type: "file", accept: "image/*", "aria-label": w("import") });
    const iw = h("input", { id: "import-width", type: "number", min: 1, max: 500, value: model.map.rows[0]?.length ?? 30, "aria-label": w("width") });
    const ih = h("input", { id: "import-height", type: "number", min: 1, max: 500, value: model.map.rows.length, "aria-label": w("height") });
    const colours = Object.entries(IMPORT_COLOURS).map(([id, c]) => h("input", { type: "color", "data-terrain": id, value: hex(c), "aria-label": id }));
    const importBtn = h("button", { id: "import", type: "button", onclick: () => void this.importPicture(file, Number(iw.value), Number(ih.value), colours) }, w("import"));
    side.append(h("fieldset", {}, h("legend", {}, w("import")), file, iw, "×", ih, h("div", { class: "palette" }, ...colours), importBtn));

    // Validation, saving, publishing, play test.
    const probs = h("section", { id: "problems", "aria-live": "polite" });
    this.problemsEl = probs;
    this.statusEl = h("span", { id: "editor-status", role: "status" }, this.status);
    this.renderProblems();
    const save = h("button", { id: "save", type: "button", onclick: () => void this.save() }, w("save"));
    const pub = this.catalog.publish ? h("button", { id: "publish", type: "button", onclick: () => void this.publish() }, w("publish")) : null;
    // The play test's box is kept across redraws (its games and its last result stay).
    const play = this.catalog.playtest ? (this.playBox ??= this.playtestBox()) : h("p", { class: "muted", id: "playtest-note" }, w("playtest_off"));
    side.append(probs, h("div", { class: "actions" }, save, pub, this.statusEl));
    if (play) side.append(play);
  }

  /** Organic fire support (R-ORG-1): rounds per support unit (`secrets.organic_rounds`);
   * add any unit of the scenario (the loader says when its card has no organic fire). */
  private organicRounds(model: EditorModel): HTMLElement {
    const sec = secrets(model);
    const current = () => ({ ...((sec.organic_rounds ?? {}) as Record<string, number>) });
    const items = Object.entries(current()).map(([uid, n]) => h("li", { "data-organic": uid },
      h("label", {}, `${uid} `, h("input", {
        type: "number", min: 0, value: n, class: "organic-rounds", "data-unit": uid, "aria-label": `${w("organic")} ${uid}`,
        oninput: (ev: Event) => {
          sec.organic_rounds = { ...current(), [uid]: Number((ev.target as HTMLInputElement).value) };
          this.changed(false);
        },
      })), " ",
      h("button", { type: "button", "aria-label": `${w("remove")} ${uid}`, onclick: () => {
        const next = current();
        delete next[uid];
        sec.organic_rounds = next;
        this.changed(true);
      } }, w("remove"))));
    const taken = new Set(Object.keys(current()));
    const units = allUnits(model).filter(({ side, unit }) => side === "blue" && !taken.has(unit.id));
    const pick = h("select", { id: "organic-unit", "aria-label": w("organic") },
      ...units.map(({ unit }) => h("option", { value: unit.id }, `${unit.id} (${this.cardName(unit.card)})`)));
    const add = h("button", { id: "organic-add", type: "button", disabled: units.length === 0, onclick: () => {
      if (!pick.value) return;
      sec.organic_rounds = { ...current(), [pick.value]: 4 };
      this.changed(true);
    } }, w("add"));
    return h("div", { class: "organic" }, h("h3", {}, w("organic")), h("ul", { class: "organic-list" }, ...items), pick, add);
  }

  private cardName(id: string): string {
    const c = this.catalog.cards.find((x) => x.id === id);
    return c ? (lang() === "en" ? c.en : c.fi) : id;
  }

  /** The validation's answer in its section (only there: a validation never redraws the
   * panel, so a field being typed in keeps its focus). */
  private renderProblems(): void {
    const probs = this.problemsEl;
    if (!probs) return;
    clear(probs);
    probs.append(h("h2", {}, w("problems")));
    if (this.problems.length === 0) probs.append(h("p", { class: "ok" }, w("valid")));
    else probs.append(h("ul", {}, ...this.problems.map((p) => h("li", { class: "problem" },
      `${p.file}: ${p.key}${p.line ? ` (${lang() === "en" ? "line" : "rivi"} ${p.line})` : ""}: ${p.problem}`))));
    if (this.statusEl) this.statusEl.textContent = this.status;
  }

  // ------------------------------------------------------------------ map

  private fit(): void {
    const box = this.canvas.parentElement;
    if (!box || !this.model) return;
    const width = this.model.map.rows[0]?.length ?? 1;
    const height = this.model.map.rows.length;
    const cw = box.clientWidth || 800;
    const ch = box.clientHeight || 600;
    const dpr = window.devicePixelRatio || 1;
    this.canvas.width = Math.round(cw * dpr);
    this.canvas.height = Math.round(ch * dpr);
    this.canvas.style.width = `${cw}px`;
    this.canvas.style.height = `${ch}px`;
    this.canvas.getContext("2d")?.setTransform(dpr, 0, 0, dpr, 0, 0);
    this.vp = fitViewport(width, height, cw, ch, 16);
    this.canvas.dataset.scale = String(this.vp.scale);
    this.canvas.dataset.ox = String(this.vp.ox);
    this.canvas.dataset.oy = String(this.vp.oy);
    this.draw();
  }

  private draw(): void {
    const ctx = this.canvas.getContext("2d");
    const model = this.model;
    if (!ctx || !model || !this.renderer) return;
    const cw = this.canvas.clientWidth;
    const ch = this.canvas.clientHeight;
    const scene: Scene = {
      units: [], contacts: [], side: null, selected: null, hover: null, los: null,
      objectives: objectives(model).map((o) => ({ id: o.id, name: o.name, cells: o.cells, vp: o.vp, holder: null })) as unknown as Scene["objectives"],
      mines: minefields(model).flatMap((m) => minefieldCells(m).map((cell) => ({ cell, type: m.type }))),
    };
    const layers: Layers = { reach: new Set(), grid: true, objectives: true, contacts: false };
    this.renderer.draw(ctx, this.vp, cw, ch, scene, layers);
    const s = this.vp.scale;
    const X = (x: number) => this.vp.ox + x * s;
    const Y = (y: number) => this.vp.oy + y * s;
    // Fortified cells: a black corner.
    ctx.fillStyle = "#000";
    for (const [fx, fy] of (model.scenario.fortifications ?? []) as [number, number][]) {
      ctx.beginPath();
      ctx.moveTo(X(fx), Y(fy));
      ctx.lineTo(X(fx) + s * 0.4, Y(fy));
      ctx.lineTo(X(fx), Y(fy) + s * 0.4);
      ctx.fill();
    }
    // Units: Blue rectangles, Red diamonds, with their ids.
    ctx.font = `${Math.max(8, s * 0.32)}px sans-serif`;
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    for (const { side, unit } of allUnits(model)) {
      const cx = X(unit.cell[0] + 0.5);
      const cy = Y(unit.cell[1] + 0.5);
      ctx.lineWidth = 2;
      ctx.beginPath();
      if (side === "blue") {
        ctx.fillStyle = "#cfe0ff";
        ctx.strokeStyle = "#1f4fbf";
        ctx.rect(cx - s * 0.42, cy - s * 0.28, s * 0.84, s * 0.56);
      } else {
        ctx.fillStyle = "#ffd0cc";
        ctx.strokeStyle = "#c62828";
        ctx.moveTo(cx, cy - s * 0.45);
        ctx.lineTo(cx + s * 0.45, cy);
        ctx.lineTo(cx, cy + s * 0.45);
        ctx.lineTo(cx - s * 0.45, cy);
        ctx.closePath();
      }
      ctx.fill();
      ctx.stroke();
      ctx.fillStyle = "#000";
      ctx.fillText(unit.id, cx, cy);
    }
    // Cells a problem names: a red ring.
    ctx.strokeStyle = "#e00000";
    ctx.lineWidth = 3;
    for (const p of this.problems) for (const [px, py] of problemCells(p.problem)) ctx.strokeRect(X(px) + 1, Y(py) + 1, s - 2, s - 2);
  }

  private pointer(ev: MouseEvent, down: boolean): void {
    if (!this.model) return;
    const box = this.canvas.getBoundingClientRect();
    const width = this.model.map.rows[0]?.length ?? 0;
    const cell = cellAt(this.vp, ev.clientX - box.left, ev.clientY - box.top, width, this.model.map.rows.length);
    if (!cell) return;
    const [x, y] = cell;
    const key = `${x},${y}`;
    const m = this.model;
    const legend = this.legend();
    if (down) {
      this.touched.clear();
      this.painting = ["terrain", "road", "noroad", "raise", "lower"].includes(this.tool);
    }
    if (this.touched.has(key)) return;
    this.touched.add(key);
    let mapChanged = false;
    let structure = false;
    switch (this.tool) {
      case "terrain": paint(m.map, legend, x, y, this.terrain, this.brush); mapChanged = true; break;
      case "road": paint(m.map, legend, x, y, "road", 1); mapChanged = true; break;
      case "noroad": eraseRoad(m.map, legend, x, y); mapChanged = true; break;
      case "raise": raise(m.map, x, y, 1, this.brush); mapChanged = true; break;
      case "lower": raise(m.map, x, y, -1, this.brush); mapChanged = true; break;
      case "unit": {
        const [side, index] = this.force.split(":");
        if (this.card) placeUnit(m, { side: side === "red" ? "red" : "blue", index: Number(index) }, this.card, [x, y]);
        break;
      }
      case "erase": removeUnitsAt(m, [x, y]); break;
      case "objective": {
        const obj = objectives(m)[this.objective];
        if (obj) toggleObjectiveCell(obj, [x, y]);
        structure = true;
        break;
      }
      case "mine": toggleMinefield(m, [x, y], this.mineType); break;
      case "fort": toggleFortified(m, [x, y]); break;
    }
    if (mapChanged) this.rebuildMap();
    this.draw();
    if (!this.painting) this.changed(structure);
  }

  private endStroke(): void {
    if (!this.painting) return;
    this.painting = false;
    this.changed(false);
  }

  // ------------------------------------------------------------------ server

  /** After an edit: validate soon; `rerender` rebuilds the side panels (lists changed). */
  private changed(rerender: boolean): void {
    if (rerender) this.render();
    this.validateSoon(300);
  }

  private validateSoon(delay: number): void {
    window.clearTimeout(this.timer);
    const seq = ++this.edits;
    document.body.dataset.validating = "";
    this.timer = window.setTimeout(() => void this.validate(seq), delay);
  }

  /** Validate the model as it is after edit `seq`; an answer that a newer edit has
   * overtaken is dropped (that edit's own validation follows). */
  private async validate(seq: number): Promise<void> {
    if (!this.model) return;
    let problems = this.problems;
    let status = "";
    try {
      const out = await call<{ ok: boolean; problems: Problem[] }>("/api/editor/validate", this.model);
      problems = out.problems;
    } catch (e) {
      status = (e as Error).message;
    }
    if (seq !== this.edits) return;
    this.problems = problems;
    this.status = status;
    delete document.body.dataset.validating;
    document.body.dataset.valid = String(this.problems.length === 0);
    if (this.problemsEl?.isConnected) this.renderProblems();
    else this.renderSide();
    this.draw();
  }

  private playtestBox(): HTMLElement {
    const games = h("input", { id: "playtest-games", type: "number", min: 1, max: this.catalog.playtest_max_games, value: 3, "aria-label": w("games") });
    const out = h("div", { id: "playtest-result", "aria-live": "polite" });
    const run = h("button", { id: "playtest", type: "button", onclick: () => void this.playtest(Number(games.value), out, run) }, w("playtest"));
    return h("fieldset", {}, h("legend", {}, w("playtest")), h("label", {}, `${w("games")} `, games), run, out);
  }

  private async playtest(games: number, out: HTMLElement, button: HTMLButtonElement): Promise<void> {
    if (!this.model) return;
    clear(out);
    out.append(w("running"));
    button.disabled = true;
    try {
      const r = await call<Record<string, unknown>>("/api/editor/playtest", { model: this.model, games });
      const pct = (v: unknown) => `${Math.round(Number(v) * 100)} %`;
      const iv = (v: unknown) => (Array.isArray(v) ? ` (95 %: ${pct(v[0])}–${pct(v[1])})` : "");
      const vp = r.vp as Record<string, { mean: number }>;
      const rounds = r.rounds as { mean: number };
      clear(out);
      out.append(h("ul", {},
        h("li", { id: "pt-blue" }, `${w("blue_wins")}: ${pct(r.blue_win_rate)}${iv(r.blue_win_interval)}`),
        h("li", { id: "pt-red" }, `${w("red_wins")}: ${pct(r.red_win_rate)}${iv(r.red_win_interval)}`),
        h("li", {}, `${w("draws")}: ${pct(r.draw_rate)}`),
        h("li", {}, `${w("mean_vp")}: ${w("blue")} ${vp.blue?.mean ?? 0}, ${w("red")} ${vp.red?.mean ?? 0}`),
        h("li", {}, `${w("mean_rounds")}: ${rounds.mean} · ${String(r.games)} ${w("games")}`),
      ));
      out.dataset.games = String(r.games);
    } catch (e) {
      clear(out);
      out.append(h("p", { class: "error" }, (e as Error).message));
    }
    button.disabled = false;
  }

  private async save(): Promise<void> {
    if (!this.model) return;
    try {
      const out = await call<{ toml: string; problems: Problem[] }>("/api/editor/toml", this.model);
      const a = h("a", { href: URL.createObjectURL(new Blob([out.toml], { type: "application/toml" })), download: `${this.model.id}.toml`, id: "download" });
      document.body.append(a);
      a.click();
      a.remove();
      document.body.dataset.saved = out.toml;
    } catch (e) {
      this.status = (e as Error).message;
      this.renderSide();
    }
  }

  private async publish(): Promise<void> {
    if (!this.model) return;
    try {
      const out = await call<{ id: string; edit_key: string }>("/api/editor/publish", this.model);
      keepEditKey(out.id, out.edit_key);
      if (!this.catalog.scenarios.some((s) => s.id === out.id)) this.catalog.scenarios.push({ id: out.id, bundled: false });
      this.status = `${w("published")} ${w("edit_key")}: ${out.edit_key}`;
    } catch (e) {
      const problems = (e as { problems?: Problem[] }).problems;
      if (problems?.length) this.problems = problems;
      this.status = (e as Error).message;
    }
    this.renderSide();
  }

  private async importPicture(input: HTMLInputElement, cw: number, ch: number, colours: HTMLInputElement[]): Promise<void> {
    const file = input.files?.[0];
    if (!file || !this.model) return;
    const bitmap = await createImageBitmap(file);
    const c = document.createElement("canvas");
    c.width = bitmap.width;
    c.height = bitmap.height;
    const g = c.getContext("2d");
    if (!g) return;
    g.drawImage(bitmap, 0, 0);
    const pixels = g.getImageData(0, 0, c.width, c.height);
    const palette: Record<string, Rgb> = {};
    for (const el of colours) palette[el.dataset.terrain ?? "open"] = unhex(el.value);
    const cells = classifyPicture(pixels.data, c.width, c.height, Math.max(1, Math.min(500, cw)), Math.max(1, Math.min(500, ch)), palette);
    importTerrain(this.model.map, this.legend(), cells);
    this.model.origin = { map_ref: null, map_raw: null };
    this.rebuildMap();
    this.changed(true);
    document.body.dataset.imported = `${cells[0]?.length ?? 0}x${cells.length}`;
  }
}

function parseValue(text: string, like: unknown): unknown {
  if (typeof like === "boolean") return text.trim() === "true";
  if (typeof like === "number") return Number(text);
  if (Array.isArray(like)) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}

function hex(c: Rgb): string {
  return `#${c.map((v) => Math.round(v).toString(16).padStart(2, "0")).join("")}`;
}

function unhex(s: string): Rgb {
  const n = parseInt(s.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}
