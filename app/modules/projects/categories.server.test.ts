import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "#tests/setup/test-db";
import { user } from "#db/schema/auth";
import { walletAddress } from "#db/schema/wallets";
import type { Database } from "~/lib/db.server";
import { categoryBySlug, createCategory, deleteCategory, listCategoriesWithCounts, renameCategory } from "./categories.server";
import { isOperator } from "./operators.server";
import { projectSchema } from "./project.schema";
import { createProject, projectBySlug } from "./projects.server";

let database: Database;

beforeAll(async () => {
  database = await createTestDatabase();
  await database.db.insert(user).values([
    { id: "op", email: "Op@Example.com", name: "Operator" },
    { id: "walletop", email: "w@example.com", name: "Wallet operator" },
    { id: "member", email: "member@example.com", name: "Member" },
  ]);
  await database.db.insert(walletAddress).values({ id: randomUUID(), userId: "walletop", address: "0xAbCdEf0000000000000000000000000000000001", chainId: 56 });
});
afterAll(() => database.close());

describe("operators", () => {
  const operators = ["op@example.com", "0xabcdef0000000000000000000000000000000001"];
  it("are members whose e-mail or a linked wallet is configured", async () => {
    expect(await isOperator({ db: database.db, operators, userId: "op" })).toBe(true);
    expect(await isOperator({ db: database.db, operators, userId: "walletop" })).toBe(true);
    expect(await isOperator({ db: database.db, operators, userId: "member" })).toBe(false);
    expect(await isOperator({ db: database.db, operators, userId: null })).toBe(false);
    expect(await isOperator({ db: database.db, operators: [], userId: "op" })).toBe(false);
  });
});

describe("categories", () => {
  it("get a unique address from their name", async () => {
    const created = await createCategory({ db: database.db, input: { name: "Real World Assets", description: "" } });
    expect(created).toMatchObject({ ok: true, category: { slug: "real-world-assets" } });
    expect(await createCategory({ db: database.db, input: { name: "real world assets!", description: "" } })).toEqual({
      ok: false,
      code: "invalid",
      errors: { name: "A category with this address already exists" },
    });
    expect(await createCategory({ db: database.db, input: { name: "??", description: "" } })).toMatchObject({
      ok: false,
      code: "invalid",
      errors: { name: expect.any(String) },
    });
  });

  it("keep their address when renamed, and their projects when deleted", async () => {
    const found = (await categoryBySlug({ db: database.db, slug: "real-world-assets" }))!;
    const renamed = await renameCategory({ db: database.db, id: found.id, input: { name: "RWA", description: "Tokenised assets" } });
    expect(renamed).toMatchObject({ ok: true, category: { slug: "real-world-assets", name: "RWA" } });

    const input = projectSchema.parse({
      name: "Estate",
      slug: "estate",
      description: "",
      categoryId: String(found.id),
      website: "",
      xUrl: "",
      discordUrl: "",
      telegramUrl: "",
    });
    await createProject({ db: database.db, userId: "member", input });
    expect((await listCategoriesWithCounts({ db: database.db })).find((c) => c.id === found.id)?.projects).toBe(1);

    expect(await deleteCategory({ db: database.db, id: found.id })).toBe(true);
    expect(await deleteCategory({ db: database.db, id: found.id })).toBe(false);
    expect((await projectBySlug({ db: database.db, slug: "estate" }))?.categoryId).toBeNull();
    expect(await renameCategory({ db: database.db, id: found.id, input: { name: "Gone", description: "" } })).toMatchObject({ ok: false });
  });
});
