// The lobby: bundled scenarios (title, briefing, seats, map preview), create a game with
// rule options, computer seats and the computer's level; the creator (the GM) gets every
// seat's link to copy, and the games created in this browser are listed ("Omat pelit")
// with their state read from the server with the GM's link.

import { GameApi, createGame, listScenarios, scenarioDetail, seatFromLocation } from "./api";
import { campaignForm } from "./campaign";
import { clear, h } from "./dom";
import { lang, setLang, sideWord, t, tx, type Lang } from "./i18n";
import { errorText } from "./table";
import type { MapData, Text } from "./types";
import { MapRenderer } from "./render";
import { fitViewport } from "./geometry";

interface OptionInfo { name: string; rule: string; value: unknown; choices: unknown[] | null; fi: string; en: string }

/** A game this browser created: its links (the GM's too). Kept in localStorage under
 * `tk20.games` on the creator's device only; the game itself is never stored here. */
export interface OwnGame { id: string; scenario: string; title: string; created: string; seats: Record<string, string> }

const GAMES_KEY = "tk20.games";

export function ownGames(): OwnGame[] {
  try {
    const raw = JSON.parse(localStorage.getItem(GAMES_KEY) ?? "[]") as unknown;
    return Array.isArray(raw) ? (raw as OwnGame[]).filter((g) => g && typeof g.id === "string" && g.seats && typeof g.seats === "object") : [];
  } catch {
    return [];
  }
}

function saveGames(games: OwnGame[]): void {
  localStorage.setItem(GAMES_KEY, JSON.stringify(games.slice(0, 50)));
}

/** A typed option value: as the option's default is (number, true/false, text). */
export function optionValue(text: string, like: unknown): unknown {
  const s = text.trim();
  if (typeof like === "boolean") return s === "true" || s === "1" || s.toLowerCase() === "kyllä";
  if (typeof like === "number") return s === "" ? NaN : Number(s.replace(",", "."));
  return s;
}

interface ScenarioInfo {
  id: string;
  title: Text | Record<string, string>;
  briefing?: Text;
  rounds?: number;
  seats?: string[];
  map?: MapData;
}

export class Lobby {
  private scenarios: ScenarioInfo[] = [];
  private options: OptionInfo[] = [];
  constructor(private root: HTMLElement) {}

  async start(): Promise<void> {
    try {
      const catalog = fetch("/api/editor/catalog").then((r) => (r.ok ? r.json() : { options: [] }) as Promise<{ options?: OptionInfo[] }>).catch(() => ({ options: [] }));
      const list = await listScenarios();
      this.scenarios = await Promise.all(
        list.map(async (s) => ({ ...s, ...((await scenarioDetail(s.id).catch(() => ({}))) as Partial<ScenarioInfo>) })),
      );
      this.options = (await catalog).options ?? [];
    } catch (e) {
      this.scenarios = [];
      this.render(errorText(e));
      return;
    }
    this.render();
  }

  private render(error?: string): void {
    clear(this.root);
    const langSel = h(
      "select",
      { id: "lang", "aria-label": t("language"), onchange: (ev: Event) => { setLang((ev.target as HTMLSelectElement).value as Lang); this.render(); } },
      h("option", { value: "fi", selected: lang() === "fi" }, "suomi"),
      h("option", { value: "en", selected: lang() === "en" }, "English"),
    );
    const main = h("main", { class: "lobby" }, h("header", { class: "bar" }, h("h1", {}, `${t("title")} — ${t("lobby")}`),
      h("a", { href: "/?editor#editor", id: "editor-link" }, lang() === "en" ? "Scenario editor" : "Skenaarioeditori"), langSel));
    if (error) main.append(h("p", { class: "error", role: "alert" }, error));
    main.append(this.gamesBox());
    main.append(h("h2", {}, t("scenarios")));
    for (const s of this.scenarios) main.append(this.scenarioCard(s));
    main.append(campaignForm(this.scenarios.map((s) => ({ id: s.id, title: tx(s.title) }))));
    this.root.append(main);
  }

  private scenarioCard(s: ScenarioInfo): HTMLElement {
    const seats = s.seats ?? [];
    const computer = h("fieldset", {}, h("legend", {}, t("computer_seats")),
      ...seats.map((seat) => h("label", {}, h("input", { type: "checkbox", name: "computer", value: seat }), ` ${seat} `)));
    const out = h("div", { class: "links", "aria-live": "polite" });
    const rules: Record<string, unknown> = {};
    const optionsBox = this.optionsBox(rules);
    const form = h("form", {
      class: "create", "data-scenario": s.id,
      onsubmit: async (ev: Event) => {
        ev.preventDefault();
        const chosen = [...form.querySelectorAll<HTMLInputElement>("input[name=computer]:checked")].map((i) => i.value);
        const level = (form.querySelector<HTMLSelectElement>("select[name=level]")?.value ?? "baseline") as "baseline" | "easy" | "normal" | "hard";
        try {
          const game = await createGame({ scenario: s.id, computer: chosen, computer_level: level, options: { ...rules } as Record<string, string | number | boolean> });
          this.remember(s, game);
          this.showLinks(out, game);
          this.refreshGames();
        } catch (e) {
          clear(out);
          out.append(h("p", { class: "error", role: "alert" }, errorText(e)));
        }
      },
    }, computer, this.levelSelect(), optionsBox, h("button", { type: "submit", class: "primary" }, t("create_game")));
    const preview = s.map ? mapPreview(s.map) : null;
    return h("section", { class: "scenario", id: `scenario-${s.id}` },
      h("h3", {}, tx(s.title)),
      preview,
      s.briefing ? h("p", { class: "briefing" }, tx(s.briefing)) : null,
      h("p", {}, `${s.rounds ?? "?"} ${t("rounds")} · ${t("seats")}: ${seats.join(", ")}`),
      form, out);
  }

  private levelSelect(): HTMLElement {
    const fi = lang() === "fi";
    const names: Record<string, [string, string]> = {
      baseline: ["perus", "baseline"], easy: ["helppo", "easy"], normal: ["tavallinen", "normal"], hard: ["vaikea", "hard"],
    };
    return h("label", { class: "level" }, `${fi ? "Tietokoneen taso" : "Computer level"} `,
      h("select", { name: "level" }, ...Object.entries(names).map(([k, [f, e]]) => h("option", { value: k }, fi ? f : e))));
  }

  /** Rule options for the new game (any option of `tk20 rules`; the server checks them). */
  private optionsBox(rules: Record<string, unknown>): HTMLElement {
    const fi = lang() === "fi";
    const list = h("ul", { class: "opt-list" });
    const name = h("select", { class: "opt-name", "aria-label": fi ? "Sääntövalinta" : "Rule option" },
      ...this.options.map((o) => h("option", { value: o.name, title: fi ? o.fi : o.en }, `${o.name} (${o.rule})`)));
    const value = h("input", { class: "opt-value", type: "text", "aria-label": fi ? "Arvo" : "Value" });
    const hint = h("span", { class: "muted opt-hint" });
    const showHint = () => {
      const o = this.options.find((x) => x.name === name.value);
      hint.textContent = o ? ` ${fi ? "oletus" : "default"} ${JSON.stringify(o.value)}${o.choices ? ` · ${o.choices.map((c) => JSON.stringify(c)).join(" / ")}` : ""}` : "";
    };
    name.addEventListener("change", showHint);
    showHint();
    const draw = () => {
      clear(list);
      for (const [k, v] of Object.entries(rules)) {
        list.append(h("li", { "data-option": k }, `${k} = ${JSON.stringify(v)} `,
          h("button", { type: "button", "aria-label": `${fi ? "Poista" : "Remove"} ${k}`, onclick: () => { delete rules[k]; draw(); } }, fi ? "Poista" : "Remove")));
      }
    };
    const add = h("button", { type: "button", class: "opt-add", onclick: () => {
      const o = this.options.find((x) => x.name === name.value);
      if (!o) return;
      rules[o.name] = optionValue(value.value, o.value);
      value.value = "";
      draw();
    } }, fi ? "Lisää" : "Add");
    return h("details", { class: "rule-options" }, h("summary", {}, fi ? "Sääntövalinnat" : "Rule options"),
      h("div", {}, name, " = ", value, add, hint), list);
  }

  private remember(s: ScenarioInfo, game: Record<string, unknown>): void {
    const seats = (game["seats"] ?? {}) as Record<string, { url?: string }>;
    const links: Record<string, string> = {};
    for (const [seat, info] of Object.entries(seats)) links[seat] = new URL(info.url ?? "", location.href).href;
    const entry: OwnGame = { id: String(game["id"]), scenario: s.id, title: tx(s.title), created: new Date().toISOString(), seats: links };
    saveGames([entry, ...ownGames().filter((g) => g.id !== entry.id)]);
  }

  private gamesEl: HTMLElement | null = null;

  /** "Omat pelit": the games created in this browser, each with its state from the server
   * (read with the GM's link), its seat links, and a button to drop it from the list. */
  private gamesBox(): HTMLElement {
    this.gamesEl = h("section", { id: "own-games", "aria-label": lang() === "fi" ? "Omat pelit" : "My games" });
    this.refreshGames();
    return this.gamesEl;
  }

  private refreshGames(): void {
    const box = this.gamesEl;
    if (!box) return;
    const fi = lang() === "fi";
    clear(box);
    const games = ownGames();
    box.append(h("h2", {}, fi ? "Omat pelit" : "My games"));
    if (!games.length) {
      box.append(h("p", { class: "muted" }, fi ? "Tällä selaimella ei ole luotu pelejä." : "No games created in this browser."));
      return;
    }
    const list = h("ul", { class: "owngames" });
    for (const g of games) {
      const state = h("span", { class: "state" }, "…");
      const gm = g.seats["gm"];
      const links = h("details", {}, h("summary", {}, t("seat_links")),
        h("ul", {}, ...Object.entries(g.seats).map(([seat, url]) => h("li", { "data-seat": seat }, h("strong", {}, seat), " ", h("a", { href: url, class: "seatlink" }, url)))));
      list.append(h("li", { "data-game": g.id },
        h("strong", {}, g.title), ` · ${new Date(g.created).toLocaleString(fi ? "fi-FI" : "en-GB")} · `, state, " ",
        gm ? h("a", { href: gm, class: "gmlink" }, fi ? "Avaa pelinjohtajana" : "Open as GM") : null, " ",
        h("button", { type: "button", class: "forget", onclick: () => {
          saveGames(ownGames().filter((x) => x.id !== g.id));
          this.refreshGames();
        } }, fi ? "Poista listalta" : "Remove from list"),
        links));
      void this.gameState(gm, state);
    }
    box.append(list);
  }

  private async gameState(url: string | undefined, el: HTMLElement): Promise<void> {
    const fi = lang() === "fi";
    const u = url ? new URL(url) : null;
    const seat = u ? seatFromLocation(u) : null;
    if (!seat) {
      el.textContent = "–";
      return;
    }
    try {
      const { view } = await new GameApi(seat).view();
      el.textContent = view.finished
        ? `${t("game_over")}: ${t("winner")} ${view.winner === "draw" ? (fi ? "tasapeli" : "draw") : sideWord(view.winner ?? "")}`
        : `${t("round")} ${view.turn}/${view.rounds} · ${t("turn_of")}: ${sideWord(view.active_side)}`;
      el.dataset["state"] = view.finished ? "over" : "running";
    } catch (e) {
      el.textContent = errorText(e);
      el.dataset["state"] = "error";
    }
  }

  private showLinks(out: HTMLElement, game: Record<string, unknown>): void {
    clear(out);
    const seats = (game["seats"] ?? {}) as Record<string, { url?: string; token?: string }>;
    const list = h("ul", { class: "seatlinks" });
    for (const [seat, info] of Object.entries(seats)) {
      const url = new URL(info.url ?? "", location.href).href;
      list.append(h("li", { "data-seat": seat },
        h("strong", {}, seat), " ",
        h("a", { href: url, target: "_blank", rel: "noopener", class: "seatlink" }, url), " ",
        h("button", { type: "button", onclick: (ev: Event) => {
          void navigator.clipboard?.writeText(url).then(() => { (ev.target as HTMLElement).textContent = t("copied"); });
        } }, t("copy"))));
    }
    out.append(h("h4", {}, t("seat_links")), list);
  }
}

function mapPreview(map: MapData): HTMLCanvasElement {
  const c = h("canvas", { class: "preview", role: "img", "aria-label": map.name });
  const w = 300;
  const hh = Math.round((300 * map.height) / map.width);
  c.width = w;
  c.height = hh;
  const ctx = c.getContext("2d");
  if (ctx) {
    const r = new MapRenderer(map);
    const vp = fitViewport(map.width, map.height, w, hh, 0);
    r.draw(ctx, vp, w, hh, { units: [], contacts: [], objectives: [], side: null, selected: null, hover: null, los: null, mines: [] },
      { reach: new Set(), grid: false, objectives: false, contacts: false });
  }
  return c;
}
