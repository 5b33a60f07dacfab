import { randomBytes } from "node:crypto";

/** The draw itself is shared with the browser, where members re-run it to check a raffle. */
export { drawRaffle } from "./draw-raffle";

export function newRaffleSeed() {
  return randomBytes(32).toString("hex");
}
