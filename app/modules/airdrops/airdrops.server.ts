import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { airdrop } from "#db/schema/airdrops";
import type { Db } from "~/lib/db.server";
import { isUniqueViolation } from "~/lib/db-errors";
import { invalid, ok, type FieldFailure, type Ok } from "~/lib/result";
import { assetParts } from "~/modules/ledger/assets";
import { treasuryShortBy } from "~/modules/rewards/escrow.server";
import { InsufficientFunds } from "~/modules/ledger/ledger.server";
import { AIRDROP_ENTERED } from "~/modules/rewards/promise-words";
import { airdropEntered, takesBack, tightensGate } from "~/modules/rewards/promises.server";
import { setAirdropEscrow } from "./airdrop-escrow.server";
import type { AirdropInput } from "./airdrop.schema";
import type { Gate } from "~/modules/trust/trust-types";

export type Airdrop = typeof airdrop.$inferSelect;

/** The airdrop form answers every refusal with 400, on its field (`form` for a row gone or frozen meanwhile). */
type Saved = Ok<{ airdrop: Airdrop }> | FieldFailure;

/**
 * Creates or edits a project's airdrop (the caller has checked `quests.manage`). A published
 * airdrop holds its total in escrow from the project's treasury (an edit moves the difference,
 * unpublishing returns it). Refused, with nothing saved: a token on a chain without an
 * AirdropDistributor (`distributorChains`), a published airdrop whose total the project's
 * treasury does not hold, an airdrop that has ended,
 * and an address the project already uses. A live airdrop keeps its token and rule: its members
 * are earning points under them. Once a member has earned points, whatever its status, it also
 * keeps its total (raised, never lowered), stays published and does not move its start into the
 * future (promises.server.ts).
 */
export async function saveAirdrop({
  db,
  projectId,
  airdropId,
  input,
  gate,
  distributorChains,
  now = new Date(),
}: {
  db: Db;
  projectId: string;
  airdropId?: string;
  input: AirdropInput;
  /** Who may take part (parsed and checked by the gate form); null: anyone; left out: unchanged. */
  gate?: Gate | null;
  distributorChains: ReadonlySet<number>;
  now?: Date;
}): Promise<Saved> {
  const { published, rankAmounts, ...rest } = input;
  const fields = gate === undefined ? rest : { ...rest, gate };
  const { symbol, chainId } = assetParts(input.asset);
  if (!distributorChains.has(chainId)) return invalid("asset", `${symbol} on chain ${chainId} has no airdrop contract here: choose another token.`);
  const values = { ...fields, rankAmounts: rankAmounts?.map(String) ?? null };
  try {
    return await db.transaction(async (tx) => {
      let saved: Airdrop;
      if (!airdropId) {
        const [created] = await tx
          .insert(airdrop)
          .values({ id: randomUUID(), projectId, ...values, publishedAt: published ? now : null })
          .returning();
        saved = created!;
      } else {
        const [current] = await tx
          .select()
          .from(airdrop)
          .where(and(eq(airdrop.id, airdropId), eq(airdrop.projectId, projectId)))
          .for("update");
        if (!current) return invalid("form", "This airdrop does not exist.");
        if (current.status !== "open" || current.endsAt <= now) return invalid("form", "This airdrop has ended: it can no longer change.");
        const live = current.publishedAt !== null && current.startsAt <= now;
        const changesTerms = current.asset !== input.asset || current.rule !== input.rule;
        const termsField = current.asset !== input.asset ? "asset" : "rule";
        if (live && changesTerms) return invalid(termsField, "This airdrop is live: its token and how it shares cannot change.");
        const takeBack = takesBack(current, { published, startsAt: input.startsAt }, now);
        const gateTightened = tightensGate(current.gate, gate);
        if ((takeBack || changesTerms || gateTightened || input.total < current.total) && (await airdropEntered(tx, current.id))) {
          if (takeBack) return invalid(takeBack === "unpublish" ? "published" : "startsAt", AIRDROP_ENTERED[takeBack]);
          if (changesTerms) return invalid(termsField, AIRDROP_ENTERED.change);
          if (gateTightened) return invalid("gate.combine", AIRDROP_ENTERED.gate);
          return invalid(input.rule === "pro_rata" ? "total" : "rankAmounts", AIRDROP_ENTERED.lower);
        }
        if (current.asset !== input.asset) await setAirdropEscrow(tx, { row: current, target: 0n, now });
        const [updated] = await tx
          .update(airdrop)
          .set({ ...values, publishedAt: published ? (current.publishedAt ?? now) : null, updatedAt: now })
          .where(eq(airdrop.id, airdropId))
          .returning();
        saved = updated!;
      }
      // A published airdrop holds its whole total from the treasury, so its round can always be funded.
      await setAirdropEscrow(tx, { row: saved, target: published ? saved.total : 0n, now });
      return ok({ airdrop: { ...saved, escrowed: published ? saved.total : 0n } });
    });
  } catch (error) {
    if (isUniqueViolation(error)) return invalid("slug", "This project already uses that address");
    if (error instanceof InsufficientFunds) {
      return invalid(input.rule === "pro_rata" ? "total" : "rankAmounts", await treasuryShortBy({ db, projectId, asset: input.asset, needed: input.total }));
    }
    throw error;
  }
}
