import type { Db } from "~/lib/db.server";
import type { OnchainChains } from "~/modules/tasks/completions.server";
import type { Gate, GateState } from "./trust-types";

/** Owned by the gates work: replace this stub. */

/** Each of the gate's rules for one member, and whether the gate lets them in (`unknown` when a node could not answer). */
export async function gateStateOf(_: { db: Db; chains: OnchainChains; gate: Gate; userId: string; projectId: string; now: Date }): Promise<GateState> {
  throw new Error("gateStateOf is not built yet");
}
