import { describe, expect, it } from "vitest";
import { campaignFromLocation, restoreCost, xpProgress } from "../src/campaign";
import { seatFromLocation } from "../src/api";

describe("campaign links", () => {
  it("reads the campaign id and token from the fragment", () => {
    expect(campaignFromLocation({ hash: "#campaign=ab12&token=T-1_x", search: "" })).toEqual({ campaign: "ab12", token: "T-1_x" });
    expect(campaignFromLocation({ hash: "#game=ab12&token=T", search: "" })).toBeNull();
    expect(campaignFromLocation({ hash: "#campaign=../x&token=T", search: "" })).toBeNull();
    expect(campaignFromLocation({ hash: "#campaign=ab12", search: "" })).toBeNull();
  });
  it("a game link is not a campaign link", () => {
    expect(seatFromLocation({ pathname: "/", search: "", hash: "#game=ab&token=T" })).toEqual({ game: "ab", token: "T" });
  });
});

describe("roster figures", () => {
  it("R-CAMP-3: the XP bar runs from the last full 10 XP to the next", () => {
    expect(xpProgress(0, 10)).toEqual({ value: 0, max: 10 });
    expect(xpProgress(17, 10)).toEqual({ value: 7, max: 10 });
    expect(xpProgress(20, 10)).toEqual({ value: 0, max: 10 });
  });
  it("R-CAMP-4: one TP restores two TK, rounded up", () => {
    expect(restoreCost(1, 2)).toBe(1);
    expect(restoreCost(2, 2)).toBe(1);
    expect(restoreCost(3, 2)).toBe(2);
  });
});
