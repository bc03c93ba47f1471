// Player-facing words: Finnish by default (the RULES.md glossary), English as the switch.
// The choice is kept in localStorage under "tk20.lang" (a setting, never game data).

export type Lang = "fi" | "en";

const WORDS = {
  title: ["Taistelukenttä d20", "Taistelukenttä d20"],
  round: ["Kierros", "Round"],
  phase: ["Vaihe", "Phase"],
  phase_command: ["komentovaihe", "command phase"],
  phase_fire: ["tulivaihe", "fire phase"],
  phase_setup: ["valmisteluvaihe", "setup phase"],
  turn_of: ["Vuorossa", "Turn"],
  side_blue: ["Sininen", "Blue"],
  side_red: ["Punainen", "Red"],
  done_seats: ["Valmiina", "Done"],
  waiting_for: ["Odotetaan", "Waiting for"],
  kp: ["KP", "CP"],
  done_button: ["Valmis", "Done"],
  your_turn: ["Sinun vuorosi", "Your turn"],
  log: ["Tapahtumaloki", "Event log"],
  filter: ["Suodata", "Filter"],
  unit: ["Yksikkö", "Unit"],
  strength: ["Taistelukunto", "Strength"],
  statuses: ["Tilat", "Statuses"],
  weapon: ["Ase", "Weapon"],
  range: ["kantama", "range"],
  movement: ["Liike", "Movement"],
  protection: ["Suoja", "Protection"],
  orders: ["Käskyt", "Orders"],
  order_this_turn: ["Käsky tällä vuorolla", "Order this turn"],
  none: ["ei", "none"],
  type_order: ["Kirjoita käsky…", "Type an order…"],
  send: ["Lähetä", "Send"],
  confirm: ["Vahvista", "Confirm"],
  cancel: ["Peruuta", "Cancel"],
  cost: ["Hinta", "Cost"],
  odds: ["Todennäköisyydet", "Odds"],
  expected_damage: ["Odotettu vahinko", "Expected damage"],
  modifiers: ["Muuntimet", "Modifiers"],
  line_of_sight: ["Näköyhteys", "Line of sight"],
  los_clear: ["näkyy", "clear"],
  los_blocked: ["ei näy", "blocked"],
  objectives: ["Tavoitteet", "Objectives"],
  vp: ["VP", "VP"],
  connected: ["yhteys", "connected"],
  disconnected: ["yhteys katkennut – yhdistetään…", "disconnected – reconnecting…"],
  shortcuts: ["Pikanäppäimet", "Keyboard shortcuts"],
  close: ["Sulje", "Close"],
  language: ["Kieli", "Language"],
  error: ["Virhe", "Error"],
  no_unit_selected: ["Valitse yksikkö kartalta.", "Select a unit on the map."],
  contact_suspected: ["Epäily", "Suspected"],
  contact_known: ["Tiedossa", "Known"],
  contact_spotted: ["Havaittu", "Spotted"],
  game_over: ["Peli päättyi", "Game over"],
  winner: ["Voittaja", "Winner"],
  lobby: ["Aula", "Lobby"],
  scenarios: ["Skenaariot", "Scenarios"],
  create_game: ["Luo peli", "Create game"],
  computer_seats: ["Tietokone pelaa", "Computer plays"],
  seat_links: ["Paikkojen linkit", "Seat links"],
  copy: ["Kopioi", "Copy"],
  copied: ["Kopioitu", "Copied"],
  rounds: ["kierrosta", "rounds"],
  seats: ["Paikat", "Seats"],
  options: ["Sääntövalinnat", "Rule options"],
  gm: ["Pelinjohtaja", "Game master"],
  undo: ["Peru viimeisin käsky", "Undo last order"],
  reveal: ["Paljasta", "Reveal"],
  verify: ["Tarkista nopat", "Verify dice"],
  bad_link: ["Paikan linkki puuttuu tai on virheellinen.", "The seat link is missing or wrong."],
  loading: ["Ladataan…", "Loading…"],
  own_units: ["Omat yksiköt", "Own units"],
  dice: ["Nopat", "Dice"],
  view_as: ["Näytä", "View as"],
} as const satisfies Record<string, readonly [string, string]>;

export type Word = keyof typeof WORDS;

const STATUS: Record<string, readonly [string, string, string, string]> = {
  // code: [fi letter, fi word, en letter, en word]
  SHAKEN: ["Tä", "Tärähtänyt", "Sh", "Shaken"],
  SUPPRESSED: ["La", "Lamautunut", "Su", "Suppressed"],
  RETREATING: ["Ve", "Vetäytyy", "Rt", "Retreating"],
  DAMAGED: ["Va", "Vaurioitunut", "Dm", "Damaged"],
  HIDDEN: ["Pi", "Piiloutunut", "Hd", "Hidden"],
  IMMOBILISED: ["Li", "Liikuntakyvytön", "Im", "Immobilised"],
};

let current: Lang = "fi";

export function initLang(): Lang {
  const url = new URLSearchParams(location.search).get("lang");
  const saved = url ?? safeGet("tk20.lang");
  current = saved === "en" ? "en" : "fi";
  document.documentElement.lang = current;
  return current;
}

export function setLang(lang: Lang): void {
  current = lang;
  document.documentElement.lang = lang;
  try {
    localStorage.setItem("tk20.lang", lang);
  } catch {
    /* private mode: the choice lasts for the page */
  }
}

export function lang(): Lang {
  return current;
}

export function t(word: Word): string {
  return WORDS[word][current === "fi" ? 0 : 1];
}

/** A `{fi, en}` text from the server in the current language. */
export function tx(text: { fi?: string; en?: string } | Record<string, string> | null | undefined): string {
  if (!text) return "";
  return (current === "fi" ? text["fi"] : text["en"]) ?? "";
}

export function statusLetter(code: string): string {
  const s = STATUS[code];
  return s ? (current === "fi" ? s[0] : s[2]) : code.slice(0, 2);
}

export function statusWord(code: string): string {
  const s = STATUS[code];
  return s ? (current === "fi" ? s[1] : s[3]) : code;
}

export function phaseWord(phase: string): string {
  if (phase === "command") return t("phase_command");
  if (phase === "fire") return t("phase_fire");
  if (phase === "setup") return t("phase_setup");
  return phase;
}

export function sideWord(side: string | null | undefined): string {
  if (side === "blue") return t("side_blue");
  if (side === "red") return t("side_red");
  return side ?? "";
}

/** A number with a decimal comma in Finnish. */
export function num(value: number, digits = 1): string {
  const s = value.toFixed(digits);
  return current === "fi" ? s.replace(".", ",") : s;
}

export function pct(p: number): string {
  return `${num(p * 100, 1)} %`;
}

function safeGet(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}
