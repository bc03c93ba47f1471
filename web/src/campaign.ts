// The campaign's roster page (issue 12): every unit with its XP bar, TT, TK, veteran
// abilities and battles; the battles and the history; for the GM (and the CO where the
// campaign allows it) spending TP and undoing; for the GM the next battle. A campaign link
// is `#campaign=ID&token=T` (the token stays in the fragment, sent only as a Bearer header).

import type { components } from "./api-types";
import { ApiError, answer } from "./api";
import { clear, h } from "./dom";
import { lang, setLang, t, tx, type Lang } from "./i18n";

type Schemas = components["schemas"];
export type CampaignOut = Schemas["CampaignOut"];
type UnitOut = Schemas["CampaignUnitOut"];

export interface CampaignSeat {
  campaign: string;
  token: string;
}

/** The campaign id and token of a campaign link (`#campaign=ID&token=T`), or null. */
export function campaignFromLocation(loc: { hash: string; search: string }): CampaignSeat | null {
  const hq = new URLSearchParams(loc.hash.replace(/^#\/?/, ""));
  const q = new URLSearchParams(loc.search);
  const campaign = hq.get("campaign") ?? q.get("campaign");
  const token = hq.get("token") ?? q.get("token");
  if (!campaign || !token || !/^[0-9a-f]{1,32}$/.test(campaign)) return null;
  return { campaign, token };
}

/** The XP bar: progress from the last full `per` XP to the next (R-CAMP-3). */
export function xpProgress(xp: number, per: number): { value: number; max: number } {
  const step = Math.max(1, per);
  return { value: xp % step, max: step };
}

/** What one TK restore costs: one TP per `perTp` TK, rounded up (R-CAMP-4). */
export function restoreCost(tk: number, perTp: number): number {
  return Math.ceil(tk / Math.max(1, perTp));
}

const W = {
  campaign: ["Kampanja", "Campaign"],
  roster: ["Vahvuusluettelo", "Roster"],
  tp: ["Täydennyspisteet (TP)", "Replacement points (TP)"],
  card: ["Kortti", "Card"],
  abilities: ["Veteraanikyvyt", "Veteran abilities"],
  battles: ["Taistelut", "Battles"],
  fought: ["Taisteluja", "Battles"],
  fallen: ["Kaatuneet", "Fallen"],
  history: ["Historia", "History"],
  undo: ["Peru viimeisin", "Undo the newest"],
  restore: ["Palauta TK", "Restore TK"],
  buy: ["Osta", "Buy"],
  choose: ["Valitse kyky", "Choose ability"],
  name: ["Nimi", "Name"],
  spend: ["Täydennykset", "Spending"],
  next_battle: ["Seuraava taistelu", "Next battle"],
  start: ["Aloita taistelu", "Start the battle"],
  leave_out: ["Jätä pois", "Leave out"],
  computer: ["Tietokone pelaa", "Computer plays"],
  under_way: ["Taistelu käynnissä", "Battle under way"],
  winner: ["Voittaja", "Winner"],
  export: ["Vie", "Export"],
  seat_links: ["Paikkojen linkit", "Seat links"],
  none: ["–", "–"],
  create: ["Luo kampanja", "Create a campaign"],
  reload: ["Päivitä", "Reload"],
} as const satisfies Record<string, readonly [string, string]>;

function w(word: keyof typeof W): string {
  return W[word][lang() === "fi" ? 0 : 1];
}

export class CampaignApi {
  constructor(readonly seat: CampaignSeat) {}

  private get base(): string {
    return `/api/campaigns/${encodeURIComponent(this.seat.campaign)}`;
  }

  private headers(json = false): Record<string, string> {
    const out: Record<string, string> = { Authorization: `Bearer ${this.seat.token}` };
    if (json) out["Content-Type"] = "application/json";
    return out;
  }

  async view(): Promise<CampaignOut> {
    return answer(await fetch(this.base, { headers: this.headers() }));
  }

  async act(action: string, version: number): Promise<CampaignOut> {
    return answer(
      await fetch(`${this.base}/actions`, {
        method: "POST",
        headers: this.headers(true),
        body: JSON.stringify({ action, version }),
      }),
    );
  }

  async undo(version: number): Promise<CampaignOut> {
    return answer(
      await fetch(`${this.base}/undo`, { method: "POST", headers: this.headers(true), body: JSON.stringify({ version }) }),
    );
  }

  async battle(body: Schemas["CampaignBattleStart"]): Promise<Schemas["CampaignBattleStarted"]> {
    return answer(
      await fetch(`${this.base}/battles`, { method: "POST", headers: this.headers(true), body: JSON.stringify(body) }),
    );
  }

  async exported(format: "csv" | "html" | "pdf"): Promise<Blob> {
    const res = await fetch(`${this.base}/export?format=${format}&lang=${lang()}`, { headers: this.headers() });
    if (!res.ok) await answer(res);
    return res.blob();
  }
}

export async function createCampaign(body: Schemas["CampaignCreate"]): Promise<Schemas["CampaignCreated"]> {
  return answer(
    await fetch("/api/campaigns", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) }),
  );
}

function errorOf(e: unknown): string {
  if (e instanceof ApiError) return lang() === "fi" ? e.text.fi : e.text.en;
  return String(e);
}

export class CampaignPage {
  private api: CampaignApi;
  private view: CampaignOut | null = null;
  private message = "";
  private links: Record<string, { url: string }> = {};

  constructor(private root: HTMLElement, seat: CampaignSeat) {
    this.api = new CampaignApi(seat);
  }

  async start(): Promise<void> {
    await this.reload();
  }

  private async reload(): Promise<void> {
    try {
      this.view = await this.api.view();
      this.message = "";
    } catch (e) {
      this.message = errorOf(e);
    }
    this.render();
  }

  private async run(job: () => Promise<CampaignOut>): Promise<void> {
    try {
      this.view = await job();
      this.message = "";
    } catch (e) {
      this.message = errorOf(e);
    }
    this.render();
  }

  private render(): void {
    clear(this.root);
    const v = this.view;
    const langSel = h(
      "select",
      { id: "lang", "aria-label": t("language"), onchange: (ev: Event) => { setLang((ev.target as HTMLSelectElement).value as Lang); this.render(); } },
      h("option", { value: "fi", selected: lang() === "fi" }, "suomi"),
      h("option", { value: "en", selected: lang() === "en" }, "English"),
    );
    const main = h("main", { class: "campaign" },
      h("header", { class: "bar" }, h("h1", {}, `${w("campaign")}: ${v?.name ?? ""}`), langSel));
    if (this.message) main.append(h("p", { class: "error", role: "alert" }, this.message));
    if (!v) {
      this.root.append(main);
      return;
    }
    document.body.dataset["version"] = String(v.version);
    main.append(h("p", { id: "tp" }, `${w("tp")}: `, h("strong", {}, String(v.tp))));
    if (v.battle) {
      main.append(h("p", { class: "battle-on", role: "status" }, `${w("under_way")}: ${v.battle.scenario ?? ""} (${v.battle.game ?? ""}) `,
        h("button", { type: "button", onclick: () => void this.reload() }, w("reload"))));
    }
    main.append(h("h2", {}, w("roster")), this.rosterTable(v, v.units, true));
    if (v.fallen.length) main.append(h("h2", {}, w("fallen")), this.rosterTable(v, v.fallen, false));
    if (v.may_spend && !v.battle) main.append(this.spendForms(v));
    main.append(h("h2", {}, w("battles")), this.battleTable(v));
    main.append(h("h2", {}, w("history")), this.historyList(v));
    if (v.seat === "gm" && !v.battle) main.append(this.battleForm(v));
    main.append(this.exports());
    this.root.append(main);
  }

  private rosterTable(v: CampaignOut, units: UnitOut[], live: boolean): HTMLElement {
    const per = Number((v.rules as Record<string, unknown>)["campaign_xp_per_tt"] ?? 10);
    const perTp = Number((v.rules as Record<string, unknown>)["campaign_tk_per_tp"] ?? 2);
    const body = h("tbody");
    for (const u of units) {
      const bar = xpProgress(u.xp, per);
      const lost = u.max_strength - u.strength;
      const row = h("tr", { "data-unit": u.name },
        h("th", { scope: "row" }, u.name, u.label ? h("span", { class: "label" }, ` ${tx(u.label)}`) : null),
        h("td", {}, u.card),
        h("td", { class: "xp" },
          h("progress", { value: bar.value, max: bar.max, "aria-label": `XP ${u.xp}, TT +1 ${u.next_tt_at} XP` }),
          ` ${u.xp}`),
        h("td", { class: "tt" }, `${u.tt >= 0 ? "+" : ""}${u.tt}`),
        h("td", { class: "tk" }, `${u.strength}/${u.max_strength}`),
        h("td", {}, u.statuses.join(" ")),
        h("td", { class: "abilities" }, u.abilities.join(", ") || w("none")),
        h("td", { class: "battles" }, String(u.battles)));
      if (live && v.may_spend && !v.battle && lost > 0) {
        const tk = Math.min(lost, perTp);
        row.append(h("td", {}, h("button", {
          type: "button", class: "restore", "data-unit": u.name,
          onclick: () => void this.run(() => this.api.act(`restore ${u.name} ${tk}`, v.version)),
        }, `${w("restore")} +${tk} (${restoreCost(tk, perTp)} TP)`)));
      }
      body.append(row);
    }
    return h("table", { class: live ? "roster" : "fallen" },
      h("thead", {}, h("tr", {}, ...[t("unit"), w("card"), "XP", "TT", "TK", t("statuses"), w("abilities"), w("fought")].map((x) => h("th", {}, x)))),
      body);
  }

  private spendForms(v: CampaignOut): HTMLElement {
    const card = h("select", { name: "card", "aria-label": w("card") },
      ...Object.entries(v.costs).map(([c, p]) => h("option", { value: c }, `${c} (${p} TP)`)));
    const name = h("input", { name: "name", "aria-label": w("name"), placeholder: w("name"), pattern: "[A-Za-z0-9][A-Za-z0-9_\\-]{0,23}", required: true });
    const buy = h("form", {
      class: "buy",
      onsubmit: (ev: Event) => { ev.preventDefault(); void this.run(() => this.api.act(`buy ${card.value} ${name.value}`, v.version)); },
    }, card, name, h("button", { type: "submit" }, w("buy")));
    const eligible = v.units.filter((u) => u.may_choose_ability);
    const out = h("section", { class: "spend" }, h("h2", {}, w("spend")), buy);
    if (eligible.length) {
      const unit = h("select", { name: "unit", "aria-label": t("unit") }, ...eligible.map((u) => h("option", { value: u.name }, u.name)));
      const ability = h("select", { name: "ability", "aria-label": w("abilities") }, ...v.veteran_abilities.map((a) => h("option", { value: a }, a)));
      out.append(h("form", {
        class: "ability",
        onsubmit: (ev: Event) => { ev.preventDefault(); void this.run(() => this.api.act(`ability ${unit.value} ${ability.value}`, v.version)); },
      }, unit, ability, h("button", { type: "submit" }, w("choose"))));
    }
    return out;
  }

  private battleTable(v: CampaignOut): HTMLElement {
    return h("table", { class: "battles" },
      h("thead", {}, h("tr", {}, ...["#", w("campaign"), w("winner"), "VP", "TP", "XP", w("fallen")].map((x) => h("th", {}, x)))),
      h("tbody", {}, ...v.battles.map((b) => h("tr", { "data-battle": b.number },
        h("td", {}, String(b.number)), h("td", {}, b.scenario), h("td", {}, b.winner), h("td", {}, String(b.victory_points)),
        h("td", {}, `+${b.tp}`), h("td", {}, `+${Object.values(b.xp).reduce((a, x) => a + x, 0)}`), h("td", {}, b.destroyed.join(", "))))));
  }

  private historyList(v: CampaignOut): HTMLElement {
    const list = h("ol", { class: "history" });
    for (const e of v.history) {
      list.append(h("li", { "data-seq": e.seq, class: e.undone ? "undone" : "" },
        `${e.when} ${e.actor}: ${e.what}${e.why ? ` — ${e.why}` : ""}`));
    }
    const out = h("div", {}, list);
    if (v.may_undo && v.undoable.length) {
      out.append(h("button", { type: "button", class: "undo", onclick: () => void this.run(() => this.api.undo(v.version)) }, w("undo")));
    }
    return out;
  }

  private battleForm(v: CampaignOut): HTMLElement {
    const scenario = h("input", { name: "scenario", value: "demo", "aria-label": w("campaign"), required: true });
    const leave = h("fieldset", {}, h("legend", {}, w("leave_out")),
      ...v.units.map((u) => h("label", {}, h("input", { type: "checkbox", name: "leave", value: u.name }), ` ${u.name} `)));
    const computer = h("input", { type: "checkbox", name: "computer" });
    const out = h("div", { class: "links", "aria-live": "polite" });
    const form = h("form", {
      class: "next-battle",
      onsubmit: async (ev: Event) => {
        ev.preventDefault();
        const leaveOut = [...form.querySelectorAll<HTMLInputElement>("input[name=leave]:checked")].map((i) => i.value);
        try {
          const started = await this.api.battle({ scenario: scenario.value, leave_out: leaveOut, computer: computer.checked ? Object.keys(await this.seatsOf(scenario.value)) : [] });
          this.links = started.seats;
          this.view = started.campaign;
          this.message = "";
        } catch (e) {
          this.message = errorOf(e);
        }
        this.render();
      },
    }, h("h2", {}, w("next_battle")), scenario, leave, h("label", {}, computer, ` ${w("computer")}`), h("button", { type: "submit", class: "primary" }, w("start")));
    const list = h("ul", { class: "seatlinks" },
      ...Object.entries(this.links).map(([seat, info]) => h("li", { "data-seat": seat }, h("strong", {}, seat), " ",
        h("a", { href: new URL(info.url, location.href).href, class: "seatlink", target: "_blank", rel: "noopener" }, info.url))));
    out.append(list);
    return h("section", {}, form, out);
  }

  private async seatsOf(scenario: string): Promise<Record<string, true>> {
    const list = (await answer(await fetch("/api/scenarios"))) as { id: string; seats: string[] }[];
    const found = list.find((s) => s.id === scenario);
    return Object.fromEntries((found?.seats ?? []).map((s) => [s, true as const]));
  }

  private exports(): HTMLElement {
    const open = (fmt: "csv" | "html" | "pdf") => async () => {
      try {
        const blob = await this.api.exported(fmt);
        const url = URL.createObjectURL(blob);
        const a = h("a", { href: url, download: `roster.${fmt}` });
        document.body.append(a);
        a.click();
        a.remove();
      } catch (e) {
        this.message = errorOf(e);
        this.render();
      }
    };
    return h("p", { class: "exports" }, `${w("export")}: `,
      h("button", { type: "button", "data-format": "csv", onclick: () => void open("csv")() }, "CSV"), " ",
      h("button", { type: "button", "data-format": "html", onclick: () => void open("html")() }, "HTML"), " ",
      h("button", { type: "button", "data-format": "pdf", onclick: () => void open("pdf")() }, "PDF"));
  }
}

/** The lobby's campaign form: a name and the scenario whose Blue forces start it. */
export function campaignForm(scenarios: { id: string; title: string }[]): HTMLElement {
  const name = h("input", { name: "campaign-name", "aria-label": w("name"), placeholder: w("name"), required: true, maxlength: 100 });
  const scenario = h("select", { name: "campaign-scenario", "aria-label": w("campaign") },
    ...scenarios.map((s) => h("option", { value: s.id }, s.title)));
  const out = h("div", { class: "links", "aria-live": "polite" });
  const form = h("form", {
    class: "new-campaign",
    onsubmit: async (ev: Event) => {
      ev.preventDefault();
      clear(out);
      try {
        const made = await createCampaign({ name: name.value, scenario: scenario.value, co_spends: false });
        out.append(h("h4", {}, w("seat_links")), h("ul", { class: "seatlinks" },
          ...Object.entries(made.seats).map(([seat, info]) => h("li", { "data-seat": seat }, h("strong", {}, seat), " ",
            h("a", { href: new URL(info.url, location.href).href, class: "campaignlink", target: "_blank", rel: "noopener" }, info.url)))));
      } catch (e) {
        out.append(h("p", { class: "error", role: "alert" }, errorOf(e)));
      }
    },
  }, name, scenario, h("button", { type: "submit", class: "primary" }, w("create")));
  return h("section", { id: "campaigns" }, h("h2", {}, w("campaign")), form, out);
}
