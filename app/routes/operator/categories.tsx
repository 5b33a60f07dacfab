import { data } from "react-router";
import { z } from "zod";
import type { Route } from "./+types/categories";
import { OperatorNav } from "~/components/operator/operator-nav";
import { PageHeader } from "~/components/page-header";
import { CategoryManager, type CategoryActionData } from "~/components/projects/category-manager";
import { parseForm } from "~/lib/forms";
import { pageTitle } from "~/lib/meta";
import { formFailure } from "~/lib/result";
import { createCategory, deleteCategory, listCategoriesWithCounts, renameCategory } from "~/modules/projects/categories.server";
import { requireOperatorUser } from "~/modules/projects/operators.server";
import { categorySchema } from "~/modules/projects/project.schema";

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle(matches[0].loaderData.appName, "Categories") }, { name: "robots", content: "noindex" }];
}

export async function loader(args: Route.LoaderArgs) {
  const { db } = await requireOperatorUser(args.context, args.request);
  return { categories: await listCategoriesWithCounts({ db }) };
}

const idSchema = z.object({ id: z.coerce.number().int().positive() });

export async function action(args: Route.ActionArgs) {
  const { db } = await requireOperatorUser(args.context, args.request);
  const formData = await args.request.formData();
  const intent = String(formData.get("intent") ?? "");
  const values = { name: String(formData.get("name") ?? ""), description: String(formData.get("description") ?? "") };
  const reply = (body: CategoryActionData, status = 200) => data<CategoryActionData>(body, { status });

  if (intent === "create") {
    const form = parseForm(categorySchema, formData);
    if (!form.ok) return formFailure<CategoryActionData>(form, { intent, ok: false, values });
    const created = await createCategory({ db, input: form.data });
    if (!created.ok) return formFailure<CategoryActionData>(created, { intent, ok: false, values });
    return reply({ intent, ok: true, name: created.category.name });
  }
  const row = idSchema.safeParse({ id: formData.get("id") });
  if (!row.success) return reply({ intent, ok: false, errors: { form: "Choose a category." }, values }, 400);
  const id = row.data.id;
  if (intent === "rename") {
    const form = parseForm(categorySchema, formData);
    if (!form.ok) return formFailure<CategoryActionData>(form, { intent, id, ok: false, values });
    const renamed = await renameCategory({ db, id, input: form.data });
    if (!renamed.ok) return formFailure<CategoryActionData>(renamed, { intent, id, ok: false, values });
    return reply({ intent, id, ok: true, name: renamed.category.name });
  }
  if (intent === "delete") {
    const deleted = await deleteCategory({ db, id });
    return deleted ? reply({ intent, id, ok: true }) : reply({ intent, id, ok: false, errors: { form: "This category no longer exists." } }, 404);
  }
  return reply({ intent, ok: false, errors: { form: "Unknown action." } }, 400);
}

export default function OperatorCategories({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <PageHeader title="Categories" description="Operators only: the labels projects are browsed by." actions={<OperatorNav />} />
      <CategoryManager categories={loaderData.categories} />
    </>
  );
}
