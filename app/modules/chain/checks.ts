import { costOf, formatAmount } from "~/lib/token-amounts";

/** Checks made before any transaction is sent: each refusal is a sentence; null when the call may go. */

export type MintFacts = { open: boolean; price: bigint; walletCap: bigint; minted: bigint; native: bigint; token: string; coin: string };

export function mintRefusal(amount: bigint, facts: MintFacts): string | null {
  if (!facts.open) return "The public mint is closed right now.";
  if (amount <= 0n) return "Enter an amount above 0.";
  const remaining = facts.walletCap > facts.minted ? facts.walletCap - facts.minted : 0n;
  if (remaining === 0n) return `This wallet has minted its limit of ${formatAmount(facts.walletCap)} ${facts.token}.`;
  if (amount > remaining) {
    return `That is over the limit of ${formatAmount(facts.walletCap)} ${facts.token} per wallet: this wallet may mint ${formatAmount(remaining)} ${facts.token} more.`;
  }
  const cost = costOf(amount, facts.price);
  if (cost > facts.native) {
    return `Not enough ${facts.coin}: minting ${formatAmount(amount)} ${facts.token} costs ${formatAmount(cost, { maxFraction: 6 })} ${facts.coin}, this wallet holds ${formatAmount(facts.native, { maxFraction: 6 })} ${facts.coin}.`;
  }
  return null;
}

export type SalePhase = "upcoming" | "live" | "ended" | "soldout";

export type SaleFacts = {
  now: number;
  startTime: number;
  endTime: number;
  price: bigint;
  hardCap: bigint;
  walletCap: bigint;
  sold: bigint;
  bought: bigint;
  native: bigint;
  token: string;
  coin: string;
};

export function salePhase({ now, startTime, endTime, sold, hardCap }: Pick<SaleFacts, "now" | "startTime" | "endTime" | "sold" | "hardCap">): SalePhase {
  if (sold >= hardCap) return "soldout";
  if (now < startTime) return "upcoming";
  if (now >= endTime) return "ended";
  return "live";
}

/** Why the sale takes no purchase at all right now (null while it is live). */
export function saleClosedMessage(facts: Pick<SaleFacts, "now" | "startTime" | "endTime" | "sold" | "hardCap">): string | null {
  switch (salePhase(facts)) {
    case "soldout":
      return "The sale is sold out.";
    case "upcoming":
      return `The sale has not started yet: it opens in ${countdown(facts.startTime - facts.now)}.`;
    case "ended":
      return "The sale has ended.";
    case "live":
      return null;
  }
}

export function saleRefusal(amount: bigint, facts: SaleFacts): string | null {
  const closed = saleClosedMessage(facts);
  if (closed) return closed;
  if (amount <= 0n) return "Enter an amount above 0.";
  const left = facts.hardCap - facts.sold;
  if (amount > left) return `Only ${formatAmount(left)} ${facts.token} are left in the sale.`;
  const remaining = facts.walletCap > facts.bought ? facts.walletCap - facts.bought : 0n;
  if (remaining === 0n) return `This wallet has bought its limit of ${formatAmount(facts.walletCap)} ${facts.token}.`;
  if (amount > remaining) {
    return `That is over the limit of ${formatAmount(facts.walletCap)} ${facts.token} per wallet: this wallet may buy ${formatAmount(remaining)} ${facts.token} more.`;
  }
  const cost = costOf(amount, facts.price);
  if (cost > facts.native) {
    return `Not enough ${facts.coin}: ${formatAmount(amount)} ${facts.token} cost ${formatAmount(cost, { maxFraction: 6 })} ${facts.coin}, this wallet holds ${formatAmount(facts.native, { maxFraction: 6 })} ${facts.coin}.`;
  }
  return null;
}

/** 93784 → "1d 2h 3m 4s" (the leading zero units left out). */
export function countdown(seconds: number): string {
  const total = Math.max(0, Math.floor(seconds));
  const parts: [number, string][] = [
    [Math.floor(total / 86_400), "d"],
    [Math.floor((total % 86_400) / 3600), "h"],
    [Math.floor((total % 3600) / 60), "m"],
    [total % 60, "s"],
  ];
  const first = parts.findIndex(([value]) => value > 0);
  return (first === -1 ? parts.slice(3) : parts.slice(first)).map(([value, unit]) => `${value}${unit}`).join(" ");
}
