// The lobby: bundled scenarios (title, briefing, seats, map preview), create a game with
// rule options and computer seats; the creator (the GM) gets every seat's link to copy.

import { createGame, listScenarios, scenarioDetail } from "./api";
import { campaignForm } from "./campaign";
import { clear, h } from "./dom";
import { lang, setLang, t, tx, type Lang } from "./i18n";
import { errorText } from "./table";
import type { MapData, Text } from "./types";
import { MapRenderer } from "./render";
import { fitViewport } from "./geometry";

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
  constructor(private root: HTMLElement) {}

  async start(): Promise<void> {
    try {
      const list = await listScenarios();
      this.scenarios = await Promise.all(
        list.map(async (s) => ({ ...s, ...((await scenarioDetail(s.id).catch(() => ({}))) as Partial<ScenarioInfo>) })),
      );
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
    const form = h("form", {
      class: "create", "data-scenario": s.id,
      onsubmit: async (ev: Event) => {
        ev.preventDefault();
        const chosen = [...form.querySelectorAll<HTMLInputElement>("input[name=computer]:checked")].map((i) => i.value);
        try {
          const game = await createGame({ scenario: s.id, computer: chosen });
          this.showLinks(out, game);
        } catch (e) {
          clear(out);
          out.append(h("p", { class: "error", role: "alert" }, errorText(e)));
        }
      },
    }, computer, h("button", { type: "submit", class: "primary" }, t("create_game")));
    const preview = s.map ? mapPreview(s.map) : null;
    return h("section", { class: "scenario", id: `scenario-${s.id}` },
      h("h3", {}, tx(s.title)),
      preview,
      s.briefing ? h("p", { class: "briefing" }, tx(s.briefing)) : null,
      h("p", {}, `${s.rounds ?? "?"} ${t("rounds")} · ${t("seats")}: ${seats.join(", ")}`),
      form, out);
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
