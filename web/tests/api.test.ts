import { describe, expect, it } from "vitest";
import { seatFromLocation } from "../src/api";

const at = (href: string) => {
  const u = new URL(href);
  return { pathname: u.pathname, search: u.search, hash: u.hash };
};

describe("seat links", () => {
  it("reads the server's invite link (token in the fragment)", () => {
    expect(seatFromLocation(at("http://h:8420/#game=ab12&token=T-k_9"))).toEqual({ game: "ab12", token: "T-k_9" });
  });

  it("reads the other link forms", () => {
    expect(seatFromLocation(at("http://h/g/ab12#TOK"))).toEqual({ game: "ab12", token: "TOK" });
    expect(seatFromLocation(at("http://h/#/g/ab12/TOK"))).toEqual({ game: "ab12", token: "TOK" });
    expect(seatFromLocation(at("http://h/?game=ab12&token=TOK"))).toEqual({ game: "ab12", token: "TOK" });
  });

  it("is the lobby without a game or a token", () => {
    expect(seatFromLocation(at("http://h/"))).toBeNull();
    expect(seatFromLocation(at("http://h/#game=ab12"))).toBeNull();
    expect(seatFromLocation(at("http://h/#token=TOK"))).toBeNull();
  });
});
