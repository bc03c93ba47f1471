import { createHash, createHmac, randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { DiceStream, type RollRecord, bytesToHex, hexToBytes, rollsOfEvents, sidesOf, verifyDice } from "../src/dice";

// An independent reading of the dice stream (docs/dice-and-odds.md) with Node's own HMAC, to
// check the browser's WebCrypto one against.
function nodeDice(seed: Buffer, sides: number[]): number[] {
  let block = -1;
  let buf = Buffer.alloc(0);
  let off = 0;
  const byte = () => {
    if (off >= buf.length) {
      block++;
      const ctr = Buffer.alloc(8);
      ctr.writeBigUInt64BE(BigInt(block));
      buf = createHmac("sha256", seed).update(Buffer.concat([Buffer.from("dice"), ctr])).digest();
      off = 0;
    }
    return buf[off++] as number;
  };
  return sides.map((s) => {
    const limit = 256 - (256 % s);
    for (;;) {
      const b = byte();
      if (b < limit) return (b % s) + 1;
    }
  });
}

/** A game's roll log made from `seed` by the independent reading. */
function game(seed: Buffer, n: number): RollRecord[] {
  const out: RollRecord[] = [];
  const kinds = ["d20", "2d20kh1", "2d20kl1", "3d6", "d8", "2d4", "d2", "3d10"];
  for (let i = 0; i < n; i++) {
    const expr = kinds[i % kinds.length] as string;
    const spec = sidesOf(expr);
    if (!spec) throw new Error(expr);
    out.push({ seq: i + 1, purpose: `t${i}`, expr, dice: [], kept: [], modifier: i % 5 - 2, total: 0 });
  }
  const all = nodeDice(seed, out.flatMap((r) => Array(sidesOf(r.expr)?.count ?? 0).fill(sidesOf(r.expr)?.sides ?? 0) as number[]));
  let k = 0;
  for (const r of out) {
    const spec = sidesOf(r.expr);
    if (!spec) continue;
    r.dice = all.slice(k, k + spec.count);
    k += spec.count;
    r.kept = spec.keep === "high" ? [Math.max(...r.dice)] : spec.keep === "low" ? [Math.min(...r.dice)] : r.dice;
    r.total = r.kept.reduce((s, x) => s + x, 0) + r.modifier;
  }
  return out;
}

describe("dice stream", () => {
  it("gives the same dice as an independent HMAC-SHA-256 reading", async () => {
    for (let trial = 0; trial < 5; trial++) {
      const seed = randomBytes(32);
      const sides = Array.from({ length: 300 }, (_, i) => [20, 6, 2, 8, 10, 4, 3, 100][(i * 7 + trial) % 8] as number);
      const s = new DiceStream(new Uint8Array(seed));
      const mine: number[] = [];
      for (const x of sides) mine.push(await s.die(x));
      expect(mine).toEqual(nodeDice(seed, sides));
    }
  });

  it("reads the roll expressions of the log", () => {
    expect(sidesOf("d20")).toEqual({ count: 1, sides: 20, keep: "all" });
    expect(sidesOf("2d20kh1")).toEqual({ count: 2, sides: 20, keep: "high" });
    expect(sidesOf("2d20kl1")).toEqual({ count: 2, sides: 20, keep: "low" });
    expect(sidesOf("3d6")).toEqual({ count: 3, sides: 6, keep: "all" });
    expect(sidesOf("3d6+1")).toBeNull();
    expect(bytesToHex(hexToBytes("00ff10"))).toBe("00ff10");
    expect(() => hexToBytes("zz")).toThrow();
  });
});

describe("verifyDice", () => {
  const seed = randomBytes(32);
  const commitment = createHash("sha256").update(seed).digest("hex");
  const log = game(seed, 120);

  it("accepts an honest game: commitment, every roll, the seat's copies", async () => {
    // The seat's copies are numbered per side: 1, 2, 3 … for what it was shown.
    const seen = log.filter((r) => r.seq % 3 === 0).map((r, i) => ({ ...r, seq: i + 1 }));
    const r = await verifyDice(seed.toString("hex"), commitment, log, seen);
    expect(r.problems).toEqual([]);
    expect(r).toMatchObject({ ok: true, commitment: true, rolls: 120, seen: seen.length });
  });

  it("finds a changed die and names the roll", async () => {
    const bad = log.map((r) => ({ ...r, dice: [...r.dice], kept: [...r.kept] }));
    const victim = bad[40] as RollRecord;
    const d = victim.dice[0] as number;
    const sides = sidesOf(victim.expr)?.sides ?? 20;
    victim.dice[0] = (d % sides) + 1;
    const r = await verifyDice(seed.toString("hex"), commitment, bad, []);
    expect(r.ok).toBe(false);
    expect(r.rolls).toBe(40);
    expect(r.problems[0]?.en).toContain("roll 41");
  });

  it("finds a wrong commitment, a missing roll and a seat copy that differs", async () => {
    const other = createHash("sha256").update(randomBytes(32)).digest("hex");
    expect((await verifyDice(seed.toString("hex"), other, log, [])).commitment).toBe(false);
    const gap = log.filter((r) => r.seq !== 7);
    const g = await verifyDice(seed.toString("hex"), commitment, gap, []);
    expect(g.ok).toBe(false);
    expect(g.problems[0]?.en).toContain("roll 7 is missing");
    const copy = { ...(log[9] as RollRecord), seq: 1, total: (log[9] as RollRecord).total + 1 };
    const s = await verifyDice(seed.toString("hex"), commitment, log, [log[2] as RollRecord, copy]);
    expect(s.ok).toBe(false);
    expect(s.seen).toBe(1);
    expect(s.problems[0]?.en).toContain("roll 2 shown to this seat");
    // Shown out of order: not a subsequence of the log.
    const swapped = await verifyDice(seed.toString("hex"), commitment, log, [log[20] as RollRecord, log[10] as RollRecord]);
    expect(swapped.ok).toBe(false);
    const short = await verifyDice("abcd", commitment, log, []);
    expect(short.ok).toBe(false);
  });
});

describe("rollsOfEvents", () => {
  it("finds every roll of the GM's log, a recon's nested ones too, once each", async () => {
    const seed = randomBytes(32);
    const commitment = createHash("sha256").update(seed).digest("hex");
    const log = game(seed, 6);
    const [a, b, c, d, e, f] = log as [RollRecord, RollRecord, RollRecord, RollRecord, RollRecord, RollRecord];
    const events = [
      { kind: "attack", data: { rolls: [a, b] } },
      // a recon's rolls sit in its results (the GM's copy), one result per target
      { kind: "recon", data: { unit: "KRH", results: [{ target: "R1", rolls: [c, d] }, { target: "R2", rolls: [e] }] } },
      { kind: "attack", data: { rolls: [f], again: { rolls: [f] } } },
      { kind: "phase", data: { phase: "fire" } },
    ];
    const found = rollsOfEvents(events);
    expect(found.map((r) => r.seq)).toEqual([1, 2, 3, 4, 5, 6]);
    const check = await verifyDice(seed.toString("hex"), commitment, found, []);
    expect(check).toMatchObject({ ok: true, rolls: 6 });
    // with the recon's rolls left out the log has a gap, as the old top-level reading had
    const topLevel = events.flatMap((ev) => ((ev.data as { rolls?: RollRecord[] }).rolls ?? []));
    const gap = await verifyDice(seed.toString("hex"), commitment, topLevel, []);
    expect(gap.ok).toBe(false);
  });
});
