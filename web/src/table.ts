// The table for one seat token: map, counters, phase bar, unit panel, orders, odds, event
// log, live updates. Every number and every order comes from the server: the client draws
// and asks, and after each change it fetches the seat's view again (resync, not trust).

import { ApiError, GameApi, type RevealOut, type Seat } from "./api";
import { rollsOfEvents, verifyDice } from "./dice";
import { clear, h } from "./dom";
import { type Cell, type Viewport, cellAt, cellCentre, cellKey, fitViewport, nearest, pan, zoomAt } from "./geometry";
import { lang, phaseWord, setLang, sideWord, statusWord, t, tx, type Lang } from "./i18n";
import { eventRow, eventSummary, eventTitle } from "./log";
import { oddsPanel } from "./odds";
import { type LastKnown, lastKnown } from "./lastknown";
import {
  type Family, type ParsedOrder, type Section, commonPrefix, complete, familyAt, families, ordersForCell, ordersForTarget,
  ordersOfUnit, parseOrder, reachCells,
} from "./orders";
import { type Layers, MapRenderer, type Ranges, type Scene } from "./render";
import { type Board, type Victory, finalScore, scoreboard } from "./score";
import { printButton } from "./print";
import type { ContactView, GameView, MapData, UnitView } from "./types";

const SHORTCUTS: [string, string, string][] = [
  ["← ↑ → ↓", "Kartalla: siirrä kursoria (Ctrl: 5 ruutua); muualla: panoroi", "On the map: move the cursor (Ctrl: 5 cells); elsewhere: pan"],
  ["Shift + ← ↑ → ↓", "Panoroi", "Pan"],
  ["Enter / välilyönti", "Kartalla: valitse kursorin ruutu (kuin klikkaus)", "On the map: pick the cursor's cell (as a click)"],
  ["+ / −", "Lähennä / loitonna", "Zoom in / out"],
  ["0", "Sovita kartta", "Fit the map"],
  ["R", "Ulottuvuus päälle/pois", "Reach overlay on/off"],
  ["L", "Näköyhteys päälle/pois", "Line of sight on/off"],
  ["F", "Tulen ulottuvuus (aseen kantama) päälle/pois", "Ranges (weapon reach) on/off"],
  ["O", "Tavoitteet päälle/pois", "Objectives on/off"],
  ["G", "Ruudukko ja koordinaatit", "Grid and coordinates"],
  ["C", "Kontaktit päälle/pois", "Contacts on/off"],
  ["M", "Tunnetut miinoitteet päälle/pois", "Known minefields on/off"],
  ["N", "Seuraava oma yksikkö", "Next own unit"],
  ["Enter", "Muualla kuin kartalla: kirjoita käsky", "Off the map: type an order"],
  ["Esc", "Poista valinta / peru ruudun valinta / sulje", "Deselect / stop picking a cell / close"],
  ["?", "Tämä ohje", "This help"],
];

export class Table {
  private api: GameApi;
  private root: HTMLElement;
  private canvas!: HTMLCanvasElement;
  private ctx!: CanvasRenderingContext2D;
  private renderer: MapRenderer | null = null;
  private map: MapData | null = null;
  /** The scenario's VP per enemy unit destroyed and per own unit lost (public). */
  private victory: Victory | null = null;
  private view: GameView | null = null;
  private version = -1;
  private legal: ParsedOrder[] = [];
  private legalText: string[] = [];
  private costs: Record<string, number> = {};
  private vp: Viewport = { scale: 16, ox: 0, oy: 0 };
  private selected: string | null = null;
  private hover: Cell | null = null;
  /** The keyboard's map cursor: arrow keys on the focused map move it, Enter picks its
   * cell exactly as a click would (`onClick`). Drawn only while the map has the keyboard's
   * focus. */
  private cursor: Cell | null = null;
  private keyboardCursor = false;
  private los: Scene["los"] = null;
  private losInfo: { visible: boolean; distance: number; cover: number; limited_by: string | null; rule: string } | null = null;
  private layers: Layers = { reach: new Set(), grid: true, objectives: true, contacts: true, mines: true };
  private showReach = true;
  private showLos = true;
  private showRanges = false;
  /** Last-known markers of the shown side (recomputed on each new view). */
  private marks: LastKnown[] = [];
  /** A menu's order waiting for its cell to be picked on the map. */
  private picking: Family | null = null;
  private logFilter = "";
  private connected = false;
  private els: Record<string, HTMLElement> = {};
  private oddsCache = new Map<string, Record<string, unknown>>();
  private oddsShown = "";
  private frame = 0;
  private touched = false;
  /** GM only: whose view the table shows ("gm", "blue" or "red"). */
  private viewAs = "gm";
  private ownView: GameView | null = null;
  private shownAs = "gm";
  private pending: string | null = null;
  private refreshing: Promise<void> | null = null;
  private again = false;
  private stopLive: (() => void) | null = null;

  constructor(root: HTMLElement, seat: Seat) {
    this.root = root;
    this.api = new GameApi(seat);
  }

  async start(): Promise<void> {
    this.build();
    document.addEventListener("keydown", (ev) => this.onKey(ev));
    try {
      const [map, { version, view, orders }] = await Promise.all([this.api.map(), this.api.view()]);
      this.map = map;
      this.victory = ((map as { victory?: Victory | null }).victory ?? null);
      performance.mark("tk20-fetched");
      this.renderer = new MapRenderer(map);
      performance.mark("tk20-renderer");
      this.version = version;
      this.view = view;
      this.ownView = view;
      this.updateMarks();
      this.fit();
      performance.mark("tk20-fit");
      await this.loadOrders(orders);
      performance.mark("tk20-orders");
      this.renderAll();
      performance.mark("tk20-rendered");
    } catch (e) {
      this.showError(e);
      return;
    }
    this.stopLive = this.api.live(
      () => this.version,
      (msg) => {
        if (msg.version !== this.version) void this.refresh();
      },
      (on) => {
        this.connected = on;
        this.renderBar();
        if (on) void this.refresh();
      },
    );
  }

  stop(): void {
    this.stopLive?.();
  }

  // ------------------------------------------------------------------ data

  private async refresh(): Promise<void> {
    if (this.refreshing) {
      this.again = true;
      return this.refreshing;
    }
    this.refreshing = (async () => {
      do {
        this.again = false;
        try {
          const { version, view, orders } = await this.api.view();
          if (version !== this.version || !this.view || this.viewAs !== this.shownAs) {
            const wasMine = this.myTurn();
            this.shownAs = this.viewAs;
            this.version = version;
            this.ownView = view;
            this.view = this.viewAs === "gm" ? view : (await this.api.viewAs(this.viewAs)).view;
            this.oddsCache.clear();
            this.updateMarks();
            await this.loadOrders(orders);
            if (this.selected && !this.view.units.some((u) => u.id === this.selected)) this.selected = null;
            this.renderAll();
            if (!wasMine && this.myTurn()) this.notifyTurn();
          }
        } catch (e) {
          this.showError(e);
        }
      } while (this.again);
    })();
    await this.refreshing;
    this.refreshing = null;
  }

  private async loadOrders(given?: string[]): Promise<void> {
    try {
      const orders = given ?? (await this.api.orders()).orders;
      this.legalText = orders;
      this.legal = orders.map(parseOrder);
      this.costs = {};
    } catch (e) {
      if (e instanceof ApiError && (e.status === 403 || e.status === 409)) {
        this.legalText = [];
        this.legal = [];
      } else throw e;
    }
    this.updateReach();
    this.renderPanel();
    document.body.dataset["version"] = String(this.version);
  }

  // ------------------------------------------------------------------ layout

  private build(): void {
    clear(this.root);
    this.canvas = h("canvas", {
      id: "map", tabindex: 0, role: "application", "aria-describedby": "cursor-info",
      "aria-label": lang() === "fi"
        ? "Kartta: nuolinäppäimet siirtävät kursoria, Enter valitsee ruudun, Esc peruu, ? ohje"
        : "Map: arrow keys move the cursor, Enter picks the cell, Esc cancels, ? help",
    });
    const ctx = this.canvas.getContext("2d");
    if (!ctx) throw new Error("no canvas");
    this.ctx = ctx;
    this.els["bar"] = h("header", { class: "bar", id: "phasebar", role: "banner" });
    this.els["panel"] = h("aside", { class: "panel", id: "panel", "aria-label": t("unit") });
    this.els["odds"] = h("div", { id: "oddsbox" });
    this.els["los"] = h("p", { id: "losinfo", class: "muted", "aria-live": "polite" });
    this.els["log"] = h("ol", { class: "log", id: "log", "aria-live": "polite" });
    this.els["tip"] = h("div", { class: "tip", id: "tip", role: "tooltip", hidden: true });
    this.els["cursor"] = h("p", { class: "cursor-info", id: "cursor-info", "aria-live": "polite", "aria-atomic": "true" });
    this.els["error"] = h("div", { class: "error", id: "error", role: "alert", hidden: true });
    const filter = h("input", {
      type: "search", id: "logfilter", placeholder: t("filter"), "aria-label": t("filter"),
      oninput: (ev: Event) => {
        this.logFilter = (ev.target as HTMLInputElement).value.trim().toLowerCase();
        this.renderLog();
      },
    });
    const logBox = h("details", { class: "logbox", open: true }, h("summary", {}, t("log")), filter, this.els["log"]);
    const mapBox = h("main", { class: "mapbox", id: "mapbox" }, this.canvas, this.els["tip"], this.els["cursor"]);
    this.root.append(this.els["bar"], h("div", { class: "middle" }, mapBox, this.els["panel"]), logBox, this.els["error"]);
    this.bindMap();
    // Re-fit while the user has not zoomed or panned (the panel and the log settle the map's
    // size after the first frame); afterwards only resize.
    new ResizeObserver(() => (this.touched ? this.resize() : this.fit())).observe(mapBox);
  }

  private resize(): void {
    const box = this.canvas.parentElement;
    if (!box) return;
    const dpr = window.devicePixelRatio || 1;
    const w = box.clientWidth;
    const hgt = box.clientHeight;
    this.canvas.width = Math.round(w * dpr);
    this.canvas.height = Math.round(hgt * dpr);
    this.canvas.style.width = `${w}px`;
    this.canvas.style.height = `${hgt}px`;
    this.ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    this.draw();
  }

  private fit(): void {
    const box = this.canvas.parentElement;
    if (!box || !this.map) return;
    this.vp = fitViewport(this.map.width, this.map.height, box.clientWidth, box.clientHeight);
    this.resize();
  }

  private size(): [number, number] {
    return [this.canvas.clientWidth, this.canvas.clientHeight];
  }

  // ------------------------------------------------------------------ drawing

  private scene(): Scene {
    const v = this.view;
    const contacts: ContactView[] = !v
      ? []
      : Array.isArray(v.contacts)
        ? v.contacts
        : Object.values(v.contacts).flat();
    const mines = minesOf(v);
    return {
      units: v?.units ?? [],
      contacts: contacts.filter((c) => c.level !== "SPOTTED"),
      objectives: v?.objectives ?? [],
      side: v?.side ?? null,
      selected: this.selected,
      hover: this.hover,
      cursor: this.cursorShown() ? this.cursor : null,
      los: this.showLos ? this.los : null,
      mines,
      ranges: this.showRanges ? this.ranges() : null,
      lastKnown: this.marks,
    };
  }

  /** The selected unit's weapon reach and the cells of the targets it may fire at now. */
  private ranges(): Ranges | null {
    const v = this.view;
    const u = v?.units.find((x) => x.id === this.selected);
    if (!v || !u || !u.weapon) return null;
    const targets: Cell[] = [];
    const where = new Map<string, Cell>();
    for (const x of v.units) where.set(x.id, x.cell);
    for (const c of this.contactsShown()) if (c.area) where.set(c.label, [c.area[0] + Math.floor(c.area[2] / 2), c.area[1] + Math.floor(c.area[2] / 2)]);
    for (const o of this.legal) {
      if (o.unit !== u.id || (o.kind !== "fire" && o.kind !== "attack") || o.cells.length) continue;
      const at = where.get(o.refs[1] ?? "");
      if (at) targets.push(at);
    }
    return { cell: u.cell, range: u.weapon.range, min: u.weapon.min_range ?? 0, targets };
  }

  private contactsShown(): ContactView[] {
    const v = this.view;
    if (!v) return [];
    return Array.isArray(v.contacts) ? v.contacts : Object.values(v.contacts).flat();
  }

  draw(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      if (!this.renderer) return;
      const [w, hgt] = this.size();
      const t0 = performance.now();
      this.renderer.draw(this.ctx, this.vp, w, hgt, this.scene(), this.layers);
      // Each frame's drawing time, for the pan benchmark (benchmarks/bench_web.py).
      if (performance.getEntriesByName("tk20-frame").length > 2000) performance.clearMeasures("tk20-frame");
      performance.measure("tk20-frame", { start: t0, end: performance.now() });
      const d = this.canvas.dataset;
      d["scale"] = String(this.vp.scale);
      d["ox"] = String(this.vp.ox);
      d["oy"] = String(this.vp.oy);
      d["reach"] = String(this.layers.reach.size);
      d["selected"] = this.selected ?? "";
      d["builds"] = String(this.renderer.cacheBuilds);
      d["ranges"] = this.showRanges ? "1" : "";
      d["lastknown"] = String(this.marks.length);
      d["picking"] = this.picking?.pattern ?? "";
      d["cursor"] = this.cursorShown() && this.cursor ? `${this.cursor[0]},${this.cursor[1]}` : "";
      // The map is drawn and answers clicks: what the speed benchmark waits for.
      if (!document.body.dataset["ready"]) performance.mark("tk20-ready");
      document.body.dataset["ready"] = "1";
    });
  }

  private renderAll(): void {
    this.renderBar();
    this.renderPanel();
    this.renderLog();
    this.draw();
    this.updateTitle();
  }

  private myTurn(): boolean {
    const v = this.view;
    if (!v || v.finished) return false;
    const seat = v.seat ?? v.viewer;
    const side = v.side ?? "red";
    return v.active_side === side && !v.done.includes(seat);
  }

  /** A browser notification when the seat's turn comes while the tab is in the background
   * (permission asked when the player first presses Done). */
  private notifyTurn(): void {
    if (!document.hidden || typeof Notification === "undefined" || Notification.permission !== "granted") return;
    const v = this.view;
    new Notification(t("your_turn"), { body: v ? `${tx(v.title)} — ${t("round")} ${v.turn}/${v.rounds}` : "", tag: "tk20-turn" });
  }

  private askNotifications(): void {
    if (typeof Notification !== "undefined" && Notification.permission === "default") {
      void Notification.requestPermission().catch(() => undefined);
    }
  }

  private updateTitle(): void {
    const v = this.view;
    const base = v ? `${tx(v.title)} — ${t("title")}` : t("title");
    document.title = this.myTurn() ? `(●) ${t("your_turn")} — ${base}` : base;
  }

  private renderBar(): void {
    const bar = this.els["bar"];
    const v = this.view;
    if (!bar) return;
    clear(bar);
    if (!v) {
      bar.append(h("span", {}, t("loading")));
      return;
    }
    const seat = v.seat ?? v.viewer;
    const seats = Object.keys(v.command_points ?? {});
    const waiting = v.active_side === (v.side ?? v.active_side) ? seats.filter((s) => !v.done.includes(s)) : [];
    const kp = v.seat_command_points ?? v.command_points?.[seat];
    const langSel = h(
      "select",
      { id: "lang", "aria-label": t("language"), onchange: (ev: Event) => this.switchLang((ev.target as HTMLSelectElement).value as Lang) },
      h("option", { value: "fi", selected: lang() === "fi" }, "suomi"),
      h("option", { value: "en", selected: lang() === "en" }, "English"),
    );
    const items: (HTMLElement | null)[] = [
      h("h1", {}, tx(v.title)),
      h("span", { class: "pill", id: "round" }, `${t("round")} ${v.turn}/${v.rounds}`),
      h("span", { class: "pill", id: "phase" }, phaseWord(v.phase)),
      h("span", { class: `pill side-${v.active_side}`, id: "active" }, `${t("turn_of")}: ${sideWord(v.active_side)}`),
      h("span", { class: "pill", id: "done-seats" }, `${t("done_seats")}: ${v.done.join(", ") || "–"}`),
      waiting.length ? h("span", { class: "pill", id: "waiting" }, `${t("waiting_for")}: ${waiting.join(", ")}`) : null,
      kp !== undefined ? h("span", { class: "pill kp", id: "kp" }, `${t("kp")} ${kp}`) : null,
      h("span", { class: "pill seat" }, seat),
      printButton(this.api.seat),
      v.finished
        ? h("span", { class: "pill over", id: "gameover" }, `${t("game_over")}: ${t("winner")} ${sideWord(v.winner ?? "")}`)
        : h("button", { id: "done", class: this.myTurn() ? "primary" : "", disabled: !this.legalText.includes("done"), onclick: () => {
          this.askNotifications();
          this.confirmOrders([parseOrder("done")]);
        } }, t("done_button")),
      h("span", { class: `conn ${this.connected ? "on" : "off"}`, id: "conn", title: this.connected ? t("connected") : t("disconnected") }, this.connected ? "●" : `○ ${t("disconnected")}`),
      this.ownView?.side === null ? this.gmControls() : null,
      langSel,
      h("button", { id: "help", "aria-label": t("shortcuts"), onclick: () => this.help() }, "?"),
    ];
    for (const item of items) if (item) bar.append(item);
  }

  private gmControls(): HTMLElement {
    const sel = h(
      "select",
      {
        id: "view-as", "aria-label": t("view_as"),
        onchange: (ev: Event) => {
          this.viewAs = (ev.target as HTMLSelectElement).value;
          this.selected = null;
          void this.refresh();
        },
      },
      ...(["gm", "blue", "red"] as const).map((k) =>
        h("option", { value: k, selected: this.viewAs === k }, k === "gm" ? t("gm") : sideWord(k))),
    );
    const undo = h("button", {
      id: "undo",
      onclick: () => {
        if (!window.confirm(`${t("undo")}?`)) return;
        void this.api.undo().then(() => this.refresh(), (e: unknown) => this.showError(e));
      },
    }, t("undo"));
    return h("span", { class: "gm" }, h("label", {}, `${t("view_as")} `, sel), " ", undo);
  }

  private renderPanel(): void {
    const panel = this.els["panel"];
    const v = this.view;
    if (!panel || !v) return;
    clear(panel);
    const own = v.units.filter((u) => (v.side === null ? true : u.side === v.side));
    const unit = v.units.find((u) => u.id === this.selected) ?? null;
    if (v.finished) panel.append(this.report(v));
    if (unit) panel.append(this.unitCard(unit));
    else panel.append(h("p", { class: "hint" }, t("no_unit_selected")));
    if (v.side === null) panel.append(this.gmBox(v));
    if (this.picking) panel.append(this.pickBanner(this.picking));
    if (unit) panel.append(this.unitOrders(unit.id));
    panel.append(this.commandMenus(unit?.id ?? null));
    panel.append(this.els["los"] ?? h("p"));
    this.renderLosInfo();
    panel.append(this.els["odds"] ?? h("div"));
    panel.append(this.orderInput());
    panel.append(this.objectivesBox(v));
    const marks = this.lastKnownBox();
    if (marks) panel.append(marks);
    const ownList = h("ul", { class: "ownunits", id: "own-units" });
    for (const u of own) {
      ownList.append(
        h("li", {}, h("button", { class: `unitbtn${u.id === this.selected ? " sel" : ""}`, "data-unit": u.id, onclick: () => this.select(u.id) },
          `${u.id} ${tx(u.name)} ${u.strength}/${u.max_strength}`)),
      );
    }
    panel.append(h("h3", {}, v.side === null ? t("gm") : t("own_units")), ownList);
  }

  private pickBanner(f: Family): HTMLElement {
    const fi = lang() === "fi";
    return h("div", { class: "picking", id: "picking", role: "status" },
      h("p", {}, `${fi ? "Valitse ruutu kartalta" : "Pick a cell on the map"}: `, h("code", {}, f.pattern),
        ` (${f.cells.length} ${fi ? "ruutua" : "cells"})`),
      h("button", { id: "stop-picking", onclick: () => this.stopPicking() }, `${t("cancel")} (Esc)`));
  }

  /** A menu entry: a plain order's button (confirmed before it is sent), or for orders that
   * differ only in their cell a button that lights those cells on the map to pick one. */
  private familyItem(f: Family): HTMLElement {
    const fi = lang() === "fi";
    if (f.cells.length === 0) {
      const o = f.orders[0] as ParsedOrder;
      return h("li", {}, h("button", { class: "order", "data-order": o.text, onclick: () => this.confirmOrders([o]) }, o.text, this.costTag(o.text)));
    }
    if (f.kind === "move") {
      return h("li", { class: "muted" }, `${f.pattern}: ${f.cells.length} ${fi ? "ruutua (klikkaa karttaa)" : "cells (click the map)"}`);
    }
    return h("li", {}, h("button", {
      class: "order pick", "data-pattern": f.pattern, "aria-pressed": this.picking?.pattern === f.pattern ? "true" : "false",
      onclick: () => this.pick(f),
    }, f.pattern, h("span", { class: "cost" }, ` — ${fi ? "valitse ruutu" : "pick a cell"} (${f.cells.length})`)));
  }

  private static readonly SECTIONS: Record<Section, [string, string]> = {
    unit: ["Käskyt", "Orders"],
    mines: ["Miinat", "Mines"],
    tactics: ["Komppanian taktiikat", "Company tactics"],
    fire_support: ["Tulituki", "Fire support"],
    other: ["Muut käskyt", "Other orders"],
  };

  private section(id: string, which: Section, items: Family[], extra: HTMLElement | null = null): HTMLElement | null {
    if (!items.length && !extra) return null;
    const [fi, en] = Table.SECTIONS[which];
    const list = h("ul", { class: "orders" }, ...items.slice(0, 40).map((f) => this.familyItem(f)));
    if (items.length > 40) list.append(h("li", { class: "muted" }, `… +${items.length - 40}`));
    return h("section", { class: `menu menu-${which}`, id, "aria-label": lang() === "fi" ? fi : en },
      h("h3", {}, lang() === "fi" ? fi : en), extra, items.length ? list : null);
  }

  /** The selected unit's own orders (moves by clicking the map; mines in their own menu). */
  private unitOrders(unit: string): HTMLElement {
    const fs = families(this.legal, (o) => o.unit === unit && o.kind !== "organic" && o.kind !== "boost");
    const box = h("div", { id: "unit-orders" });
    for (const el of [
      this.section("menu-unit", "unit", fs.filter((f) => f.section === "unit" || f.section === "other")),
      this.section("menu-mines", "mines", fs.filter((f) => f.section === "mines")),
    ]) if (el) box.append(el);
    return box;
  }

  /** The seat's orders that belong to no one unit: company tactics and the CO's transfers,
   * fire support (requests, boosts, strikes, with the delay shown when confirming), and
   * anything else the rules list. Always shown, whichever unit is selected. */
  private commandMenus(selected: string | null): HTMLElement {
    const fs = families(this.legal, (o) => o.unit === null || o.kind === "organic" || o.kind === "boost");
    const box = h("div", { id: "command-menus" });
    const fsView = this.fireSupportInfo();
    for (const el of [
      this.section("menu-tactics", "tactics", fs.filter((f) => f.section === "tactics")),
      this.section("menu-fire", "fire_support", fs.filter((f) => f.section === "fire_support"), fsView),
      this.section("menu-other", "other", fs.filter((f) => f.section === "other" || (f.section === "unit" && f.orders[0]?.unit !== selected))),
    ]) if (el) box.append(el);
    return box;
  }

  /** The side's own pending strikes and what is left (never the secret delay). */
  private fireSupportInfo(): HTMLElement | null {
    const v = this.view;
    const fs = (v?.["fire_support"] ?? null) as { pending?: Record<string, unknown>[]; rounds_left?: Record<string, number>; requests_left?: unknown } | null;
    if (!v || !fs || v.side === null || (!fs.pending?.length && !Object.keys(fs.rounds_left ?? {}).length && !fs.requests_left)) return null;
    const fi = lang() === "fi";
    const left = Object.entries(fs.rounds_left ?? {}).map(([k, n]) => `${k} ${n}`).join(", ");
    return h("div", { class: "fs-info", id: "fire-support-info" },
      left ? h("p", {}, `${fi ? "Laukauksia jäljellä" : "Rounds left"}: ${left}`) : null,
      typeof fs.requests_left === "number" ? h("p", {}, `${fi ? "Tulitukipyyntöjä jäljellä" : "Requests left"}: ${fs.requests_left}`) : null,
      fs.pending?.length
        ? h("ul", { id: "pending-own" }, ...fs.pending.map((p) => h("li", {},
          `${fi ? "Tulossa" : "Pending"}: ${String(p["kind"] ?? "")} ${String(p["weapon"] ?? p["unit"] ?? "")} → ${Array.isArray(p["cell"]) ? (p["cell"] as number[]).join(",") : ""}`)))
        : null);
  }

  /** GM: every side's KP and the pending strikes with their delay. */
  private gmBox(v: GameView): HTMLElement {
    const fs = (v["fire_support"] ?? {}) as { pending?: Record<string, unknown>[] };
    const pending = Array.isArray(fs.pending) ? fs.pending : [];
    const fi = lang() === "fi";
    // Red's battle groups (R-KP-2: one pool of 3 KP per group and turn, at most 4 on a group).
    const groups = new Map<string, UnitView[]>();
    for (const u of v.units) {
      if (u.side !== "red") continue;
      const g = String((u as { group?: unknown }).group ?? "–");
      groups.set(g, [...(groups.get(g) ?? []), u]);
    }
    return h("section", { id: "gm-box" },
      h("h3", {}, t("kp")),
      h("p", {}, Object.entries(v.command_points).map(([k, x]) => `${k} ${x}`).join(" · ") || "–"),
      h("h3", {}, fi ? "Taisteluryhmät" : "Battle groups"),
      h("ul", { id: "battle-groups" }, ...[...groups].map(([g, us]) => h("li", { "data-group": g },
        `${g}: ${us.map((u) => `${u.id} ${u.strength}/${u.max_strength}`).join(", ")}`))),
      h("p", { class: "muted" }, fi
        ? `Punaisen KP: yksi pooli, 3 KP taisteluryhmää kohden vuorossa, enintään 4 yhdelle ryhmälle (R-KP-2).`
        : `Red's KP: one pool, 3 KP per battle group and turn, at most 4 on one group (R-KP-2).`),
      h("h3", {}, lang() === "fi" ? "Tulossa olevat iskut" : "Pending strikes"),
      pending.length
        ? h("ul", { id: "pending" }, ...pending.map((p) => h("li", { "data-strike": String(p["id"] ?? "") }, pendingText(p))))
        : h("p", {}, "–"));
  }

  /** End of game: the after-action report (the final VP with their breakdown, the
   * objectives' holders, losses per side, a turn-by-turn timeline), the reveal and the
   * dice check. */
  private report(v: GameView): HTMLElement {
    const fi = lang() === "fi";
    const fin = finalScore(v.log);
    const destroyed = (v["destroyed"] ?? {}) as Record<string, string[]>;
    const timeline = h("ol", { class: "timeline", id: "timeline" });
    let round = 0;
    let items: HTMLElement | null = null;
    for (const e of v.log) {
      if (e.kind === "turn_started") {
        const r = Number(e.data["round"] ?? round);
        if (r !== round || !items) {
          round = r;
          items = h("ul", {});
          timeline.append(h("li", { "data-round": String(round) }, h("strong", {}, `${t("round")} ${round}`), items));
        }
      }
      if (items && ["destroyed", "game_over", "tactic", "strike_landed", "recon_report", "mine_found"].includes(e.kind)) {
        items.append(h("li", {}, `${eventTitle(e)} ${eventSummary(e)}`));
      }
    }
    let table: HTMLElement | null = null;
    if (fin) {
      const sides = { blue: side(fin, "blue"), red: side(fin, "red") };
      table = this.scoreTable(sides, true, true, "final-vp");
    }
    const holders = fin ? Object.entries(fin.holders) : [];
    const out = h("div", { class: "reveal", "aria-live": "polite" });
    const reason = fin?.reason === "eliminated" ? (fi ? "toinen puoli tuhottiin" : "one side was eliminated")
      : fin?.reason === "rounds" ? (fi ? "kierrokset loppuivat" : "the rounds ran out") : (fin?.reason ?? "");
    return h("section", { id: "report", class: "report", "aria-label": fi ? "Taisteluraportti" : "After-action report" },
      h("h2", {}, `${t("game_over")} — ${t("winner")}: ${v.winner === "draw" ? (fi ? "tasapeli" : "draw") : sideWord(v.winner ?? "") || "–"}`),
      reason ? h("p", {}, reason) : null,
      table,
      holders.length
        ? h("ul", { class: "objectives", id: "final-objectives" }, ...holders.map(([id, who]) => {
          const o = v.objectives.find((x) => x.id === id);
          return h("li", {}, `${o ? tx(o.name) : id}: ${who ? sideWord(who) : "–"}`);
        }))
        : null,
      h("p", { id: "losses" }, `${fi ? "Tappiot" : "Losses"}: ${Object.entries(destroyed).map(([k, x]) => `${k === "own" ? (fi ? "omat" : "own") : sideWord(k) || k}: ${x.length ? x.join(", ") : "0"}`).join(" · ")}`),
      h("h3", {}, fi ? "Aikajana" : "Timeline"), timeline,
      h("button", { id: "reveal", onclick: () => void this.reveal(out) }, t("reveal")),
      out);
  }

  private async reveal(out: HTMLElement): Promise<void> {
    clear(out);
    const fi = lang() === "fi";
    try {
      const r = await this.api.reveal();
      const result = h("div", { id: "verify-result", "aria-live": "polite" });
      const check = h("button", { id: "verify", onclick: () => void this.verifyDice(r, result) }, t("verify"));
      out.append(
        h("p", {}, `${fi ? "Siemen" : "Seed"} `, h("code", { class: "hash" }, r.seed)),
        h("p", {}, `${fi ? "Sitoumus" : "Commitment"} (${r.commitment_scheme}) `, h("code", { class: "hash" }, r.seed_commitment)),
        h("p", {}, `${r.orders.length} ${fi ? "käskyä" : "orders"}`),
        check, result);
    } catch (e) {
      out.append(h("p", { class: "error-inline" }, errorText(e)));
    }
  }

  /** The browser's own check of the dice (src/dice.ts): the seed against the commitment this
   * seat's view showed from the start, every roll of the game recomputed from the seed, and
   * every roll this seat was shown found in the game's log. */
  private async verifyDice(r: RevealOut, result: HTMLElement): Promise<void> {
    const fi = lang() === "fi";
    clear(result);
    result.append(h("p", { class: "muted" }, fi ? "Tarkistetaan…" : "Checking…"));
    try {
      const published = this.ownView?.seed_commitment;
      const doc = await this.api.exportGame();
      const all = rollsOfEvents(doc.state?.events ?? []);
      const seen = rollsOfEvents(this.ownView?.log ?? []);
      const check = await verifyDice(r.seed, typeof published === "string" ? published : r.seed_commitment, all, seen);
      if (typeof published === "string" && published !== r.seed_commitment) {
        check.ok = false;
        check.problems.unshift({ en: "the revealed commitment is not the one shown during the game", fi: "paljastettu sitoumus ei ole pelin aikana näytetty" });
      }
      clear(result);
      const items = [
        `${check.commitment ? "✔" : "✘"} ${fi ? "Siemenen SHA-256 on pelin alussa julkaistu sitoumus" : "The seed's SHA-256 is the commitment published at the start"}`,
        `${check.rolls === all.length && check.ok ? "✔" : "✘"} ${check.rolls}/${all.length} ${fi ? "heittoa laskettu siemenestä uudelleen: samat nopat" : "rolls recomputed from the seed: the same dice"}`,
        `${check.ok ? "✔" : "✘"} ${check.seen} ${fi ? "tälle paikalle näytettyä heittoa löytyi pelin lokista samoina" : "rolls shown to this seat found the same in the game's log"}`,
      ];
      result.append(
        h("p", { id: "verified", class: check.ok ? "ok" : "bad", role: "status" },
          check.ok
            ? (fi ? "Nopat tarkistettu: kaikki heitot vastaavat sitoumusta." : "Dice verified: every roll follows from the committed seed.")
            : (fi ? "Tarkistus EPÄONNISTUI." : "Verification FAILED.")),
        h("ul", { class: "checks" }, ...items.map((x) => h("li", {}, x))),
        ...check.problems.slice(0, 3).map((p) => h("p", { class: "bad" }, fi ? p.fi : p.en)),
        h("p", { class: "muted" }, fi
          ? "Sääntöjen täysi uudelleenpeluu: tk20 verify VIENTI (palvelimen /export)."
          : "Full replay of the rules: tk20 verify EXPORT (the server's /export)."));
    } catch (e) {
      clear(result);
      result.append(h("p", { class: "bad", id: "verified" }, `${t("error")}: ${errorText(e)}`));
    }
  }

  private costTag(order: string): HTMLElement | null {
    const c = this.costs[order];
    return c === undefined ? null : h("span", { class: "cost" }, ` ${c} ${t("kp")}`);
  }

  private unitCard(u: UnitView): HTMLElement {
    const w = u.weapon;
    return h(
      "section",
      { class: "card", id: "unit-card", "data-unit": u.id },
      h("h2", {}, `${u.id} — ${tx(u.name)}`),
      h("div", { class: "tkbar", role: "meter", "aria-valuemin": 0, "aria-valuemax": u.max_strength, "aria-valuenow": u.strength, "aria-label": t("strength") },
        h("span", { style: `width:${(100 * u.strength) / Math.max(1, u.max_strength)}%` })),
      h("p", {}, `${t("strength")} (TK) ${u.strength}/${u.max_strength}`),
      u.statuses.length
        ? h("p", { class: "statuses" }, `${t("statuses")}: `, ...u.statuses.map((s) => h("abbr", { class: "status", title: statusWord(s) }, statusWord(s))))
        : null,
      w ? h("p", {}, `${t("weapon")}: ${w.id} (+${w.bonus}, ${w.damage}, ${t("range")} ${w.range})`) : null,
      u.movement !== undefined ? h("p", {}, `${t("movement")} ${u.movement} · ${t("protection")} ${u.protection ?? "?"}`) : null,
      u.action !== undefined ? h("p", {}, `${t("order_this_turn")}: ${u.action ?? t("none")}`) : null,
    );
  }

  /** The last-known markers in words (the canvas's ghosts, for screen readers and a quick
   * read): each enemy the side no longer sees, where and how many rounds ago. */
  private lastKnownBox(): HTMLElement | null {
    if (!this.marks.length) return null;
    const fi = lang() === "fi";
    const ago = (n: number) => n === 0 ? (fi ? "tällä kierroksella" : "this round")
      : fi ? `${n} ${n === 1 ? "kierros" : "kierrosta"} sitten` : `${n} ${n === 1 ? "round" : "rounds"} ago`;
    const where = (m: LastKnown) => m.cell ? `${m.cell[0]},${m.cell[1]}`
      : m.area ? `${fi ? "alue" : "area"} ${m.area[0]},${m.area[1]} (${m.area[2]}×${m.area[2]})` : "";
    const items = [...this.marks].sort((a, b) => a.age - b.age || a.key.localeCompare(b.key)).map((m) =>
      h("li", { "data-key": m.key, "data-cell": m.cell ? `${m.cell[0]},${m.cell[1]}` : "", "data-age": String(m.age) },
        `${m.key} ${where(m)} — ${ago(m.age)}`));
    return h("section", { id: "lastknown-box", "aria-label": fi ? "Viimeksi nähdyt viholliset" : "Enemies last seen" },
      h("h3", {}, fi ? "Viimeksi nähdyt viholliset" : "Enemies last seen"),
      h("ul", { id: "lastknown", class: "lastknown" }, ...items));
  }

  /** The live scoreboard (src/score.ts): VP so far per side with the breakdown, as far as
   * this seat may know them; the objectives with who holds them. */
  private objectivesBox(v: GameView): HTMLElement {
    const fi = lang() === "fi";
    const b = scoreboard(v, this.victory);
    const fin = v.finished ? finalScore(v.log) : null;
    const holderWord = (o: Board["objectives"][number]) =>
      o.holder === "contested" ? (fi ? "kiistelty" : "contested")
        : o.holder ? `${sideWord(o.holder)}${o.how === "start" ? (fi ? " (alusta)" : " (from the start)") : ""}`
          : "–";
    const list = h("ul", { class: "objectives", id: "objectives" },
      ...b.objectives.map((o) => h("li", { "data-objective": o.id, "data-holder": o.holder ?? "" }, `${tx(o.name)}: ${o.vp} VP — ${holderWord(o)}`)));
    return h("section", { id: "scoreboard", "aria-label": fi ? "Tilanne" : "Score" },
      h("h3", {}, `${fi ? "Tilanne" : "Score"} — ${t("objectives")}`), list,
      this.scoreTable(fin ? { blue: side(fin, "blue"), red: side(fin, "red") } : b.sides, b.exact || !!fin, !!fin));
  }

  private scoreTable(sides: Board["sides"], exact: boolean, final: boolean, id = "vp"): HTMLElement {
    const fi = lang() === "fi";
    const v = this.victory;
    const row = (label: string, key: "objectives" | "destroyed_enemy" | "own_losses" | "total", note?: (s: Board["sides"]["blue"]) => string) =>
      h("tr", { "data-row": key }, h("th", { scope: "row" }, label),
        ...(["blue", "red"] as const).map((side) => h("td", { "data-side": side },
          `${sides[side][key]}${note ? note(sides[side]) : ""}`)));
    return h("div", { class: "score" },
      h("table", { class: "scoretable", id },
        h("caption", {}, final ? (fi ? "Lopulliset voittopisteet" : "Final victory points")
          : exact ? (fi ? "Voittopisteet nyt" : "Victory points now")
            : (fi ? "Voittopisteet nyt sen mukaan, mitä puolesi tietää" : "Victory points now, as far as your side knows")),
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "VP"), h("th", { scope: "col" }, sideWord("blue")), h("th", { scope: "col" }, sideWord("red")))),
        h("tbody", {},
          row(fi ? "Tavoitteet" : "Objectives", "objectives"),
          row(fi ? "Tuhotut viholliset" : "Enemy destroyed", "destroyed_enemy", (s) => (!Number.isFinite(s.kills) ? "" : v ? ` (${s.kills} × ${v.destroyed_enemy_vp})` : ` (${s.kills})`)),
          row(fi ? "Omat tappiot" : "Own losses", "own_losses", (s) => (!Number.isFinite(s.lost) ? "" : v ? ` (${s.lost} × ${v.own_loss_vp})` : ` (${s.lost})`)),
          row(fi ? "Yhteensä" : "Total", "total"))));
  }

  private orderInput(): HTMLElement {
    const input = h("input", {
      id: "order-input", type: "text", autocomplete: "off", spellcheck: "false",
      placeholder: t("type_order"), "aria-label": t("type_order"), list: "order-completions",
    });
    const dl = h("datalist", { id: "order-completions" });
    const sugg = h("ul", { class: "completions", id: "completions" });
    const update = () => {
      clear(dl);
      clear(sugg);
      const items = complete(this.legalText, input.value, 12);
      for (const s of items) {
        dl.append(h("option", { value: s }));
        sugg.append(h("li", {}, h("button", { class: "completion", onclick: () => this.confirmOrders([parseOrder(s)]) }, s, this.costTag(s))));
      }
    };
    input.addEventListener("input", update);
    input.addEventListener("keydown", (ev) => {
      if (ev.key === "Tab") {
        const items = complete(this.legalText, input.value, 1000);
        const p = commonPrefix(items);
        if (p.length > input.value.length) {
          input.value = p;
          update();
        }
        ev.preventDefault();
      } else if (ev.key === "Enter") {
        const text = input.value.trim();
        if (text) this.confirmOrders([parseOrder(text)]);
        ev.preventDefault();
      } else if (ev.key === "Escape") {
        input.blur();
      }
      ev.stopPropagation();
    });
    return h("form", { class: "orderform", onsubmit: (ev: Event) => ev.preventDefault() },
      h("label", { for: "order-input" }, t("orders")), input, dl, sugg);
  }

  private renderLog(): void {
    const log = this.els["log"];
    const v = this.view;
    if (!log || !v) return;
    clear(log);
    const numbered = v.log.map((e, i) => [e, i] as const);
    const items = numbered.filter(([e]) => !this.logFilter || `${e.kind} ${JSON.stringify(e.data)}`.toLowerCase().includes(this.logFilter));
    for (const [ev, i] of items.slice(-200).reverse()) log.append(eventRow(ev, i));
  }

  // ------------------------------------------------------------------ interaction

  select(id: string | null): void {
    this.selected = id;
    this.los = null;
    this.losInfo = null;
    this.updateReach();
    this.prefetchOdds();
    this.renderPanel();
    this.draw();
  }

  private updateMarks(): void {
    const v = this.view;
    this.marks = v && v.side ? lastKnown(v.log, v.side, v.units, this.contactsShown(), v.turn) : [];
  }

  private updateReach(): void {
    this.layers.reach = this.selected && this.showReach && !this.picking ? reachCells(this.legal, this.selected) : new Set();
    this.layers.pick = new Set(this.picking ? this.picking.cells.map(cellKey) : []);
  }

  /** Start picking the cell of a menu's order on the map (its legal cells are lit). */
  private pick(f: Family): void {
    this.picking = f;
    this.cursor = null;
    this.updateReach();
    this.renderPanel();
    this.draw();
    this.canvas.focus();
    if (this.canvas.matches(":focus-visible")) this.setCursor(this.startCell());
  }

  private stopPicking(): void {
    if (!this.picking) return;
    this.picking = null;
    this.updateReach();
    this.renderPanel();
    this.draw();
  }

  private unitAt(cell: Cell): UnitView | undefined {
    return this.view?.units.find((u) => u.cell[0] === cell[0] && u.cell[1] === cell[1]);
  }

  private ownSide(u: UnitView): boolean {
    const side = this.view?.side;
    return side === null || side === undefined ? true : u.side === side;
  }

  private contactAt(cell: Cell): ContactView | undefined {
    const v = this.view;
    if (!v || !Array.isArray(v.contacts)) return undefined;
    return v.contacts.find((c) => c.area && cell[0] >= c.area[0] && cell[1] >= c.area[1] && cell[0] < c.area[0] + c.area[2] && cell[1] < c.area[1] + c.area[2]);
  }

  private onClick(cell: Cell): void {
    if (this.picking) {
      const hits = familyAt(this.picking, cell);
      if (hits.length) {
        this.stopPicking();
        return this.confirmOrders(hits);
      }
      return;
    }
    const u = this.unitAt(cell);
    const sel = this.selected;
    if (sel && u && u.id !== sel) {
      const hits = ordersForTarget(this.legal, sel, u.id);
      if (hits.length) return this.confirmOrders(hits);
    }
    if (sel && !u) {
      const c = this.contactAt(cell);
      if (c) {
        const hits = ordersForTarget(this.legal, sel, c.label);
        if (hits.length) return this.confirmOrders(hits);
      }
    }
    if (u && (this.ownSide(u) || this.view?.side === null)) return this.select(u.id);
    if (sel) {
      const hits = ordersForCell(this.legal, sel, cell);
      if (hits.length) return this.confirmOrders(hits);
    }
    if (!u) this.select(null);
  }

  private onHover(cell: Cell | null, px: number, py: number): void {
    const same = cell && this.hover && cellKey(cell) === cellKey(this.hover);
    this.hover = cell;
    const tip = this.els["tip"];
    if (!tip) return;
    if (!cell) {
      tip.hidden = true;
      this.draw();
      return;
    }
    const u = this.unitAt(cell);
    const c = u ? undefined : this.contactAt(cell);
    const terrain = this.renderer ? this.renderer.map.terrain[this.renderer.fillOf(cell[0], cell[1])] : undefined;
    const elev = this.map?.elevation[cell[1]]?.[cell[0]] ?? 0;
    clear(tip);
    tip.append(h("div", {}, `${cell[0]},${cell[1]} · ${tx(terrain) || this.renderer?.fillOf(cell[0], cell[1])} · ${elev}`));
    if (u) {
      tip.append(h("div", {}, `${u.id} ${tx(u.name)} ${u.strength}/${u.max_strength}`));
      if (u.statuses.length) tip.append(h("div", {}, u.statuses.map(statusWord).join(", ")));
    } else if (c) {
      tip.append(h("div", {}, `${c.label} · ${c.level === "KNOWN" ? t("contact_known") : t("contact_suspected")}`));
    }
    tip.style.left = `${px + 14}px`;
    tip.style.top = `${py + 14}px`;
    tip.hidden = false;
    if (!same) {
      this.hoverOdds(cell, u, c);
      this.hoverLos(cell);
    }
    this.draw();
  }

  private hoverOdds(cell: Cell, u: UnitView | undefined, c: ContactView | undefined): void {
    const sel = this.selected;
    if (!sel) return;
    const target = u && u.id !== sel && !this.ownSide(u) ? u.id : c?.label;
    if (!target) return;
    const order = ordersForTarget(this.legal, sel, target).find((o) => o.kind === "fire" || o.kind === "attack");
    if (order) void this.showOdds(order.text);
    void cell;
  }

  /** The odds of the selected unit's attacks in place are asked for at once, so a hover on
   * a target shows them without a round trip. */
  private prefetchOdds(): void {
    if (!this.selected) return;
    const mine = ordersOfUnit(this.legal, this.selected).filter((o) => (o.kind === "fire" || o.kind === "attack") && o.cells.length === 0);
    for (const o of mine.slice(0, 8)) {
      if (this.oddsCache.has(o.text)) continue;
      void this.api.odds(o.text).then((a) => this.oddsCache.set(o.text, a), () => undefined);
    }
  }

  /** The odds of `order` in the side panel, or inside `dlg` (a confirmation) when given. */
  async showOdds(order: string, dlg?: HTMLElement): Promise<void> {
    let box: HTMLElement | undefined;
    if (dlg) {
      box = h("div", { class: "dlg-odds" });
      dlg.querySelector(".cancel")?.before(box);
    } else {
      this.oddsShown = order;
      box = this.els["odds"];
    }
    if (!box) return;
    const current = () => (dlg ? dlg.isConnected : this.oddsShown === order);
    let answer = this.oddsCache.get(order);
    if (!answer) {
      try {
        answer = await this.api.odds(order);
      } catch (e) {
        if (current()) {
          clear(box);
          box.append(h("p", { class: "muted" }, errorText(e)));
        }
        return;
      }
      this.oddsCache.set(order, answer);
    }
    if (!current()) return;
    clear(box);
    box.append(oddsPanel(order, answer));
  }

  private hoverLos(cell: Cell): void {
    const sel = this.view?.units.find((u) => u.id === this.selected);
    if (!sel || !this.showLos) return;
    const from = sel.cell;
    void this.api.los(from, cell).then(
      (a) => {
        if (!this.hover || cellKey(this.hover) !== cellKey(cell)) return;
        this.los = { from, to: cell, clear: a.visible };
        this.losInfo = a;
        this.renderLosInfo();
        this.draw();
      },
      () => undefined,
    );
  }

  private renderLosInfo(): void {
    const el = this.els["los"];
    const a = this.losInfo;
    if (!el) return;
    if (!a || !this.los || !this.selected) {
      el.textContent = "";
      return;
    }
    const terrain = a.limited_by ? tx(this.map?.terrain[a.limited_by]) || a.limited_by : "";
    el.textContent =
      `${t("line_of_sight")} ${this.los.to[0]},${this.los.to[1]}: ${a.visible ? t("los_clear") : t("los_blocked")}` +
      ` · ${a.distance} · ${lang() === "fi" ? "suoja" : "cover"} ${a.cover}` +
      (terrain ? ` · ${terrain}` : "") + ` (${a.rule})`;
  }

  /** Show the chosen order(s) with their KP cost; the player confirms one before it is sent. */
  confirmOrders(options: ParsedOrder[]): void {
    if (!options.length) return;
    const dlg = h("dialog", { id: "confirm", class: "confirm", "aria-label": t("confirm") });
    // The focus goes back where it was (the map, for a keyboard player) when the dialog goes.
    const back = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const close = () => {
      dlg.close();
      dlg.remove();
      if (back?.isConnected) back.focus();
    };
    const list = h("ul", {});
    options.slice(0, 12).forEach((o, i) => {
      list.append(h("li", {}, h("button", {
        class: i === 0 ? "primary send" : "send", "data-order": o.text,
        onclick: () => {
          close();
          void this.send(o.text);
        },
      }, `${t("confirm")}: ${o.text}`)));
    });
    dlg.append(h("h2", {}, t("orders")), list, h("button", { class: "cancel", onclick: close }, t("cancel")));
    dlg.addEventListener("cancel", (ev) => {
      ev.preventDefault();
      close();
    });
    document.body.append(dlg);
    dlg.showModal();
    for (const o of options.slice(0, 12)) void this.fillCost(dlg, o.text);
    const first = options[0];
    if (first && ["fire", "attack", "organic", "strike"].includes(first.kind)) void this.showOdds(first.text, dlg);
  }

  private async fillCost(dlg: HTMLElement, order: string): Promise<void> {
    let kp = this.costs[order];
    if (kp === undefined) {
      try {
        kp = (await this.api.cost(order)).kp;
        this.costs[order] = kp;
      } catch {
        return;
      }
    }
    for (const b of dlg.querySelectorAll<HTMLElement>("button.send")) {
      if (b.dataset["order"] === order && !b.querySelector(".cost")) {
        b.append(h("span", { class: "cost" }, ` — ${t("cost")} ${kp} ${t("kp")}`));
      }
    }
  }

  private async send(order: string): Promise<void> {
    if (this.pending) return;
    this.pending = order;
    try {
      const res = await this.api.order(order, this.version);
      void res;
      const input = document.getElementById("order-input") as HTMLInputElement | null;
      if (input) input.value = "";
      await this.refresh();
    } catch (e) {
      this.showError(e);
      if (e instanceof ApiError && e.status === 409) await this.refresh();
    } finally {
      this.pending = null;
    }
  }

  private showError(e: unknown): void {
    const box = this.els["error"];
    if (!box) return;
    box.textContent = `${t("error")}: ${errorText(e)}`;
    box.hidden = false;
    window.setTimeout(() => {
      box.hidden = true;
    }, 6000);
  }

  private switchLang(l: Lang): void {
    setLang(l);
    const input = document.getElementById("order-input") as HTMLInputElement | null;
    const typed = input?.value ?? "";
    this.build();
    this.resize();
    this.renderAll();
    const again = document.getElementById("order-input") as HTMLInputElement | null;
    if (again) again.value = typed;
  }

  private help(): void {
    const en = lang() === "en";
    const dlg = h("dialog", { id: "shortcuts", "aria-label": t("shortcuts") },
      h("h2", {}, t("shortcuts")),
      h("table", {}, h("tbody", {}, ...SHORTCUTS.map(([k, fi, e]) => h("tr", {}, h("th", { scope: "row" }, h("kbd", {}, k)), h("td", {}, en ? e : fi))))),
      h("button", { onclick: () => { dlg.close(); dlg.remove(); } }, t("close")));
    dlg.addEventListener("cancel", () => dlg.remove());
    document.body.append(dlg);
    dlg.showModal();
  }

  private onKey(ev: KeyboardEvent): void {
    const target = ev.target as HTMLElement | null;
    if (target && (target.tagName === "INPUT" || target.tagName === "SELECT" || target.tagName === "TEXTAREA")) return;
    if (document.querySelector("dialog[open]")) return;
    // Enter and Space on a button or link press it (never "type an order").
    if ((ev.key === "Enter" || ev.key === " ") && target?.closest("button, a, summary")) return;
    if (target === this.canvas && this.cursorKey(ev)) return;
    const step = 60;
    const [w, hgt] = this.size();
    switch (ev.key) {
      case "ArrowLeft": this.vp = pan(this.vp, step, 0); break;
      case "ArrowRight": this.vp = pan(this.vp, -step, 0); break;
      case "ArrowUp": this.vp = pan(this.vp, 0, step); break;
      case "ArrowDown": this.vp = pan(this.vp, 0, -step); break;
      case "+": case "=": this.vp = zoomAt(this.vp, 1.25, w / 2, hgt / 2); break;
      case "-": this.vp = zoomAt(this.vp, 0.8, w / 2, hgt / 2); break;
      case "0": this.fit(); break;
      case "r": case "R": this.showReach = !this.showReach; this.updateReach(); break;
      case "l": case "L": this.showLos = !this.showLos; break;
      case "f": case "F": this.showRanges = !this.showRanges; break;
      case "o": case "O": this.layers.objectives = !this.layers.objectives; break;
      case "g": case "G": this.layers.grid = !this.layers.grid; break;
      case "c": case "C": this.layers.contacts = !this.layers.contacts; break;
      case "m": case "M": this.layers.mines = !this.layers.mines; break;
      case "n": case "N": this.nextUnit(); return;
      case "Escape": if (this.picking) this.stopPicking(); else this.select(null); return;
      case "Enter": document.getElementById("order-input")?.focus(); ev.preventDefault(); return;
      case "?": this.help(); return;
      default: return;
    }
    ev.preventDefault();
    this.touched = ev.key !== "0";
    this.draw();
  }

  private nextUnit(): void {
    const own = (this.view?.units ?? []).filter((u) => this.ownSide(u));
    if (!own.length) return;
    const i = own.findIndex((u) => u.id === this.selected);
    const u = own[(i + 1) % own.length] as UnitView;
    this.select(u.id);
    if (document.activeElement === this.canvas) this.setCursor(u.cell);
  }

  // ------------------------------------------------------------------ keyboard cursor

  private cursorShown(): boolean {
    return this.keyboardCursor && this.cursor !== null && document.activeElement === this.canvas;
  }

  /** Arrow keys move the cursor (Ctrl/⌘: five cells), Enter or Space picks its cell the
   * way a click does. Shift+arrows fall through to panning. True when the key was used. */
  private cursorKey(ev: KeyboardEvent): boolean {
    const moves: Record<string, [number, number]> = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    const d = moves[ev.key];
    if (d && !ev.shiftKey) {
      const k = ev.ctrlKey || ev.metaKey ? 5 : 1;
      const from = this.cursor && this.keyboardCursor ? this.cursor : null;
      this.setCursor(from ? [from[0] + d[0] * k, from[1] + d[1] * k] : this.startCell());
      ev.preventDefault();
      return true;
    }
    if (ev.key === "Enter" || ev.key === " ") {
      ev.preventDefault();
      if (!this.cursor || !this.keyboardCursor) this.setCursor(this.startCell());
      else this.onClick(this.cursor);
      return true;
    }
    return false;
  }

  /** Where the cursor starts: the nearest cell to pick, the selected unit, or the map's
   * visible centre. */
  private startCell(): Cell {
    const sel = this.view?.units.find((u) => u.id === this.selected);
    if (this.picking?.cells.length) {
      const from = this.cursor ?? sel?.cell ?? this.picking.cells[0] as Cell;
      return nearest(this.picking.cells, from);
    }
    if (sel) return sel.cell;
    const [w, hgt] = this.size();
    const c = this.map ? cellAt(this.vp, w / 2, hgt / 2, this.map.width, this.map.height) : null;
    return c ?? [0, 0];
  }

  /** Put the cursor on `cell` (clamped to the map), keep it in view, show what is there
   * (tooltip, line of sight, odds: as a hover) and announce it to screen readers. */
  private setCursor(cell: Cell): void {
    if (!this.map) return;
    const x = Math.min(this.map.width - 1, Math.max(0, cell[0]));
    const y = Math.min(this.map.height - 1, Math.max(0, cell[1]));
    this.cursor = [x, y];
    this.keyboardCursor = true;
    const [w, hgt] = this.size();
    const s = this.vp.scale;
    const margin = Math.min(48, w / 4, hgt / 4);
    let [px, py] = cellCentre(this.vp, this.cursor);
    let dx = 0;
    let dy = 0;
    if (px < margin + s / 2) dx = margin + s / 2 - px;
    else if (px > w - margin - s / 2) dx = w - margin - s / 2 - px;
    if (py < margin + s / 2) dy = margin + s / 2 - py;
    else if (py > hgt - margin - s / 2) dy = hgt - margin - s / 2 - py;
    if (dx || dy) {
      this.vp = pan(this.vp, Math.round(dx), Math.round(dy));
      this.touched = true;
      [px, py] = cellCentre(this.vp, this.cursor);
    }
    this.onHover(this.cursor, px, py);
    this.announce(this.cursor);
  }

  /** The cursor's cell in words for the live region: coordinates, terrain, height, what
   * stands there and what Enter would do. */
  private announce(cell: Cell): void {
    const el = this.els["cursor"];
    if (!el) return;
    const fi = lang() === "fi";
    const terrain = this.renderer ? this.renderer.map.terrain[this.renderer.fillOf(cell[0], cell[1])] : undefined;
    const elev = this.map?.elevation[cell[1]]?.[cell[0]] ?? 0;
    const parts = [`${fi ? "Ruutu" : "Cell"} ${cell[0]},${cell[1]}`, tx(terrain) || "", `${fi ? "korkeus" : "height"} ${elev}`];
    const u = this.unitAt(cell);
    const c = u ? undefined : this.contactAt(cell);
    if (u) parts.push(`${u.id} ${tx(u.name)} ${u.strength}/${u.max_strength}`);
    else if (c) parts.push(`${c.label} ${c.level === "KNOWN" ? t("contact_known") : t("contact_suspected")}`);
    const mark = this.marks.find((m) => m.cell && m.cell[0] === cell[0] && m.cell[1] === cell[1]);
    if (mark) parts.push(`${fi ? "viimeksi nähty" : "last seen"} ${mark.key} (${mark.age} ${fi ? "kierrosta sitten" : "rounds ago"})`);
    const hits = this.picking ? familyAt(this.picking, cell) : this.selected ? ordersForCell(this.legal, this.selected, cell) : [];
    if (hits.length) parts.push(`Enter: ${hits.map((o) => o.text).slice(0, 3).join(" / ")}`);
    else if (this.picking) parts.push(fi ? "ei valittavissa" : "not a cell to pick");
    el.textContent = parts.filter(Boolean).join(" · ");
    el.hidden = false;
  }

  private bindMap(): void {
    const c = this.canvas;
    const pointers = new Map<number, { x: number; y: number }>();
    let moved = 0;
    let pinch = 0;
    const local = (ev: PointerEvent | WheelEvent): [number, number] => {
      const r = c.getBoundingClientRect();
      return [ev.clientX - r.left, ev.clientY - r.top];
    };
    // Focus from the keyboard (Tab, or a pick button pressed with Enter) shows the cursor.
    c.addEventListener("focus", () => {
      if (c.matches(":focus-visible")) this.setCursor(this.keyboardCursor && this.cursor ? this.cursor : this.startCell());
      this.draw();
    });
    c.addEventListener("blur", () => {
      const info = this.els["cursor"];
      if (info) info.textContent = "";
      this.draw();
    });
    c.addEventListener("pointerdown", (ev) => {
      this.keyboardCursor = false;
      c.setPointerCapture(ev.pointerId);
      pointers.set(ev.pointerId, { x: ev.clientX, y: ev.clientY });
      moved = 0;
      if (pointers.size === 2) {
        const [a, b] = [...pointers.values()] as [{ x: number; y: number }, { x: number; y: number }];
        pinch = Math.hypot(a.x - b.x, a.y - b.y);
      }
    });
    c.addEventListener("pointermove", (ev) => {
      const p = pointers.get(ev.pointerId);
      const [px, py] = local(ev);
      if (p) {
        const dx = ev.clientX - p.x;
        const dy = ev.clientY - p.y;
        p.x = ev.clientX;
        p.y = ev.clientY;
        if (pointers.size === 2) {
          const [a, b] = [...pointers.values()] as [{ x: number; y: number }, { x: number; y: number }];
          const d = Math.hypot(a.x - b.x, a.y - b.y);
          if (pinch > 0) this.vp = zoomAt(this.vp, d / pinch, px, py);
          this.touched = true;
          pinch = d;
          moved += 10;
        } else {
          moved += Math.abs(dx) + Math.abs(dy);
          if (moved > 4) {
            this.vp = pan(this.vp, dx, dy);
            this.touched = true;
          }
        }
        this.draw();
        return;
      }
      if (!this.map) return;
      this.onHover(cellAt(this.vp, px, py, this.map.width, this.map.height), px, py);
    });
    const up = (ev: PointerEvent) => {
      const was = pointers.size;
      pointers.delete(ev.pointerId);
      if (was === 1 && moved <= 4 && this.map && ev.type === "pointerup") {
        const [px, py] = local(ev);
        const cell = cellAt(this.vp, px, py, this.map.width, this.map.height);
        if (cell) this.onClick(cell);
      }
    };
    c.addEventListener("pointerup", up);
    c.addEventListener("pointercancel", up);
    c.addEventListener("pointerleave", () => this.onHover(null, 0, 0));
    c.addEventListener("wheel", (ev) => {
      ev.preventDefault();
      const [px, py] = local(ev);
      this.vp = zoomAt(this.vp, ev.deltaY < 0 ? 1.15 : 1 / 1.15, px, py);
      this.touched = true;
      this.draw();
    }, { passive: false });
  }
}

function side(fin: NonNullable<ReturnType<typeof finalScore>>, s: "blue" | "red"): Board["sides"]["blue"] {
  const d = fin.detail[s] ?? {};
  const objectives = d.objectives ?? 0;
  const destroyed_enemy = d.destroyed_enemy ?? 0;
  const own_losses = d.own_losses ?? 0;
  return { objectives, destroyed_enemy, own_losses, total: fin.vp[s] ?? objectives + destroyed_enemy + own_losses, kills: NaN, lost: NaN };
}

/** A GM's pending strike: what, where, its delay and the turn it lands. */
function pendingText(p: Record<string, unknown>): string {
  const fi = lang() === "fi";
  const cell = Array.isArray(p["cell"]) ? (p["cell"] as number[]).join(",") : "?";
  const parts = [
    `${String(p["id"] ?? "")} ${sideWord(String(p["side"] ?? ""))} ${String(p["kind"] ?? "")} ${String(p["weapon"] ?? p["unit"] ?? "")} → ${cell}`,
    p["observer"] ? `${fi ? "tähystäjä" : "observer"} ${String(p["observer"])}` : "",
    typeof p["delay"] === "number" ? `${fi ? "viive" : "delay"} ${p["delay"]}` : "",
    typeof p["due"] === "number" ? `${fi ? "osuu vuorolla" : "lands on turn"} ${p["due"]}` : "",
    typeof p["boost"] === "number" && p["boost"] ? `+${p["boost"]}` : "",
    p["danger"] ? (fi ? "vaara" : "danger close") : "",
  ];
  return parts.filter(Boolean).join(" · ");
}

/** The minefield cells the view shows: a side's known cells (`mines.known[].cell`), or for
 * the GM every field's cells. */
export function minesOf(v: GameView | null): { cell: Cell; type: string | null }[] {
  const m = v?.["mines"] as Record<string, unknown> | null | undefined;
  if (!m || typeof m !== "object") return [];
  const out: { cell: Cell; type: string | null }[] = [];
  const known = m["known"];
  if (Array.isArray(known)) {
    for (const k of known as { cell?: [number, number]; type?: string | null }[]) {
      if (Array.isArray(k?.cell)) out.push({ cell: k.cell, type: k.type ?? null });
    }
  }
  const fields = m["fields"];
  if (Array.isArray(fields)) {
    for (const f of fields as { cells?: [number, number][]; type?: string }[]) {
      for (const c of f.cells ?? []) out.push({ cell: c, type: f.type ?? null });
    }
  }
  return out;
}

export function errorText(e: unknown): string {
  if (e instanceof ApiError) return lang() === "fi" ? e.text.fi : e.text.en;
  if (e instanceof Error) return e.message;
  return String(e);
}
