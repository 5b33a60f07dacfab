import { Pencil, Plus, Tags, Trash2 } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { Link, useFetcher } from "react-router";
import { toast } from "~/components/ui/toaster";
import { EmptyState } from "~/components/empty-state";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Dialog, DialogContent, DialogDescription, DialogTitle, DialogTrigger } from "~/components/ui/dialog";
import { Field, fieldProps } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { route } from "~/lib/routes";
import { ConfirmDialog } from "./confirm-dialog";

export type CategoryRow = { id: number; slug: string; name: string; description: string; projects: number };
export type CategoryActionData = {
  intent: string;
  id?: number;
  ok: boolean;
  name?: string;
  errors?: Record<string, string>;
  values?: { name: string; description: string };
};

/** Operators' category screen: create, rename (the address stays), delete (projects keep going, uncategorised). */
export function CategoryManager({ categories }: { categories: CategoryRow[] }) {
  // Deleting is answered here: the deleted row is gone by the time the answer arrives.
  const remover = useFetcher<CategoryActionData>();
  const removed = useRef("");
  const answer = remover.state === "idle" ? remover.data : undefined;
  useEffect(() => {
    if (answer?.ok) toast.success(`${removed.current} is deleted`);
    else if (answer) toast.error(answer.errors?.form ?? "That did not work.");
  }, [answer]);
  const remove = (category: CategoryRow) => {
    removed.current = category.name;
    void remover.submit({ intent: "delete", id: category.id }, { method: "post" });
  };
  const removing = remover.state !== "idle" ? Number(remover.formData?.get("id")) : null;
  return (
    <div className="grid gap-6">
      <CreateCategory />
      <Card>
        <CardHeader>
          <CardTitle>All categories</CardTitle>
          <CardDescription>{categories.length === 1 ? "1 category" : `${categories.length} categories`}, by name.</CardDescription>
        </CardHeader>
        <CardContent>
          {categories.length === 0 ? (
            <EmptyState icon={Tags} title="No categories yet">
              Create the first one above; project teams then pick it on their project.
            </EmptyState>
          ) : (
            <ul className="divide-y rounded-lg border">
              {categories.map((category) => (
                <CategoryItem key={category.id} category={category} onDelete={remove} deleting={removing === category.id} />
              ))}
            </ul>
          )}
        </CardContent>
      </Card>
    </div>
  );
}

function CategoryFields({ prefix, errors, values }: { prefix: string; errors: Record<string, string>; values: { name: string; description: string } }) {
  return (
    <>
      <Field id={`${prefix}name`} label="Name" error={errors.name}>
        <Input {...fieldProps(`${prefix}name`, errors.name)} name="name" defaultValue={values.name} maxLength={40} autoComplete="off" />
      </Field>
      <Field id={`${prefix}description`} label="Description (optional)" error={errors.description}>
        <Input
          {...fieldProps(`${prefix}description`, errors.description)}
          name="description"
          defaultValue={values.description}
          maxLength={300}
          autoComplete="off"
        />
      </Field>
    </>
  );
}

function CreateCategory() {
  const fetcher = useFetcher<CategoryActionData>();
  const result = fetcher.state === "idle" ? fetcher.data : undefined;
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (!result?.ok) return;
    form.current?.reset();
    toast.success(`${result.name} is created`);
  }, [result]);
  const errors = result && !result.ok ? (result.errors ?? {}) : {};
  return (
    <Card>
      <CardHeader>
        <CardTitle>New category</CardTitle>
        <CardDescription>Its address comes from the name, for example /categories/defi.</CardDescription>
      </CardHeader>
      <CardContent>
        <fetcher.Form method="post" className="grid gap-4 sm:grid-cols-[1fr_2fr_auto] sm:items-start" ref={form} noValidate>
          <input type="hidden" name="intent" value="create" />
          <CategoryFields prefix="new-" errors={errors} values={(result && !result.ok && result.values) || { name: "", description: "" }} />
          <Button type="submit" variant="brand" className="sm:mt-[1.375rem]" pending={fetcher.state !== "idle"}>
            <Plus aria-hidden /> Create
          </Button>
        </fetcher.Form>
      </CardContent>
    </Card>
  );
}

function CategoryItem({ category, onDelete, deleting }: { category: CategoryRow; onDelete: (category: CategoryRow) => void; deleting: boolean }) {
  const fetcher = useFetcher<CategoryActionData>();
  const [open, setOpen] = useState(false);
  const result = fetcher.state === "idle" ? fetcher.data : undefined;
  // A saved rename closes its dialog.
  const [answered, setAnswered] = useState(result);
  if (result !== answered) {
    setAnswered(result);
    if (result?.ok && result.intent === "rename") setOpen(false);
  }
  useEffect(() => {
    if (result?.ok) toast.success(`Renamed to ${result.name}`);
    else if (result?.errors?.form) toast.error(result.errors.form);
  }, [result]);
  const errors = result && !result.ok ? (result.errors ?? {}) : {};
  const prefix = `c${category.id}-`;

  return (
    <li className="grid gap-3 p-3 sm:flex sm:items-center">
      <div className="min-w-0 flex-1">
        <p className="flex flex-wrap items-baseline gap-x-2 font-medium">
          {category.name}
          <Link to={route("categories.show", { category })} className="text-xs font-normal text-muted-foreground underline-offset-4 hover:underline">
            /categories/{category.slug}
          </Link>
        </p>
        <p className="truncate text-xs text-muted-foreground">
          {category.projects} {category.projects === 1 ? "project" : "projects"}
          {category.description && ` · ${category.description}`}
        </p>
      </div>
      <div className="flex gap-2">
        <Dialog open={open} onOpenChange={setOpen}>
          <DialogTrigger asChild>
            <Button variant="outline" size="sm" aria-label={`Rename ${category.name}`}>
              <Pencil aria-hidden /> Rename
            </Button>
          </DialogTrigger>
          <DialogContent>
            <DialogTitle>Rename {category.name}</DialogTitle>
            <DialogDescription>The address /categories/{category.slug} stays the same, so links keep working.</DialogDescription>
            <fetcher.Form method="post" className="grid gap-4" noValidate>
              <input type="hidden" name="intent" value="rename" />
              <input type="hidden" name="id" value={category.id} />
              <CategoryFields prefix={prefix} errors={errors} values={(result && !result.ok && result.values) || category} />
              <Button type="submit" className="justify-self-end" pending={fetcher.state !== "idle"}>
                Save
              </Button>
            </fetcher.Form>
          </DialogContent>
        </Dialog>
        <ConfirmDialog
          trigger={
            <Button variant="ghost" size="sm" pending={deleting} aria-label={`Delete ${category.name}`}>
              <Trash2 aria-hidden /> Delete
            </Button>
          }
          title={`Delete ${category.name}?`}
          description={
            category.projects > 0
              ? `Its ${category.projects} ${category.projects === 1 ? "project stays" : "projects stay"}, without a category.`
              : "No project uses it."
          }
          confirm={(close) => (
            <Button
              variant="destructive"
              onClick={() => {
                onDelete(category);
                close();
              }}
            >
              Delete
            </Button>
          )}
        />
      </div>
    </li>
  );
}
