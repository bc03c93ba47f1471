// "Verify dice" in the browser: after the game the server reveals the seed; the page checks,
// with the browser's own SHA-256 and HMAC-SHA-256 (WebCrypto), that
//   1. the seed's SHA-256 is the commitment the seat's view showed from the start, and
//   2. every roll of the game's log (the export: every roll, in order, secret ones too) is
//      exactly what the dice stream of that seed gives (docs/dice-and-odds.md):
//      HMAC-SHA-256(seed, "dice" || counter as 8 bytes big-endian) for counter 0, 1, 2 …,
//      one byte per die with rejection sampling (a byte b is used only when
//      b < 256 - 256 % sides; the die is b % sides + 1), and
//   3. every roll the seat was shown in its own log is in that full log, in the same order
//      (the seat's copies are numbered per side, so they are matched as a subsequence).
// Nothing here trusts the server's own verification: only the revealed seed and the logs.

export interface RollRecord {
  seq: number;
  purpose?: string;
  expr: string;
  dice: number[];
  kept: number[];
  modifier: number;
  total: number;
  secret?: boolean;
}

export interface DiceCheck {
  ok: boolean;
  /** The seed hashes to the commitment published at the start. */
  commitment: boolean;
  /** Rolls recomputed from the seed (all of the game's). */
  rolls: number;
  /** Rolls of the seat's own log found identical in the full log. */
  seen: number;
  /** What failed, first problem first (English/Finnish pairs). */
  problems: { en: string; fi: string }[];
}

const enc = new TextEncoder();

export function hexToBytes(hex: string): Uint8Array {
  const t = hex.trim();
  if (!/^([0-9a-fA-F]{2})*$/.test(t)) throw new Error(`not hex: ${t.slice(0, 16)}…`);
  const out = new Uint8Array(t.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(t.slice(2 * i, 2 * i + 2), 16);
  return out;
}

export function bytesToHex(b: Uint8Array): string {
  return [...b].map((x) => x.toString(16).padStart(2, "0")).join("");
}

export async function sha256Hex(data: Uint8Array): Promise<string> {
  return bytesToHex(new Uint8Array(await crypto.subtle.digest("SHA-256", data as BufferSource)));
}

/** The dice byte stream of one seed (HMAC-SHA-256 in counter mode, 32 bytes a block). */
export class DiceStream {
  private key: Promise<CryptoKey>;
  private block = -1;
  private buf = new Uint8Array(0);
  private off = 32;

  constructor(seed: Uint8Array) {
    this.key = crypto.subtle.importKey("raw", seed as BufferSource, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  }

  private async next(): Promise<void> {
    this.block += 1;
    const msg = new Uint8Array(4 + 8);
    msg.set(enc.encode("dice"), 0);
    new DataView(msg.buffer).setBigUint64(4, BigInt(this.block), false);
    this.buf = new Uint8Array(await crypto.subtle.sign("HMAC", await this.key, msg));
    this.off = 0;
  }

  async byte(): Promise<number> {
    if (this.off >= this.buf.length) await this.next();
    return this.buf[this.off++] as number;
  }

  /** One die, 1..sides, every face equally likely. */
  async die(sides: number): Promise<number> {
    if (sides < 1) throw new Error(`a d${sides}`);
    if (sides <= 256) {
      const limit = 256 - (256 % sides);
      for (;;) {
        const b = await this.byte();
        if (b < limit) return (b % sides) + 1;
      }
    }
    const span = 2 ** 32;
    const limit = span - (span % sides);
    for (;;) {
      let w = 0;
      for (let i = 0; i < 4; i++) w = w * 256 + (await this.byte());
      if (w < limit) return (w % sides) + 1;
    }
  }
}

/** Sides of each die of a roll's expression: "d20", "2d20kh1", "2d20kl1", "3d6". */
export function sidesOf(expr: string): { count: number; sides: number; keep: "all" | "high" | "low" } | null {
  const m = /^(\d*)d(\d+)(kh1|kl1)?$/.exec(expr.trim());
  if (!m) return null;
  const count = m[1] ? Number(m[1]) : 1;
  return { count, sides: Number(m[2]), keep: m[3] === "kh1" ? "high" : m[3] === "kl1" ? "low" : "all" };
}

const isRoll = (x: unknown): x is RollRecord =>
  !!x && typeof x === "object" && typeof (x as RollRecord).seq === "number" &&
  typeof (x as RollRecord).expr === "string" && Array.isArray((x as RollRecord).dice);

function collect(value: unknown, out: RollRecord[], seen: Set<number>): void {
  if (isRoll(value)) {
    if (!seen.has(value.seq)) {
      seen.add(value.seq);
      out.push(value);
    }
    return;
  }
  if (Array.isArray(value)) for (const x of value) collect(x, out, seen);
  else if (value && typeof value === "object") for (const x of Object.values(value)) collect(x, out, seen);
}

/** Every roll record in a list of events' data, wherever it sits (`data.rolls`, a recon's
 * `data.results[].rolls` …), once each (by its number), in the events' order. */
export function rollsOfEvents(events: readonly { data?: Record<string, unknown> }[]): RollRecord[] {
  const out: RollRecord[] = [];
  const seen = new Set<number>();
  for (const e of events) collect(e.data, out, seen);
  return out;
}

const same = (a: readonly number[] | undefined, b: readonly number[] | undefined) =>
  !!a && !!b && a.length === b.length && a.every((x, i) => x === b[i]);

const sameRoll = (a: RollRecord, b: RollRecord) =>
  a.expr === b.expr && same(a.dice, b.dice) && a.modifier === b.modifier && a.total === b.total &&
  (a.purpose ?? "") === (b.purpose ?? "");

/** The whole check (see the top of this file). `seen` are the rolls of the seat's own log;
 * `commitment` is the one the seat's view published from the start. */
export async function verifyDice(
  seedHex: string,
  commitment: string,
  all: readonly RollRecord[],
  seen: readonly RollRecord[],
): Promise<DiceCheck> {
  const problems: DiceCheck["problems"] = [];
  let seed: Uint8Array;
  try {
    seed = hexToBytes(seedHex);
  } catch {
    seed = new Uint8Array(0);
  }
  if (seed.length !== 32) {
    problems.push({
      en: "the revealed seed is not 32 bytes of hex (a legacy game: check it with tk20 verify)",
      fi: "paljastettu siemen ei ole 32 tavua heksana (vanha peli: tarkista komennolla tk20 verify)",
    });
    return { ok: false, commitment: false, rolls: 0, seen: 0, problems };
  }
  const commitmentOk = (await sha256Hex(seed)) === commitment.trim().toLowerCase();
  if (!commitmentOk) {
    problems.push({
      en: "the seed's SHA-256 is not the commitment published at the start",
      fi: "siemenen SHA-256 ei ole pelin alussa julkaistu sitoumus",
    });
  }
  const sorted = [...all].sort((a, b) => a.seq - b.seq);
  const stream = new DiceStream(seed);
  let checked = 0;
  for (let i = 0; i < sorted.length; i++) {
    const r = sorted[i] as RollRecord;
    if (r.seq !== i + 1) {
      problems.push({ en: `roll ${i + 1} is missing from the log`, fi: `heitto ${i + 1} puuttuu lokista` });
      break;
    }
    const spec = sidesOf(r.expr);
    if (!spec || spec.count !== r.dice.length) {
      problems.push({ en: `roll ${r.seq}: cannot read "${r.expr}"`, fi: `heitto ${r.seq}: lauseketta "${r.expr}" ei voi lukea` });
      break;
    }
    const dice: number[] = [];
    for (let k = 0; k < spec.count; k++) dice.push(await stream.die(spec.sides));
    const kept = spec.keep === "high" ? [Math.max(...dice)] : spec.keep === "low" ? [Math.min(...dice)] : dice;
    const total = kept.reduce((s, x) => s + x, 0) + r.modifier;
    if (!same(dice, r.dice) || !same(kept, r.kept) || total !== r.total) {
      problems.push({
        en: `roll ${r.seq} (${r.purpose ?? ""} ${r.expr}): the log has [${r.dice.join(",")}] = ${r.total}, the seed gives [${dice.join(",")}] = ${total}`,
        fi: `heitto ${r.seq} (${r.purpose ?? ""} ${r.expr}): lokissa [${r.dice.join(",")}] = ${r.total}, siemen antaa [${dice.join(",")}] = ${total}`,
      });
      break;
    }
    checked++;
  }
  // A seat's copies are numbered per side (only what the side is shown, R-DICE-6), so they
  // are found as a subsequence of the full log: same purpose, dice, modifier and total, in
  // the same order.
  const shown = seen.filter((r) => Array.isArray(r.dice) && r.dice.length > 0);
  let seenOk = 0;
  for (const full of sorted) {
    const r = shown[seenOk];
    if (r && sameRoll(full, r)) seenOk++;
  }
  if (seenOk < shown.length) {
    const r = shown[seenOk] as RollRecord;
    problems.push({
      en: `roll ${seenOk + 1} shown to this seat (${r.purpose ?? ""} ${r.expr} [${r.dice.join(",")}] = ${r.total}) is not in the game's log`,
      fi: `tälle paikalle näytetty heitto ${seenOk + 1} (${r.purpose ?? ""} ${r.expr} [${r.dice.join(",")}] = ${r.total}) puuttuu pelin lokista`,
    });
  }
  return { ok: problems.length === 0, commitment: commitmentOk, rolls: checked, seen: seenOk, problems };
}
